/// The reusable state of one reader: the decoded URL (on the slow path), the walk's captures and
/// the current candidate's parameters. It is what `fr_match` points to and what ``Matcher`` wraps.
///
/// Not thread-safe: one per thread. Every buffer grows to the largest URL and route seen and is
/// then reused, so a warm scratch makes lookups allocate nothing. Everything a caller can read
/// after a lookup lives here, in the caller's URL buffer, or in immortal interned storage
/// (``NameTable``), never in the router's tables, so results stay valid while writers change
/// the router.
@usableFromInline
package final class MatchScratch {
    /// Most non-empty segments a URL may have (docs/SEMANTICS.md §3.4).
    static let maxSegments = 1024
    /// Longest URL accepted, in bytes (docs/SEMANTICS.md §3.4).
    /// A literal, not a stored global, so that code in other modules (the C boundary) folds it
    /// instead of calling a lazy global's accessor on every lookup.
    @inlinable package static var maxURLLength: Int { 65536 }

    /// This reader's announcement slot for writers' grace periods.
    @usableFromInline package let slot: ReaderSlot
    /// PCRE2 match data, owned per reader so threads never share it.
    let regexScratch = RegexScratch()
    /// The mutable state, kept behind a pointer: mutating a class's stored properties costs a
    /// dynamic exclusivity check per access, which the lookup path cannot afford.
    @usableFromInline let state: UnsafeMutablePointer<ScratchState>

    package init() {
        slot = ReaderRegistry.acquire()
        state = .allocate(capacity: 1)
        state.initialize(to: ScratchState(regexScratch: regexScratch))
    }

    deinit {
        ReaderRegistry.release(slot)
        state.pointee.deallocate()
        state.deinitialize(count: 1)
        state.deallocate()
    }

    /// The route id of the current candidate, or `UInt64.max` when the last call did not match.
    ///
    /// This accessor and the parameter accessors below are inlinable: the C boundary calls them
    /// after every lookup, and each is a few loads.
    @inlinable package var routeID: UInt64 { state.pointee.routeID }
    /// ``routeID`` for a router whose routes carry no payload (every router of the C ABI),
    /// without its test.
    @inlinable package var routeIDWithoutPayloads: UInt64 { state.pointee.resultWord }
    /// The payload of the current candidate (a ``RouteValues`` slot), for a router whose routes
    /// carry one.
    @usableFromInline var payload: UnsafeMutableRawPointer? { state.pointee.current?.payload }
    /// The registration order of the current candidate (``RouteRecord/sequence``), or `nil` when
    /// the last call did not match; tells apart routes that share an id.
    package var routeSequence: UInt64? { state.pointee.current?.sequence }

    /// What a ``Match`` copies out of the current candidate, in one call from the caller's
    /// specialised code: its route id, payload (a ``RouteValues`` slot), and parameters. There must be a
    /// current candidate, and its payload must be held.
    @usableFromInline
    func currentResult() -> (routeID: UInt64, payload: UnsafeMutableRawPointer, parameters: Parameters) {
        let payload = state.pointee.current.unsafelyUnwrapped.payload
        let parameters = Parameters(storage: ParameterStorage.make(state))
        return (state.pointee.routeID, payload, parameters)
    }
    /// Number of parameters of the current candidate, query pairs included.
    @inlinable package var parameterCount: Int { state.pointee.parameterCount }
    /// The raw fragment when the last call matched and the URL has a `#`.
    package var fragmentBytes: UnsafeBufferPointer<UInt8>? { state.pointee.fragmentBytes }

    /// The parameter at `index`, or `nil` past the end.
    @inlinable @inline(__always)
    package func parameter(at index: Int) -> (name: UnsafeBufferPointer<UInt8>, value: UnsafeBufferPointer<UInt8>)? {
        state.pointee.parameter(at: index)
    }

    /// The value of the first parameter named `name`, or `nil`.
    package func parameter(named name: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8>? {
        state.pointee.parameter(named: name)
    }

    /// Declines the current candidate and moves to the next: `.found`, or `.noMatch` when none
    /// is left. The router that served the lookup must still exist.
    package func next() -> LookupStatus {
        guard state.pointee.current != nil else { return .noMatch }
        // A lookup that passed over no candidate leaves nothing to decline to.
        guard let core = state.pointee.core else {
            clearResult()
            return .noMatch
        }
        // A C caller may have freed the router: then there is nothing left to walk.
        guard LiveRouters.contains(state.pointee.coreIdentity) else {
            clearResult()
            return .noMatch
        }
        return core._withUnsafeGuaranteedRef { $0.decline(into: self) }
    }

    /// The methods the routes matching the last lookup's URL accept, when none accepted its
    /// method (the lookup returned `.methodNotAllowed`); `nil` otherwise.
    package var allowedMethods: AllowedMethods? { state.pointee.allowed }

    /// Calls `body` with each method the last lookup allows, in `Allow` order, when it returned
    /// `.methodNotAllowed`; returns `false` (calling nothing) otherwise. Allocates nothing.
    package func forEachAllowedMethod(_ body: (UnsafeBufferPointer<UInt8>) -> Void) -> Bool {
        guard state.pointee.allowedMethods != 0, let table = state.pointee.allowedTable else { return false }
        table.forEach(in: state.pointee.allowedMethods, impliedHead: state.pointee.allowedImpliedHead) { bytes, _ in body(bytes) }
        return true
    }

    /// Forgets the last result, and lets writers free the version it pinned.
    package func clearResult() {
        if state.pointee.leftovers { slot.unpin() }
        state.pointee.clearResult()
    }
}

/// The buffers and results of a ``MatchScratch``; see there.
@usableFromInline
struct ScratchState {
    // The slow path's segments, decoded: start and length of each (see ``load(url:webSchemes:plusAsSpace:)``).
    let segmentStarts: UnsafeMutablePointer<UnsafePointer<UInt8>>
    let segmentLengths: UnsafeMutablePointer<Int>
    var segmentCount = 0

    /// The slow path's copy of the URL, with ``padding`` readable bytes after it, the first of
    /// them a `?` that ends the path scan; also where a URL is kept for declines.
    var url: UnsafeMutablePointer<UInt8>
    /// Decoded segments and query parts.
    var decoded: UnsafeMutablePointer<UInt8>
    /// The slow path's canonical path as a walk compares it (see ``slowPrepare(_:webSchemes:plusAsSpace:foldAll:)``).
    var joined: UnsafeMutablePointer<UInt8>
    /// The slow path's canonical path as parameter values are read from it.
    var values: UnsafeMutablePointer<UInt8>
    var byteCapacity: Int
    /// A copy of a URL given as a Swift string, whose bytes may not outlive the call that lent
    /// them (see ``own(_:)``); never written by a lookup.
    var owned: UnsafeMutablePointer<UInt8>
    var ownedCapacity = 0

    /// Web host (compared case-insensitively): as written, or decoded when it holds escapes;
    /// `nil` for custom schemes and scheme-less URLs.
    var host: UnsafePointer<UInt8>?
    var hostLength = 0
    /// The URL's scheme bytes as written, `nil` when the URL has none.
    var scheme: UnsafePointer<UInt8>?
    var schemeLength = 0
    /// True when segment 0 is a custom scheme's host (slow path).
    var firstSegmentIsHost = false
    /// True when the last URL took the slow path.
    var slowPath = false
    /// True when the last URL may have set a scheme, host, fragment or query pairs, or took the
    /// slow path: the next lookup clears them first (``clearURLExtras()``).
    var urlExtras: Bool {
        get { pending & Self.urlExtrasBit != 0 }
        set { pending = newValue ? pending | Self.urlExtrasBit : pending & ~Self.urlExtrasBit }
    }
    var fragment: UnsafePointer<UInt8>?
    var fragmentLength = 0
    @usableFromInline var queryPairs = FlatBuffer<QueryPair>(capacity: 8)

    /// The walk's captures and best candidate.
    var walk: WalkState
    /// The router that served the last lookup, for declines, and its identity (see ``LiveRouters``).
    /// Set only when a decline can find another candidate.
    var core: Unmanaged<RouterCore>?
    var coreIdentity: UInt64 = 0
    /// The version of the tables the lookup walked, pinned for declines; `nil` when none is.
    var pinnedRoots: TableRoots?
    /// The current candidate, copied out of its node; `nil` when the last call did not match.
    @usableFromInline var current: Terminal?
    /// Which table it came from: 0 the scheme's, 1 the global one.
    var currentTable = 0
    /// What a decline walks again: the path, kept in this scratch when the lookup passed over
    /// candidates (``WalkState/skipped``); `nil` when no other candidate can exist.
    var declineInput: WalkInput?
    /// The tables' version the collected candidates came from, 0 for none.
    var collectedVersion: UInt64 = 0
    /// True when the lookup collected every candidate at once: declines step through that list
    /// (``collectedPosition``) instead of walking the tables again.
    var pinned = false
    var collectedPosition = 0
    /// True when the last lookup left state beyond its result: declines, a pin, a collected
    /// list, the methods of a 405. The next lookup clears it first (``clearLeftovers()``); most
    /// lookups leave none, and their next lookup resets only the result's few words.
    var leftovers: Bool {
        get { pending & Self.leftoversBit != 0 }
        set { pending = newValue ? pending | Self.leftoversBit : pending & ~Self.leftoversBit }
    }
    /// ``leftovers`` and ``urlExtras`` in one byte: a lookup tests both with one compare, and
    /// most find it 0.
    var pending: UInt8 = 0
    static let leftoversBit: UInt8 = 1
    static let urlExtrasBit: UInt8 = 2

    // The current candidate's result, read by the accessors: its parameters are laid out only
    // when read (names from its shape's layout, values at its captures), then the query pairs.
    /// The current candidate's ``Terminal/result`` (its route id, or its payload in a router
    /// whose routes carry one), `UInt64.max` when there is none.
    @usableFromInline var resultWord = UInt64.max
    /// Whether ``resultWord`` is a payload, which holds the route id: a lookup that reads only
    /// the parameters (a ``Matcher``'s) does not read the payload's line.
    @usableFromInline var resultIsPayload = false
    /// Parameters of the current candidate, query pairs included; 0 when there is none.
    @usableFromInline var resultCount = 0
    /// Path parameters of the current candidate (the first ``resultCount`` pairs before the query's).
    @usableFromInline var resultNameCount = 0
    /// Its parameters' names, in pattern order (interned, immortal).
    @usableFromInline var resultLayout: UnsafePointer<ParameterLayoutEntry>?
    /// Its captures: the walk's best ones, or an entry of a collected list.
    @usableFromInline var resultCaptures: UnsafePointer<Capture>?
    /// Where its values are read (``WalkInput/values``).
    @usableFromInline var resultValues: UnsafePointer<UInt8>?
    /// The bytes the walk compared (``WalkInput/bytes``): where a wildcard's segments end.
    var resultBytes: UnsafePointer<UInt8>?
    /// After a lookup that no route accepted the method of: the methods the routes matching the
    /// URL accept (``MethodTable`` bits), 0 otherwise; whether HEAD is implied by GET; and the
    /// table naming the bits, kept alive for as long as this value may be read.
    var allowedMethods: UInt64 = 0
    var allowedImpliedHead = false
    var allowedTable: MethodTable?
    /// The parameter storage of the last ``Match`` made from this scratch, reused for the next
    /// one once that match is gone (see ``ParameterStorage/make(_:byteCount:reusing:)``).
    var spareParameters: ParameterStorage?

    init(regexScratch: RegexScratch) {
        walk = WalkState(regexScratch: regexScratch)
        segmentStarts = .allocate(capacity: MatchScratch.maxSegments + 1)
        segmentLengths = .allocate(capacity: MatchScratch.maxSegments + 1)
        byteCapacity = 256
        (url, decoded, joined, values) = Self.allocateBytes(byteCapacity)
        owned = .allocate(capacity: 1)
    }

    /// `bytes` copied into ``owned``, so that results may point into them after the caller's
    /// buffer is gone.
    mutating func own(_ bytes: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        if bytes.count > ownedCapacity {
            owned.deallocate()
            ownedCapacity = max(bytes.count, ownedCapacity * 2)
            owned = .allocate(capacity: ownedCapacity)
        }
        if let source = bytes.baseAddress { owned.update(from: source, count: bytes.count) }
        return UnsafeBufferPointer(start: owned, count: bytes.count)
    }

    func deallocate() {
        owned.deallocate()
        segmentStarts.deallocate()
        segmentLengths.deallocate()
        url.deallocate()
        queryPairs.deallocate()
        walk.deallocate()
    }

    /// Bytes after the end of each byte buffer (and of interned names) that a load may touch: a
    /// 16-byte block while splitting the path or copying a short result out (see
    /// ``ParameterStorage``), a word while comparing. At least 16: the slow path's scan writes
    /// its `?` at the URL's end and may load the 16-byte block that starts there; a canonical
    /// path may be one byte longer than its URL.
    static let padding = 16

    /// Makes the byte buffers hold at least `count` bytes (decoding never grows a component).
    @inline(__always)
    mutating func reserveBytes(_ count: Int) {
        guard count > byteCapacity else { return }
        url.deallocate()
        byteCapacity = max(count, byteCapacity * 2)
        (url, decoded, joined, values) = Self.allocateBytes(byteCapacity)
    }

    /// The byte buffers for URLs of up to `capacity` bytes, each padded, in one allocation that
    /// starts at ``url`` (so one range check tells whether a URL lies in any of them, see
    /// ``holdsURL(_:)``). They start zeroed, so that no load ever reads uninitialized memory
    /// (bytes past a URL are read and ignored).
    private static func allocateBytes(_ capacity: Int)
        -> (UnsafeMutablePointer<UInt8>, UnsafeMutablePointer<UInt8>, UnsafeMutablePointer<UInt8>, UnsafeMutablePointer<UInt8>) {
        let stride = capacity + padding
        let block = UnsafeMutablePointer<UInt8>.allocate(capacity: 4 * stride)
        block.initialize(repeating: 0, count: 4 * stride)
        return (block, block + stride, block + 2 * stride, block + 3 * stride)
    }

    // MARK: Results

    @inlinable var routeID: UInt64 {
        resultIsPayload ? UnsafeRawPointer(bitPattern: UInt(resultWord)).unsafelyUnwrapped.load(as: UInt64.self) : resultWord
    }
    @inlinable @inline(__always)
    var parameterCount: Int { resultCount }

    @inlinable @inline(__always)
    func parameter(at index: Int) -> (name: UnsafeBufferPointer<UInt8>, value: UnsafeBufferPointer<UInt8>)? {
        guard UInt(bitPattern: index) < UInt(bitPattern: resultCount) else { return nil }
        if index < resultNameCount {
            let entry = resultLayout.unsafelyUnwrapped[index]
            let capture = resultCaptures.unsafelyUnwrapped[index]
            return (UnsafeBufferPointer(start: entry.name, count: entry.nameLength),
                    UnsafeBufferPointer(start: resultValues.unsafelyUnwrapped + Int(capture.start), count: Int(capture.length)))
        }
        let pair = queryPairs[index &- resultNameCount]
        return (UnsafeBufferPointer(start: pair.key, count: pair.keyLength),
                UnsafeBufferPointer(start: pair.value, count: pair.valueLength))
    }

    /// The interned name string of path parameter `index` of the current candidate; `nil` for a
    /// query key.
    func parameterNameString(at index: Int) -> UnsafePointer<String>? {
        index < resultNameCount ? resultLayout.unsafelyUnwrapped[index].nameString : nil
    }

    func parameter(named name: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8>? {
        for index in 0..<resultCount {
            let (candidate, value) = parameter(at: index).unsafelyUnwrapped
            if candidate.count == name.count,
               name.isEmpty || memcmp(candidate.baseAddress!, name.baseAddress!, name.count) == 0 {
                return value
            }
        }
        return nil
    }

    @inline(__always)
    var fragmentBytes: UnsafeBufferPointer<UInt8>? {
        guard current != nil, let fragment else { return nil }
        return UnsafeBufferPointer(start: fragment, count: fragmentLength)
    }

    /// Where the current candidate's wildcard lies, when it has one.
    var wildcard: Capture? {
        guard let current, current.shape.pointee.endsWithWildcard else { return nil }
        return resultCaptures.unsafelyUnwrapped[resultNameCount &- 1]
    }

    /// Calls `body` with each segment the current candidate's wildcard matched, decoded, in order.
    func forEachWildcardSegment(_ body: (UnsafePointer<UInt8>, Int) -> Void) {
        guard let wildcard, wildcard.length > 0, let bytes = resultBytes, let values = resultValues else { return }
        // Segments end at a '/' of the compared bytes; a decoded '/' is NUL there.
        var start = Int(wildcard.start)
        let end = start + Int(wildcard.length)
        var index = start
        while index <= end {
            if index == end || bytes[index] == UInt8(ascii: "/") {
                body(values + start, index - start)
                start = index + 1
            }
            index += 1
        }
    }

    /// Forgets the result. The caller unpins its slot when ``leftovers`` was set.
    @inline(__always)
    mutating func clearResult() {
        clearCurrent()
        if leftovers { clearLeftovers() }
    }

    /// Forgets the current candidate: no route, no parameter.
    @inline(__always)
    mutating func clearCurrent() {
        current = nil
        resultWord = .max
        resultIsPayload = false
        resultCount = 0
    }

    /// Forgets what a lookup left beyond its result (see ``leftovers``).
    @inline(never)
    mutating func clearLeftovers() {
        leftovers = false
        walk.clearCollected()
        allowedMethods = 0
        declineInput = nil
        collectedVersion = 0
        pinned = false
        pinnedRoots = nil
        core = nil
    }

    /// Records the methods a 405 allows (see ``allowedMethods``). Retains `table` only when it
    /// is not the one already kept: a lookup's path never touches a reference count.
    mutating func noteAllowed(_ methods: UInt64, impliedHead: Bool, table: MethodTable) {
        leftovers = true
        allowedMethods = methods
        allowedImpliedHead = impliedHead
        if allowedTable !== table { allowedTable = table }
    }

    /// The methods the last lookup allows, when no route accepted its method.
    var allowed: AllowedMethods? {
        guard allowedMethods != 0, let allowedTable else { return nil }
        return AllowedMethods(mask: allowedMethods, impliedHead: allowedImpliedHead, table: allowedTable)
    }

    /// Makes `terminal` current with its `captures` into `input`. Its parameters are laid out
    /// when read (``parameter(at:)``): a few stores here, whatever the route.
    @inline(__always)
    /// `payloads`: the router's routes carry payloads (``Terminal/result``), which the reader holds.
    mutating func activate(_ terminal: Terminal, table: Int, captures: UnsafePointer<Capture>, input: WalkInput,
                           payloads: Bool) {
        current = terminal
        currentTable = table
        resultWord = terminal.result
        resultIsPayload = payloads
        let shape = terminal.shape
        let names = shape.pointee.nameCount
        resultNameCount = names
        resultCount = names &+ queryPairs.count
        resultLayout = shape.pointee.layout
        resultCaptures = captures
        resultValues = input.values
        resultBytes = input.bytes
    }

    /// Makes `terminal`, a route without parameters found by a plain path's bytes alone, current:
    /// ``activate(_:table:captures:input:)`` for a route of the global table and a URL without
    /// query pairs. No accessor reads the layout, captures or bytes of a result without
    /// parameters, so what the last lookup left there stays.
    @inline(__always)
    mutating func activate(lone terminal: Terminal, payloads: Bool) {
        // Not ``currentTable``: only declines read it, and such a route has none.
        current = terminal
        resultWord = terminal.result
        resultIsPayload = payloads
        resultNameCount = 0
        resultCount = 0
    }

    /// Keeps `input` for declines, copying the path into this scratch when it is the caller's.
    mutating func keepForDeclines(_ input: WalkInput) {
        leftovers = true
        guard !slowPath, input.end > input.start else {
            declineInput = input
            return
        }
        // A plain path is read where it is, so the scratch may not have grown to its length yet.
        // (A URL longer than the buffers cannot lie in them: growing them frees nothing it reads.)
        reserveBytes(input.end)
        // The fast path reads the caller's buffer, which may be gone by the time of a decline:
        // copy the URL up to the path's end, so offsets stay the same.
        url.update(from: input.bytes, count: input.end)
        var kept = input
        kept.bytes = UnsafePointer(url)
        kept.values = kept.bytes
        kept.readable = byteCapacity + Self.padding
        if let host = input.host {
            // The slow path's value buffer is unused on the fast path.
            values.update(from: host, count: input.hostLength)
            kept.host = UnsafePointer(values)
        }
        declineInput = kept
    }
}

/// One decoded query item.
@usableFromInline
struct QueryPair: BitwiseCopyable {
    @usableFromInline var key: UnsafePointer<UInt8>
    @usableFromInline var keyLength: Int
    @usableFromInline var value: UnsafePointer<UInt8>
    @usableFromInline var valueLength: Int
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
