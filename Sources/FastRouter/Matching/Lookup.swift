/// One lookup, as a pipeline (docs/ARCHITECTURE.md, "One lookup through the C API"):
/// scan the URL → enter the reader slot → walk the tables → decide (found, 405, none) → leave the
/// slot → make the best candidate current. A table without dynamic routes answers most paths by
/// the whole path instead of the walk (``lookupByPath``, docs/ARCHITECTURE.md, "Static paths").
///
/// Every stage pays only for what the URL and the tables use: a found route overwrites the last
/// result and a failure clears it, and what an earlier lookup left for declines, a 405 or a URL's
/// extras is cleared only when one did (``ScratchState/pending``); the query, the host, the
/// method and declines cost nothing when the URL has none. The scan (`ScratchState.scanPlainPath`,
/// or `scanFullURL` for any other URL) and the walk (`Walker.visit`, `Walker.visitPath`) are
/// functions of their own so that `make perf` can count each stage.
extension RouterCore {
    /// Finds the best candidate for `url` and makes it current in `scratch`.
    /// Returns `.found`, `.noMatch` or `.invalidURL`.
    /// - Complexity: one pass over the URL plus the tree paths it can follow; no heap allocation
    ///   once `scratch` has served a lookup at least as large.
    package func match(url: UnsafeBufferPointer<UInt8>, into scratch: MatchScratch) -> LookupStatus {
        lookup(url, method: .none, scratch)
    }

    /// Finds the best candidate for a request, `method` and `url` (docs/SEMANTICS.md §3.7): the
    /// best route that matches the URL and accepts the method. An empty `method` is a lookup
    /// without one. Returns `.found`, `.noMatch`, `.methodNotAllowed` (the allowed methods are
    /// in `scratch`), `.invalidURL` or `.invalidMethod` (not an HTTP token).
    /// - Complexity: as ``match(url:into:)``, plus the comparison of the method with the names
    ///   the router knows; no heap allocation once `scratch` is warm.
    package func match(method: UnsafeBufferPointer<UInt8>, url: UnsafeBufferPointer<UInt8>,
                       into scratch: MatchScratch) -> LookupStatus {
        lookup(url, method: Self.requested(method), scratch)
    }

    /// The method a lookup asks for: none when `method` is empty (docs/SEMANTICS.md §3.7).
    @inline(__always)
    fileprivate static func requested(_ method: UnsafeBufferPointer<UInt8>) -> MethodQuery {
        method.isEmpty ? .none : .name(method)
    }

    /// The methods a route must accept for a lookup answered by the path alone (``MethodTable``
    /// bits): every one for a lookup without a method, GET's for GET; 0 for any other method,
    /// which the walk resolves (HEAD's fallback to GET, a name to check, a 405 to note).
    @inline(__always)
    fileprivate func pathMethodBit(_ method: MethodQuery) -> UInt64 {
        switch method {
        case .none: return .max
        case .standard(let number): return number == 0 ? methods.getBit : 0
        case .name(let name): return isGET(name) ? methods.getBit : 0
        case .word(let word): return word == MethodTable.getWord ? methods.getBit : 0
        }
    }

    /// Calls `body` with the lookup's form of `method`: its word when it has one (no string is
    /// read), else its name's bytes.
    @inline(__always)
    fileprivate static func withQuery<R>(_ method: HTTPMethod, _ body: (MethodQuery) -> R) -> R {
        let word = method.word
        if word != 0 { return body(.word(word)) }
        return withUTF8(method.rawValue) { body(.name($0)) }
    }

    /// ``match(method:url:into:)`` for an ``HTTPMethod``.
    package func match(method: HTTPMethod, url: UnsafeBufferPointer<UInt8>, into scratch: MatchScratch) -> LookupStatus {
        Self.withQuery(method) { lookup(url, method: $0, scratch) }
    }

