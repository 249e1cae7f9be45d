import Synchronization

/// The untyped engine behind ``Router`` and the C ABI: tables, registration, removal, lookup.
///
/// Thread-safety: any number of threads may call ``match(url:into:)`` (each with its own
/// ``MatchScratch``) while others add or remove routes. Readers never block: the tables are
/// kept once, as a tree whose published nodes never change; a writer builds the new version
/// beside it (sharing what it does not change), publishes it with one atomic store, waits for
/// readers still inside the old one to leave (a grace period, see ``ReaderRegistry``), then
/// frees what it replaced (see ``PublishedTables``). Writers are serialized.
@usableFromInline
package final class RouterCore: @unchecked Sendable {
    package let options: RouterOptions
    let webSchemes: WebSchemes
    /// The published tables.
    let tables = PublishedTables()
    let writer = Mutex(WriterState())
    /// Regex constraints that hit PCRE2's match or depth limit (docs/SEMANTICS.md §3.4).
    let regexLimitHits = Atomic<Int>(0)
    let routeCount = Atomic<Int>(0)
    /// Where parameter names are interned: the process-wide table, or a small one in tests.
    let names: NameTable.Store
    /// True when routes carry payloads that readers read after a lookup (the Swift router);
    /// such a reader announces it holds them until it drops them (see ``ReaderSlot``).
    private let holdsPayloads: Bool
    /// Never reused, unlike an address: how a match names the router its declines need.
    let identity = LiveRouters.register()
    /// The method names routes use, numbered (docs/SEMANTICS.md §3.7).
    let methods = MethodTable()

    /// A router core; `releasePayload` releases a removed route's payload once no reader can
    /// hold it (nil when routes carry none, as through the C ABI).
    package init(options: RouterOptions, names: NameTable.Store = NameTable.shared,
         releasePayload: (@Sendable (UnsafeMutableRawPointer) -> Void)? = nil) {
        self.options = options
        self.names = names
        holdsPayloads = releasePayload != nil
        webSchemes = WebSchemes(options.webSchemes)
        writer.withLock { $0.releasePayload = releasePayload }
    }

    deinit {
        // Declines on this router's matches have finished and will find it gone.
        LiveRouters.unregister(identity)
        writer.withLock { state in
            guard let release = state.releasePayload else { return }
            for index in state.routes.liveIndexes {
                if let payload = state.routes.records[Int(index)].payload { release(payload) }
            }
            // No reader can use a router that is being freed.
            state.reclaimer.releaseAll(release: release)
        }
        tables.deallocate(retired: writer.withLock { $0.retired })
        webSchemes.deallocate()
    }

    /// Routes as registered (a route with optional groups counts once).
    package var count: Int { routeCount.load(ordering: .relaxed) }

    /// Payloads of removed routes not released yet (readers may still hold them).
    var retiredPayloadCount: Int { writer.withLock { $0.reclaimer.pendingCount } }

    /// This router's address: how readers' slots name the router they read.
    @inline(__always)
    var tag: UInt { UInt(bitPattern: ObjectIdentifier(self)) }

    // MARK: Lookup

    /// Finds the best candidate for `url` and makes it current in `scratch`.
    /// Returns `.found`, `.noMatch` or `.invalidURL`.
    /// - Complexity: one pass over the URL plus the tree paths it can follow; no heap allocation
    ///   once `scratch` has served a lookup at least as large.
    package func match(url: UnsafeBufferPointer<UInt8>, into scratch: MatchScratch) -> LookupStatus {
        match(url: url, method: nil, into: scratch, collectingAll: false)
    }

    /// Finds the best candidate for a request, `method` and `url` (docs/SEMANTICS.md §3.7): the
    /// best route that matches the URL and accepts the method (for HEAD with the fallback on,
    /// HEAD or GET, in one walk; see ``preferHead(_:_:)``). An empty `method` is a lookup
    /// without one. Returns `.found`, `.noMatch`, `.methodNotAllowed` (the allowed methods are
    /// in `scratch`), `.invalidURL` or `.invalidMethod` (not an HTTP token).
    /// - Complexity: as ``match(url:into:)``, plus the comparison of the method with the names
    ///   the router knows; no heap allocation once `scratch` is warm.
    package func match(url: UnsafeBufferPointer<UInt8>, method: UnsafeBufferPointer<UInt8>,
                       into scratch: MatchScratch) -> LookupStatus {
        match(url: url, method: method.isEmpty ? nil : method, into: scratch, collectingAll: false)
    }

    /// Finds every candidate for `url` (that accepts `method`, when given) in one version of the
    /// tables, best first, and makes the best one current; declines then step through that list,
    /// whatever writers do meanwhile. For callers that want them all (``Router/matches(_:)``,
    /// ``Router/candidates(_:)``).
    package func matchAll(string url: String, method: HTTPMethod? = nil, into scratch: MatchScratch) -> LookupStatus {
        let bytes = withUTF8(url) { scratch.state.pointee.own($0) }
        guard let method else { return match(url: bytes, method: nil, into: scratch, collectingAll: true) }
        return withUTF8(method.rawValue) { match(url: bytes, method: $0, into: scratch, collectingAll: true) }
    }

    private func match(url: UnsafeBufferPointer<UInt8>, method: UnsafeBufferPointer<UInt8>?, into scratch: MatchScratch,
                       collectingAll: Bool) -> LookupStatus {
        let state = scratch.state
        state.pointee.clearResult()
        scratch.slot.unpin()
        let url = state.pointee.holdsURL(url) ? state.pointee.setAside(url) : url
        guard let input = state.pointee.prepare(url: url, webSchemes: webSchemes, plusAsSpace: options.plusAsSpace,
                                                foldAll: options.caseInsensitivePaths) else { return .invalidURL }
        let walk = state.pointer(to: \.walk)!
        scratch.slot.enter(router: tag)
        let roots = tables.current
        walk.pointee.reserveCaptures(roots.maxCaptures)
        walk.pointee.reset()
        // The method is resolved after the tables are loaded: they use no name it cannot see.
        // Written out here, not in a function: every lookup with a method runs it.
        if let method {
            let word = MethodTable.word(method)
            let bit = methods.bit(of: method, word: word)
            if bit == 0 && !HTTPMethod.isToken(method) {
                scratch.slot.exit(holding: false)
                return .invalidMethod
            }
            walk.pointee.methodBit = bit
            walk.pointee.headPreference = nil
            if word == MethodTable.headWord && method.count == 4 && options.headFallback { preferHead(bit, walk) }
        } else {
            walk.pointee.methodBit = .max
            walk.pointee.headPreference = nil
        }
        if collectingAll { return collectAll(input, scratch, roots) }
        let table = walkTables(input, scratch, roots)
        if table < 0 && walk.pointee.rejectedMethods != 0 {
            scratch.slot.exit(holding: false)
            if walk.pointee.limitHits != 0 { regexLimitHits.add(walk.pointee.limitHits, ordering: .relaxed) }
            noteMethodNotAllowed(state, walk.pointee.rejectedMethods)
            return .methodNotAllowed
        }
        let limitHits = walk.pointee.limitHits
        let mayDecline = walk.pointee.skipped
        guard let best = walk.pointee.best else {
            scratch.slot.exit(holding: false)
            if limitHits != 0 { regexLimitHits.add(limitHits, ordering: .relaxed) }
            return .noMatch
        }
        if mayDecline {
            // Declines walk this very version: keep it (and, in Swift, every value it holds).
            scratch.slot.pin(roots.version)
            state.pointee.pinnedRoots = roots
        }
        if holdsPayloads {
            if mayDecline {
                scratch.slot.list(count: ReaderSlot.heldCapacity + 1) { _ in nil }
            } else {
                scratch.slot.list(count: 1) { _ in best.payload }
            }
            scratch.slot.exit(holding: true)
        } else {
            scratch.slot.exit(holding: false)
        }
        if limitHits != 0 { regexLimitHits.add(limitHits, ordering: .relaxed) }
        state.pointee.activate(best, table: table, captures: walk.pointee.bestCaptures, input: input)
        state.pointee.core = Unmanaged.passUnretained(self)
        state.pointee.coreIdentity = identity
        if mayDecline {
            state.pointee.keepForDeclines(input)
        }
        return .found
    }

    /// Walks the URL's scheme table, then (when nothing there matched and the fallback applies)
    /// the global table. Returns which table the best candidate came from: 0 the scheme's, 1 the
    /// global one, -1 none.
    @inline(__always)
    private func walkTables(_ input: WalkInput, _ scratch: MatchScratch, _ roots: TableRoots) -> Int {
        let state = scratch.state
        let walk = state.pointer(to: \.walk)!
        var table = -1
        let scheme = state.pointee.scheme
        if let scheme, let root = roots.root(forScheme: scheme, count: state.pointee.schemeLength) {
            Walker(input: input, state: walk, regexScratch: scratch.regexScratch, table: 0).visit(root, input.start)
            if walk.pointee.best != nil { table = 0 }
        }
        let fallback = scheme == nil || options.globalFallback
        if table < 0 {
            if fallback {
                Walker(input: input, state: walk, regexScratch: scratch.regexScratch, table: 1).visit(roots.global, input.start)
                if walk.pointee.best != nil { table = 1 }
            }
        } else if fallback {
            // The global table's candidates come after the scheme table's: found on a decline.
            walk.pointee.skipped = true
        }
        return table
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
    private func noteMethodNotAllowed(_ state: UnsafeMutablePointer<ScratchState>, _ rejected: UInt64) {
        let get = methods.getBit
        state.pointee.noteAllowed(rejected, impliedHead: options.headFallback && get != 0 && rejected & get != 0,
                                  table: methods)
    }

    /// ``match(url:into:)`` for a URL given as a Swift string: its bytes are copied into the
    /// scratch first, since results (parameter values) point into the URL and a string lends
    /// its bytes only for the duration of a call.
    package func match(string url: String, into scratch: MatchScratch) -> LookupStatus {
        let bytes = withUTF8(url) { scratch.state.pointee.own($0) }
        return match(url: bytes, into: scratch)
    }

    /// ``match(url:method:into:)`` for a URL given as a Swift string (copied as above).
    package func match(string url: String, method: HTTPMethod, into scratch: MatchScratch) -> LookupStatus {
        let bytes = withUTF8(url) { scratch.state.pointee.own($0) }
        return withUTF8(method.rawValue) { match(url: bytes, method: $0, into: scratch) }
    }

    /// Collects every candidate of `input` (the reader is inside `roots`), makes the best one
    /// current and holds every payload until the caller moves on.
    private func collectAll(_ input: WalkInput, _ scratch: MatchScratch, _ roots: TableRoots) -> LookupStatus {
        let state = scratch.state
        let walk = state.pointer(to: \.walk)!
        collect(input, scratch, roots)
        if walk.pointee.collected.count == 0 && walk.pointee.rejectedMethods != 0 {
            scratch.slot.exit(holding: false)
            if walk.pointee.limitHits != 0 { regexLimitHits.add(walk.pointee.limitHits, ordering: .relaxed) }
            noteMethodNotAllowed(state, walk.pointee.rejectedMethods)
            return .methodNotAllowed
        }
        state.pointee.declineInput = input
        state.pointee.collectedVersion = roots.version
        state.pointee.pinned = true
        let collected = walk.pointee.collected
        if holdsPayloads && collected.count > 0 {
            scratch.slot.list(count: collected.count) { collected[$0].terminal.payload }
            scratch.slot.exit(holding: true)
        } else {
            scratch.slot.exit(holding: false)
        }
        if walk.pointee.limitHits != 0 { regexLimitHits.add(walk.pointee.limitHits, ordering: .relaxed) }
        guard collected.count > 0 else { return .noMatch }
        state.pointee.core = Unmanaged.passUnretained(self)
        state.pointee.coreIdentity = identity
        state.pointee.collectedPosition = 0
        state.pointee.activate(collected[0].terminal, table: collected[0].table,
                               captures: walk.pointee.collectedCaptures.base + collected[0].captureStart, input: input)
        return .found
    }

    /// Walks every table `input` may match in collecting mode and sorts what it found.
    private func collect(_ input: WalkInput, _ scratch: MatchScratch, _ roots: TableRoots) {
        let state = scratch.state
        let walk = state.pointer(to: \.walk)!
        walk.pointee.reserveCaptures(roots.maxCaptures)
        walk.pointee.reset()
        walk.pointee.collecting = true
        let scheme = state.pointee.scheme
        if let scheme, let root = roots.root(forScheme: scheme, count: state.pointee.schemeLength) {
            Walker(input: input, state: walk, regexScratch: scratch.regexScratch, table: 0).visit(root, input.start)
        }
        if scheme == nil || options.globalFallback {
            Walker(input: input, state: walk, regexScratch: scratch.regexScratch, table: 1).visit(roots.global, input.start)
        }
        Self.sortCollected(walk)
    }

    /// Declines the current candidate of `scratch` and makes the next one current: the next
    /// candidate in the order of docs/SEMANTICS.md §3.1 in the version of the tables the lookup
    /// walked, which the lookup pinned when it passed over any candidate. The first decline walks
    /// that version again collecting every candidate; later ones step through the list.
    func decline(into scratch: MatchScratch) -> LookupStatus {
        let state = scratch.state
        guard let current = state.pointee.current, let input = state.pointee.declineInput else {
            state.pointee.clearResult()
            return .noMatch
        }
        let walk = state.pointer(to: \.walk)!
        if state.pointee.pinned {
            // A list collected in one version: step through it (its payloads are held).
            let position = state.pointee.collectedPosition + 1
            guard position < walk.pointee.collected.count else {
                state.pointee.clearResult()
                return .noMatch
            }
            let candidate = walk.pointee.collected[position]
            state.pointee.collectedPosition = position
            state.pointee.activate(candidate.terminal, table: candidate.table,
                                   captures: walk.pointee.collectedCaptures.base + candidate.captureStart, input: input)
            return .found
        }
        // The version the lookup walked, pinned since (see ``match(url:into:collectingAll:)``).
        guard let roots = state.pointee.pinnedRoots else {
            state.pointee.clearResult()
            return .noMatch
        }
        if state.pointee.collectedVersion != roots.version {
            collect(input, scratch, roots)
            state.pointee.collectedVersion = roots.version
            if walk.pointee.limitHits != 0 { regexLimitHits.add(walk.pointee.limitHits, ordering: .relaxed) }
        }
        let table = state.pointee.currentTable
        let collected = walk.pointee.collected
        let head = walk.pointee.headPreference
        var next = -1
        for index in 0..<collected.count {
            let candidate = collected[index]
            if candidate.table > table
                || (candidate.table == table && Walker.precedes(current, candidate.terminal, head: head)) {
                next = index
                break
            }
        }
        guard next >= 0 else {
            state.pointee.clearResult()
            scratch.slot.unpin()
            return .noMatch
        }
        let candidate = collected[next]
        state.pointee.activate(candidate.terminal, table: candidate.table,
                               captures: walk.pointee.collectedCaptures.base + candidate.captureStart, input: input)
        return .found
    }

    /// Puts collected candidates in order: by table, then docs/SEMANTICS.md §3.1 (and §3.7's
    /// HEAD preference for a HEAD request), the order of the walk. Insertion sort: the lists
    /// are short.
    private static func sortCollected(_ walk: UnsafeMutablePointer<WalkState>) {
        let items = walk.pointee.collected.base
        let count = walk.pointee.collected.count
        let head = walk.pointee.headPreference
        guard count > 1 else { return }
        for index in 1..<count {
            let item = items[index]
            var position = index
            while position > 0 {
                let previous = items[position - 1]
                let before = item.table < previous.table
                    || (item.table == previous.table && Walker.precedes(item.terminal, previous.terminal, head: head))
                guard before else { break }
                items[position] = previous
                position -= 1
            }
            items[position] = item
        }
    }

    // MARK: Introspection

    /// The registered routes, in registration order.
    package var routes: [RouteRecord] { withStableSnapshot { records, _ in records } }

    /// The registered routes with `id`, in registration order.
    func routes(withID id: UInt64) -> [RouteRecord] {
        writer.withLock { state in state.routes.indexes(withID: id).map { record(state, $0) } }
    }

    /// A stored route as introspection shows it; the caller holds the writer lock.
    private func record(_ state: borrowing WriterState, _ index: UInt32) -> RouteRecord {
        let store = state.routes
        let record = store.records[Int(index)]
        return RouteRecord(id: record.id, priority: record.priority, pattern: store.pattern(of: index),
                           methods: methods.methods(in: state.methodSets[Int(record.methodSet)]),
                           scheme: store.scheme(of: index), sequence: record.sequence, index: index)
    }

    /// Runs `body` on the registered routes (in registration order) and the published tables,
    /// both read under one hold of the writer lock, so they describe the same version.
    func withStableSnapshot<R>(_ body: ([RouteRecord], TableRoots) -> R) -> R {
        writer.withLock { state in
            let records = state.routes.liveIndexes.map { record(state, $0) }.sorted { $0.sequence < $1.sequence }
            return body(records, tables.published)
        }
    }
}


/// A registered route as introspection shows it.
package struct RouteRecord: Sendable {
    package var id: UInt64
    package var priority: Int32
    package var pattern: String
    /// The methods it accepts in `Allow` order; empty for any method.
    package var methods: [HTTPMethod]
    /// Lower-cased scheme, `nil` for the global table.
    package var scheme: String?
    /// Registration order.
    package var sequence: UInt64
    /// Where the route is stored: the `record` of its variants and of a match's candidates.
    package var index: UInt32
}