    /// ``match(method:url:into:)`` through the walk whatever the tables, never answered by the
    /// path alone (``lookupByPath``): what tests compare that answer with. `nil` asks for no
    /// method.
    package func walk(method: HTTPMethod?, url: UnsafeBufferPointer<UInt8>, into scratch: MatchScratch) -> LookupStatus {
        guard let method else { return lookup(url, method: .none, scratch, collectingAll: false) }
        return Self.withQuery(method) { lookup(url, method: $0, scratch, collectingAll: false) }
    }

    /// ``match(url:into:)`` for a URL given as a Swift string: its bytes are copied into the
    /// scratch first, since results (parameter values) point into the URL and a string lends
    /// its bytes only for the duration of a call.
    package func match(string url: String, into scratch: MatchScratch) -> LookupStatus {
        let bytes = withUTF8(url) { scratch.state.pointee.own($0) }
        return match(url: bytes, into: scratch)
    }

    /// ``match(method:url:into:)`` for a URL given as a Swift string (copied as above).
    package func match(string url: String, method: HTTPMethod, into scratch: MatchScratch) -> LookupStatus {
        let bytes = withUTF8(url) { scratch.state.pointee.own($0) }
        return match(method: method, url: bytes, into: scratch)
    }

    /// Finds every candidate for `url` (that accepts `method`, when given) in one version of the
    /// tables, best first, and makes the best one current; declines then step through that list,
    /// whatever writers do meanwhile. For callers that want them all (``Router/matches(_:)``,
    /// ``Router/candidates(_:)``).
    package func matchAll(string url: String, method: HTTPMethod? = nil, into scratch: MatchScratch) -> LookupStatus {
        let bytes = withUTF8(url) { scratch.state.pointee.own($0) }
        guard let method else { return lookup(bytes, method: .none, scratch, collectingAll: true) }
        return Self.withQuery(method) { lookup(bytes, method: $0, scratch, collectingAll: true) }
    }

    // MARK: The pipeline

    /// A lookup by the path when the tables may answer so (``mayAnswerByPath``), else by the walk.
    @inline(__always)
    fileprivate func lookup(_ url: UnsafeBufferPointer<UInt8>, method: MethodQuery, _ scratch: MatchScratch) -> LookupStatus {
        mayAnswerByPath ? lookupByPath(url, method: method, scratch, as: LookupStatus.self, payloads: holdsPayloads)
            : lookup(url, method: method, scratch, collectingAll: false)
    }

    @inline(__always)
    fileprivate func lookup(_ url: UnsafeBufferPointer<UInt8>, method: MethodQuery, _ scratch: MatchScratch,
                            collectingAll: Bool) -> LookupStatus {
        lookup(url, method: method, scratch, collectingAll: collectingAll, as: LookupStatus.self)
    }

    /// ``lookup(_:method:_:collectingAll:)`` giving back `Result` (see ``LookupResult``).
    @inline(__always)
    fileprivate func lookup<Result: LookupResult>(_ url: UnsafeBufferPointer<UInt8>, method: MethodQuery,
                                                   _ scratch: MatchScratch, collectingAll: Bool,
                                                   as _: Result.Type) -> Result {
        let state = scratch.state
        forgetLeftovers(scratch)
        let (end, slashes) = ScratchState.scanPlainPath(url.baseAddress, url.count)
        guard state.pointee.takeURL(url, end: end, slashes: slashes, options: self) else {
            state.pointee.clearCurrent()
            return Result.answer(.invalidURL, scratch, self)
        }
        return walkAndDecide(method: method, scratch, collectingAll: collectingAll, as: Result.self)
    }

    /// ``lookup(_:method:_:collectingAll:)`` for a router whose last publication said a plain path
    /// may be answered by the whole path (``mayAnswerByPath``): a global table without dynamic
    /// routes. The path's node, found by its hash (``Walker/visitPath(_:_:end:readable:)``),
    /// holds every candidate; when one route ends there and accepts the method, it is the
    /// answer, and the lookup writes no walk state. A path the map lacks matches no route.
    /// Anything else (a URL that is not a plain path, several routes at the node, a method other
    /// than GET, tables published since without the map) goes through the walk, which gives the
    /// same answers (docs/ARCHITECTURE.md, "Static paths").
    ///
    /// `payloads` is ``holdsPayloads``, or `false` where the caller knows the router has none (the
    /// C entries'). `Result` is what the caller wants back: the C entries' status, with the route made
    /// current in `scratch`, or the Swift API's ``FoundMatch``, made here from the route without
    /// making it current first (``LookupResult``).
    @inline(__always)
    fileprivate func lookupByPath<Result: LookupResult>(_ url: UnsafeBufferPointer<UInt8>, method: MethodQuery,
                                                         _ scratch: MatchScratch, as _: Result.Type,
                                                         payloads: Bool) -> Result {
        let state = scratch.state
        forgetLeftovers(scratch)
        let (end, slashes) = ScratchState.scanPlainPath(url.baseAddress, url.count)
        // A method other than GET (bit 0) is the walk's, but for a word: no route accepts bit 0,
        // so the test below sends it there, or a path the map lacks answers it.
        let bit = pathMethodBit(method)
        if end > 0 && (bit != 0 || !method.isName) {
            scratch.slot.enter(router: tag)
            let roots = tables.current
            if let paths = roots.staticPaths.root {
                let base = url.baseAddress.unsafelyUnwrapped
                guard let node = Walker.visitPath(StaticPaths(root: paths), base, end: end, readable: url.count) else {
                    scratch.slot.exit(holding: false)
                    state.pointee.clearCurrent()
                    return Result.answer(.noMatch, scratch, self)
                }
                if node.terminalCount == 1 {
                    let found = node.terminalAddress(at: 0)
                    let shape = found.pointee.shape
                    // A route of the global table has no host rule (docs/SEMANTICS.md §2), and
                    // without a method every route takes the URL: its methods are not read.
                    if method.isNone || shape.pointee.methods & bit != 0 {
                        let best = found.pointee
                        if payloads {
                            scratch.slot.list(count: 1) { _ in best.payload }
                            scratch.slot.exit(holding: true)
                        } else {
                            scratch.slot.exit(holding: false)
                        }
                        return Result.foundByPath(best, scratch, payloads: payloads)
                    }
                }
            }
            // Several routes to weigh, one that refuses the method, or no map: the walk decides.
            scratch.slot.exit(holding: false)
        }
        guard state.pointee.takeURL(url, end: end, slashes: slashes, options: self) else {
            state.pointee.clearCurrent()
            return Result.answer(.invalidURL, scratch, self)
        }
        return walkAndDecide(method: method, scratch, as: Result.self)
    }

    /// Forgets what the last lookup left beyond its result. The last result itself stays until
    /// this lookup replaces it (``ScratchState/activate``) or a failure clears it.
    /// The URL's extras (``ScratchState/urlExtras``) go too: a plain path has none, and the full
    /// scan writes its own.
    @inline(__always)
    fileprivate func forgetLeftovers(_ scratch: MatchScratch) {
        if scratch.state.pointee.pending != 0 { Self.forgetPending(scratch) }
    }

    /// ``forgetLeftovers(_:)`` when there is something to forget: off the common path.
    @inline(never)
    private static func forgetPending(_ scratch: MatchScratch) {
        let state = scratch.state
        if state.pointee.leftovers {
            scratch.slot.unpin()
            state.pointee.clearLeftovers()
        }
        if state.pointee.urlExtras { state.pointee.clearURLExtras() }
    }

    /// ``walkAndDecide(method:_:collectingAll:as:)`` out of line, for ``lookupByPath``'s rare URLs.
    @inline(never)
    fileprivate func walkAndDecide<Result: LookupResult>(method: MethodQuery, _ scratch: MatchScratch,
                                                          as _: Result.Type) -> Result {
        walkAndDecide(method: method, scratch, collectingAll: false, as: Result.self)
    }

    /// The pipeline after the scan, over the input it prepared: enter the reader slot, resolve
    /// the method, walk the tables, decide (found, 405, none), leave the slot, make the best
    /// candidate current.
    @inline(__always)
    fileprivate func walkAndDecide<Result: LookupResult>(method: MethodQuery, _ scratch: MatchScratch,
                                                          collectingAll: Bool, as _: Result.Type) -> Result {
        let state = scratch.state
        let walk = state.pointer(to: \.walk).unsafelyUnwrapped
        scratch.slot.enter(router: tag)
        let roots = tables.current
        walk.pointee.reserveCaptures(roots.maxCaptures)
        walk.pointee.reset()
        // The method is resolved after the tables are loaded: they use no name it cannot see.
        // Written out here, not in a function: every lookup with a method runs it.
        switch method {
        case .none:
            walk.pointee.methodBit = .max
            walk.pointee.headPreference = WalkState.noHeadPreference
        case .standard(let number):
            resolveStandard(number, walk)
        case .name(let method):
            let number = standardMethodNumber(of: method)
            if number >= 0 {
                resolveStandard(number, walk)
            } else {
                // Any other name (never HEAD): by its word, when it is a token.
                walk.pointee.headPreference = WalkState.oneMethod
                let bit = methods.bit(of: method)
                if bit == 0 && !HTTPMethod.isToken(method) {
                    scratch.slot.exit(holding: false)
                    state.pointee.clearCurrent()
                    return Result.answer(.invalidMethod, scratch, self)
                }
                walk.pointee.methodBit = bit
            }
        case .word(let word):
            // An ``HTTPMethod``'s: a token, its word made when it was.
            walk.pointee.headPreference = WalkState.oneMethod
            if word == MethodTable.getWord {
                walk.pointee.methodBit = methods.getBit
            } else {
                let bit = methods.bit(word: word)
                walk.pointee.methodBit = bit
                if word == MethodTable.headWord && options.headFallback { preferHead(bit, walk) }
            }
        }
        if collectingAll { return Result.answer(collectAll(walk.pointee.input, scratch, roots), scratch, self) }
        let table: Int
        if roots.dynamicRoutes == 0 && walk.pointee.input.foldLimit == 0 && walk.pointee.input.end != walk.pointee.input.start
            && state.pointee.scheme == nil {
            // A path alone in a global table without dynamic routes: found by the whole path.
            Walker(state: walk).visitPath(roots.staticPaths)
            table = walk.pointee.best != nil ? 1 : -1
        } else {
            table = walkTables(scratch, roots)
        }
        if table < 0 && walk.pointee.rejectedMethods != 0 {
            // The one 405 decision (docs/SEMANTICS.md §3.7): routes match the URL, none the method.
            scratch.slot.exit(holding: false)
            countLimitHits(walk)
            state.pointee.clearCurrent()
            noteMethodNotAllowed(state, walk.pointee.rejectedMethods)
            return Result.answer(.methodNotAllowed, scratch, self)
        }
        guard let found = walk.pointee.best else {
            scratch.slot.exit(holding: false)
            countLimitHits(walk)
            state.pointee.clearCurrent()
            return Result.answer(.noMatch, scratch, self)
        }
        let mayDecline = walk.pointee.skipped
        // Declines are kept only for a caller that may ask for them (``LookupResult/keepsDeclines``).
        let keepsDeclines = Result.keepsDeclines && mayDecline
        // Copied out of its node while the reader is still inside the lookup (see
        // ``WalkState/best``).
        let best = found.pointee
        if keepsDeclines {
            // Declines walk this very version: keep it (and, in Swift, every value it holds).
            scratch.slot.pin(roots.version)
            state.pointee.pinnedRoots = roots
            // Keeping the path writes into this scratch: a plain path that lies there moves out
            // first, its captures' offsets unchanged. (A plain path's input is the URL: its
            // bytes and length, so the URL need not be kept alive across the walk.)
            if !state.pointee.slowPath {
                let url = UnsafeBufferPointer(start: walk.pointee.input.bytes, count: walk.pointee.input.readable)
                if state.pointee.holdsURL(url) {
                    let moved = state.pointee.setAside(url).baseAddress.unsafelyUnwrapped
                    walk.pointee.input.bytes = moved
                    walk.pointee.input.values = moved
                }
            }
            state.pointee.core = Unmanaged.passUnretained(self)
            state.pointee.coreIdentity = identity
            state.pointee.keepForDeclines(walk.pointee.input)
        }
        // A regex that hit its limit set `skipped` too (see ``WalkState/skipped``).
        if mayDecline { countLimitHits(walk) }
        if holdsPayloads {
            if keepsDeclines {
                scratch.slot.list(count: ReaderSlot.heldCapacity + 1) { _ in nil }
            } else {
                scratch.slot.list(count: 1) { _ in best.payload }
            }
            scratch.slot.exit(holding: true)
        } else {
            scratch.slot.exit(holding: false)
        }
        return Result.found(best, table: table, captures: walk.pointee.bestCaptures, input: walk.pointee.input, scratch, self)
    }

    /// Walks the URL's scheme table, then (when nothing there matched and the fallback applies)
    /// the global table, over ``WalkState/input``. Returns which table the best candidate came
    /// from: 0 the scheme's, 1 the global one, -1 none.
    @inline(__always)
    func walkTables(_ scratch: MatchScratch, _ roots: TableRoots) -> Int {
        let state = scratch.state
        let walk = state.pointer(to: \.walk).unsafelyUnwrapped
        let start = walk.pointee.input.start
        guard let scheme = state.pointee.scheme else {
            // A path alone: the global table, the walk of most lookups.
            Walker(state: walk).visitGlobal(roots)
            return walk.pointee.best != nil ? 1 : -1
        }
        var table = -1
        if let root = roots.root(forScheme: scheme, count: state.pointee.schemeLength) {
            Walker(state: walk).visit(root, start)
            if walk.pointee.best != nil { table = 0 }
        }
        if options.globalFallback {
            if table < 0 {
                Walker(state: walk).visitGlobal(roots)
                if walk.pointee.best != nil { table = 1 }
            } else {
                // The global table's candidates come after the scheme table's: found on a decline.
                walk.pointee.skipped = true
            }
        }
        return table
    }

    /// Adds the walk's regex limit hits (docs/SEMANTICS.md §3.4) to the router's count: the one
    /// place they are counted. A lookup that found a route calls it only when the walk set
    /// ``WalkState/skipped``, which a hit sets.
    @inline(__always)
    func countLimitHits(_ walk: UnsafeMutablePointer<WalkState>) {
        let hits = walk.pointee.limitHits
        if hits != 0 {
            regexLimitHits.add(hits, ordering: .relaxed)
            walk.pointee.limitHits = 0
        }
    }

    /// Resolves standard name `number` (``standardMethodNumber(of:)``) for the walk: its bit,
    /// one load, and for HEAD with the fallback on, GET's routes too.
    @inline(__always)
    private func resolveStandard(_ number: Int, _ walk: UnsafeMutablePointer<WalkState>) {
        walk.pointee.headPreference = WalkState.oneMethod
        let bit = methods.standardBit(number)
        walk.pointee.methodBit = bit
        if number == MethodTable.headNumber && options.headFallback { preferHead(bit, walk) }
    }

    /// Makes the walk of a HEAD request (`head`: HEAD's bit, 0 when no route names it) with the
    /// fallback on take the routes accepting GET too, in the same walk, the routes naming HEAD
    /// first among routes of one shape (docs/SEMANTICS.md §3.7). Only a HEAD request pays for
    /// the GET lookup.
    private func preferHead(_ head: UInt64, _ walk: UnsafeMutablePointer<WalkState>) {
        walk.pointee.methodBit = head | methods.getBit
        walk.pointee.headPreference = head
    }

    /// Records in `state` the methods a 405 allows: `rejected`, and HEAD when GET is among them
    /// and GET routes serve HEAD requests.
    func noteMethodNotAllowed(_ state: UnsafeMutablePointer<ScratchState>, _ rejected: UInt64) {
        let get = methods.getBit
        state.pointee.noteAllowed(rejected, impliedHead: options.headFallback && get != 0 && rejected & get != 0,
                                  table: methods)
    }
}

/// The method a lookup asks for (docs/SEMANTICS.md §3.7): none, a standard name by its number
/// (``standardMethodNumber(of:)``, what the C entry tells before the lookup), a name as the
/// request spelled it (any bytes: the lookup checks it is a token), or an ``HTTPMethod``'s
/// word, which a token of up to eight bytes has.
enum MethodQuery {
    case none
    case standard(Int)
    case name(UnsafeBufferPointer<UInt8>)
    case word(UInt64)

    /// Whether the lookup has no method: every route takes it.
    @inline(__always)
    var isNone: Bool {
        if case .none = self { return true }
        return false
    }

    /// Whether the method is a name, which may not be a token.
    @inline(__always)
    var isName: Bool {
        if case .name = self { return true }
        return false
    }
}

// MARK: The C entry points' lookups

// Free functions whose arguments lie where the C entry's own do (router, URL bytes and length,
// match) and whose result is the status's C number (``LookupStatus/rawValue``): the entry then
// ends with a jump here rather than a call, and a lookup runs in one frame instead of two (17
// instructions fewer per lookup in `make perf`). The entry chooses among them with
// ``RouterCore/mayAnswerByPath``. A router made through the C ABI carries no payloads.

/// ``RouterCore/match(url:into:)`` for the C entry point `fr_router_match`, once it has checked
/// its arguments, through the walk.
package func matchStatus(_ core: RouterCore, _ url: UnsafeBufferPointer<UInt8>, _ scratch: MatchScratch) -> Int32 {
    core.lookup(url, method: .none, scratch, collectingAll: false).rawValue
}

/// ``matchStatus(_:_:_:)`` for tables that may answer by the path (``RouterCore/lookupByPath``).
package func pathMatchStatus(_ core: RouterCore, _ url: UnsafeBufferPointer<UInt8>, _ scratch: MatchScratch) -> Int32 {
    assert(!core.holdsPayloads, "a C router's routes carry no payload")
    return core.lookupByPath(url, method: .none, scratch, as: LookupStatus.self, payloads: false).rawValue
}

/// ``RouterCore/match(method:url:into:)`` for the C entry point `fr_router_match_method`, as
/// ``matchStatus(_:_:_:)`` is for `fr_router_match`, through the walk: what
/// ``methodStatus(_:method:_:_:)`` calls for a name that is not a standard one. Out of line, so
/// that the standard names' lookup does not hold the name.
@inline(never)
package func matchStatus(_ core: RouterCore, method: UnsafeBufferPointer<UInt8>, _ url: UnsafeBufferPointer<UInt8>,
                         _ scratch: MatchScratch) -> Int32 {
    core.lookup(url, method: RouterCore.requested(method), scratch, collectingAll: false).rawValue
}

/// ``RouterCore/match(method:url:into:)`` for the C entry point `fr_router_match_method`, once
/// it has checked its arguments and sent a GET request on tables that may answer by the path to
/// ``pathGETStatus(_:method:_:_:)``: through the walk. A standard name is told here, once
/// (``standardMethodNumber(of:)``), and its lookup carries the number, not the name; any other
/// name goes to ``matchStatus(_:method:_:_:)``.
package func methodStatus(_ core: RouterCore, method: UnsafeBufferPointer<UInt8>, _ url: UnsafeBufferPointer<UInt8>,
                          _ scratch: MatchScratch) -> Int32 {
    let number = standardMethodNumber(of: method)
    guard number >= 0 else { return matchStatus(core, method: method, url, scratch) }
    return core.lookup(url, method: .standard(number), scratch, collectingAll: false).rawValue
}

/// ``matchStatus(_:method:_:_:)`` for a GET request (``isGET(_:)``) and tables that may answer
/// by the path. Its arguments are ``matchStatus(_:method:_:_:)``'s, where the entry has them,
/// though the method is known.
package func pathGETStatus(_ core: RouterCore, method _: UnsafeBufferPointer<UInt8>, _ url: UnsafeBufferPointer<UInt8>,
                           _ scratch: MatchScratch) -> Int32 {
    assert(!core.holdsPayloads, "a C router's routes carry no payload")
    return core.lookupByPath(url, method: .word(MethodTable.getWord), scratch, as: LookupStatus.self, payloads: false).rawValue
}

// MARK: The Swift API's lookups

extension RouterCore {
    /// Matches `url` with `scratch` (this thread's) and copies the result out of it: all of a
    /// lookup through the Swift API in one frame, but reading the route's value, which the caller
    /// does before ``FoundMatch/release()``. The caller lends the URL's bytes for the call (a
    /// string's, borrowed): the parameters copy what they keep.
    @usableFromInline @inline(never)
    func bestMatch(_ url: UnsafeBufferPointer<UInt8>, _ scratch: MatchScratch) -> FoundMatch {
        lookup(url, method: .none, scratch, collectingAll: false, as: FoundMatch.self)
    }

    /// ``bestMatch(_:_:)`` for tables that may answer by the path (``mayAnswerByPath``, which
    /// the caller reads).
    @usableFromInline @inline(never)
    func bestMatchByPath(_ url: UnsafeBufferPointer<UInt8>, _ scratch: MatchScratch) -> FoundMatch {
        lookupByPath(url, method: .none, scratch, as: FoundMatch.self, payloads: holdsPayloads)
    }

    /// ``bestMatch(_:_:)`` for a request whose method has a word (``HTTPMethod/word``, not 0):
    /// the caller need not lend the method's name.
    @usableFromInline @inline(never)
    func bestMatch(methodWord: UInt64, _ url: UnsafeBufferPointer<UInt8>, _ scratch: MatchScratch) -> FoundMatch {
        lookup(url, method: .word(methodWord), scratch, collectingAll: false, as: FoundMatch.self)
    }

    /// ``bestMatch(methodWord:_:_:)`` for tables that may answer by the path.
    @usableFromInline @inline(never)
    func bestMatchByPath(methodWord: UInt64, _ url: UnsafeBufferPointer<UInt8>, _ scratch: MatchScratch) -> FoundMatch {
        lookupByPath(url, method: .word(methodWord), scratch, as: FoundMatch.self, payloads: holdsPayloads)
    }

    /// ``bestMatch(_:_:)`` for a request with any other method (a name over eight bytes): a
    /// call of its own, so that the caller's common path does not hold the method's name.
    @usableFromInline @inline(never)
    func bestMatch(_ url: String, longMethod method: HTTPMethod) -> FoundMatch {
        Self.withLookupInput(self, url) { core, url, scratch in
            withUTF8(method.rawValue) { core.lookup(url, method: .name($0), scratch, collectingAll: false, as: FoundMatch.self) }
        }
    }

    /// Calls `lookup` with `core`, `url`'s bytes (borrowed, not copied) and this thread's
    /// scratch: what the Swift entries, inlined into their callers (``Router/match(_:)``), do
    /// around ``bestMatch(_:_:)``. The closures inside capture no reference: in a caller that
    /// keeps the router in a struct, a captured core would be retained at every lookup, and its
    /// count is shared by every thread that matches with the router.
    @inlinable @inline(__always)
    static func withLookupInput(_ core: RouterCore, _ url: String,
                                _ lookup: (RouterCore, UnsafeBufferPointer<UInt8>, MatchScratch) -> FoundMatch) -> FoundMatch {
        let core = Unmanaged.passUnretained(core)
        let scratch = ThreadScratch.current(core._withUnsafeGuaranteedRef { $0.scratchKey })
        return withUTF8(url) { url in
            core._withUnsafeGuaranteedRef { core in scratch._withUnsafeGuaranteedRef { lookup(core, url, $0) } }
        }
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
