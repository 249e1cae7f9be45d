/// The reusable state of one reader: the decoded URL, the candidates of the last lookup and the
/// parameters of the current one. It is what `fr_match` points to and what ``Matcher`` wraps.
///
/// Not thread-safe: one per thread. Every buffer grows to the largest URL and candidate list seen
/// and is then reused, so a warm scratch makes lookups allocate nothing. Everything a caller can
/// read after a lookup lives here, in the caller's URL buffer, or in the immortal ``NameTable``,
/// never in the router's tables, so results stay valid while writers change the router.
@usableFromInline
package final class MatchScratch {
    /// Most non-empty segments a URL may have (docs/SEMANTICS.md §3.4).
    static let maxSegments = 1024
    /// Longest URL accepted, in bytes (docs/SEMANTICS.md §3.4).
    /// A literal, not a stored global, so that code in other modules (the C boundary) folds it
    /// instead of calling a lazy global's accessor on every lookup.
    @inlinable package static var maxURLLength: Int { 65536 }
    static let rankCapacity = maxSegments + 2

    /// This reader's announcement slot for writers' grace periods.
    package let slot: ReaderSlot
    /// PCRE2 match data, owned per reader so threads never share it.
    let regexScratch = RegexScratch()
    /// The mutable state, kept behind a pointer: mutating a class's stored properties costs a
    /// dynamic exclusivity check per access, which the lookup path cannot afford.
    @usableFromInline let state: UnsafeMutablePointer<ScratchState>

    package init() {
        slot = ReaderRegistry.acquire()
        state = .allocate(capacity: 1)
        state.initialize(to: ScratchState())
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
    /// The payload of the current candidate (the Swift router's value box).
    @usableFromInline var payload: UnsafeMutableRawPointer? { state.pointee.payload }
    /// The stored route of the current candidate (``RouteRecord/index``), or `nil` when the last
    /// call did not match; tells apart routes that share an id.
    package var routeRecord: UInt32? {
        state.pointee.current >= 0 ? state.pointee.resolved[state.pointee.current].record : nil
    }

    /// What a ``Match`` copies out of the current candidate, in one call from the caller's
    /// specialised code: its route id, payload (a ``RoutePayload``), and parameters with the
    /// route's pattern. There must be a current candidate, and its payload must be held.
    @usableFromInline
    func currentResult() -> (routeID: UInt64, payload: UnsafeMutableRawPointer, parameters: Parameters) {
        let payload = state.pointee.payload.unsafelyUnwrapped
        let pattern = Unmanaged<RoutePayload>.fromOpaque(payload)._withUnsafeGuaranteedRef { $0.pattern }
        let parameters = Parameters(state, pattern: pattern)
        return (state.pointee.routeID, payload, parameters)
    }
    /// Number of parameters of the current candidate, query pairs included.
    @inlinable package var parameterCount: Int { state.pointee.parameterCount }
    /// The raw fragment when the last call matched and the URL has a `#`.
    package var fragmentBytes: UnsafeBufferPointer<UInt8>? { state.pointee.fragmentBytes }
    /// The wildcard's segment range of the current candidate, `nil` when it has none.
    var wildcardRange: Range<Int>? { state.pointee.wildcardRange }

    /// The parameter at `index`, or `nil` past the end.
    @inlinable
    package func parameter(at index: Int) -> (name: UnsafeBufferPointer<UInt8>, value: UnsafeBufferPointer<UInt8>)? {
        state.pointee.parameter(at: index)
    }

    /// The value of the first parameter named `name`, or `nil`.
    package func parameter(named name: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8>? {
        state.pointee.parameter(named: name)
    }

    /// The decoded segment at `index`.
    func segment(_ index: Int) -> UnsafeBufferPointer<UInt8> { state.pointee.segment(index) }

    /// Declines the current candidate and moves to the next: `.found`, or `.noMatch` when none is left.
    package func next() -> LookupStatus { state.pointee.next() }

    /// Forgets the last result.
    package func clearResult() { state.pointee.clearResult() }
}

/// The buffers and results of a ``MatchScratch``; see there.
@usableFromInline
struct ScratchState {
    // The URL's path segments, decoded: start and length of each. Every segment lies in `url` or
    // `decoded`, so the eight bytes from any of its positions may be loaded as one word.
    let segmentStarts: UnsafeMutablePointer<UnsafePointer<UInt8>>
    let segmentLengths: UnsafeMutablePointer<Int>
    var segmentCount = 0

    /// The URL being matched, copied with ``padding`` readable bytes after it, the first of them
    /// a `?` that ends the path scan: lookups load whole words and 16-byte blocks without
    /// checking where the URL ends. Results point into this copy, never into the caller's buffer
    /// (a caller may match one of them again: see ``holdsURL(_:)``).
    var url: UnsafeMutablePointer<UInt8>
    /// Decoded segments and query parts, then the joined wildcard value; sized to the URL.
    var decoded: UnsafeMutablePointer<UInt8>
    var joined: UnsafeMutablePointer<UInt8>
    var byteCapacity: Int

    /// Web host (compared case-insensitively): as written, or decoded into `decoded` when it holds
    /// escapes; `nil` for custom schemes and scheme-less URLs.
    var host: UnsafePointer<UInt8>?
    var hostLength = 0
    /// The URL's scheme bytes as written, `nil` when the URL has none.
    var scheme: UnsafePointer<UInt8>?
    var schemeLength = 0
    /// True when segment 0 is a custom scheme's host (compared case-insensitively).
    var firstSegmentIsHost = false
    var fragment: UnsafePointer<UInt8>?
    var fragmentLength = 0
    var queryPairs = FlatBuffer<QueryPair>(capacity: 8)

    /// Candidate variants of the last lookup (indexes into the side that served it).
    var candidates = FlatBuffer<UInt32>(capacity: 16)
    /// The same candidates copied out of the table, best first.
    @usableFromInline var resolved = FlatBuffer<ResolvedCandidate>(capacity: 8)
    var resolvedPositions = FlatBuffer<ParamSlot>(capacity: 32)
    /// Index of the current candidate in `resolved`, or -1 when the last call did not match.
    @usableFromInline var current = -1
    /// Parameters of the current candidate, then the query pairs.
    @usableFromInline var parameters = FlatBuffer<MatchParameter>(capacity: 16)
    /// Two rows of segment ranks for precedence comparisons.
    let rankBuffers: UnsafeMutablePointer<UInt8>
    /// Regex matches of the current lookup that hit PCRE2's limits.
    var limitHits = 0
    /// The parameter storage of the last ``Match`` made from this scratch, reused for the next
    /// one once that match is gone (see ``ParameterStorage/make(pairCount:segmentCount:hasFragment:hasPattern:stringCount:byteCount:reusing:)``).
    var spareParameters: ParameterStorage?

    init() {
        segmentStarts = .allocate(capacity: MatchScratch.maxSegments + 1)
        segmentLengths = .allocate(capacity: MatchScratch.maxSegments + 1)
        byteCapacity = 256
        (url, decoded, joined) = Self.allocateBytes(byteCapacity)
        rankBuffers = .allocate(capacity: 2 * MatchScratch.rankCapacity)
    }

    func deallocate() {
        segmentStarts.deallocate()
        segmentLengths.deallocate()
        url.deallocate()
        decoded.deallocate()
        joined.deallocate()
        rankBuffers.deallocate()
        queryPairs.deallocate()
        candidates.deallocate()
        resolved.deallocate()
        resolvedPositions.deallocate()
        parameters.deallocate()
    }

    /// Bytes after the end of `url`, `decoded` and `joined` (and of interned names) that a load
    /// may touch: a 16-byte block while splitting the path or copying a short result out (see
    /// ``ParameterStorage``), a word while hashing. At least 16: the path scan writes its `?` at
    /// the URL's end and may load the 16-byte block that starts there.
    static let padding = 16

    /// Makes the byte buffers hold at least `count` bytes (decoding never grows a component).
    @inline(__always)
    mutating func reserveBytes(_ count: Int) {
        guard count > byteCapacity else { return }
        url.deallocate()
        decoded.deallocate()
        joined.deallocate()
        byteCapacity = max(count, byteCapacity * 2)
        (url, decoded, joined) = Self.allocateBytes(byteCapacity)
    }

    /// The URL copy, decoding and joining buffers for URLs of up to `capacity` bytes, each padded.
    /// They start zeroed, so that no load ever reads uninitialized memory (bytes past a URL are
    /// read and ignored).
    private static func allocateBytes(_ capacity: Int)
        -> (UnsafeMutablePointer<UInt8>, UnsafeMutablePointer<UInt8>, UnsafeMutablePointer<UInt8>) {
        let url = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity + padding)
        url.initialize(repeating: 0, count: capacity + padding)
        let decoded = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity + padding)
        decoded.initialize(repeating: 0, count: capacity + padding)
        let joined = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity + padding)
        joined.initialize(repeating: 0, count: capacity + padding)
        return (url, decoded, joined)
    }

    /// The input of a trie lookup over this URL.
    func lookupInput(foldAll: Bool) -> LookupInput {
        LookupInput(starts: segmentStarts, lengths: segmentLengths, count: segmentCount,
                    foldedSegments: foldAll ? Int.max : (firstSegmentIsHost ? 1 : 0), host: host, hostLength: hostLength)
    }

    // MARK: Results

    @inlinable var routeID: UInt64 { current >= 0 ? resolved[current].routeID : UInt64.max }
    var payload: UnsafeMutableRawPointer? { current >= 0 ? resolved[current].payload : nil }
    @inlinable @inline(__always)
    var parameterCount: Int { current >= 0 ? parameters.count : 0 }

    @inlinable
    func parameter(at index: Int) -> (name: UnsafeBufferPointer<UInt8>, value: UnsafeBufferPointer<UInt8>)? {
        guard current >= 0, index >= 0, index < parameters.count else { return nil }
        let parameter = parameters[index]
        return (UnsafeBufferPointer(start: parameter.name, count: parameter.nameLength),
                UnsafeBufferPointer(start: parameter.value, count: parameter.valueLength))
    }

    func parameter(named name: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8>? {
        guard current >= 0 else { return nil }
        for index in 0..<parameters.count {
            let parameter = parameters[index]
            if parameter.nameLength == name.count,
               name.isEmpty || memcmp(parameter.name, name.baseAddress!, name.count) == 0 {
                return UnsafeBufferPointer(start: parameter.value, count: parameter.valueLength)
            }
        }
        return nil
    }

    @inline(__always)
    var fragmentBytes: UnsafeBufferPointer<UInt8>? {
        guard current >= 0, let fragment else { return nil }
        return UnsafeBufferPointer(start: fragment, count: fragmentLength)
    }

    @inline(__always)
    var wildcardRange: Range<Int>? {
        guard current >= 0, resolved[current].endsWithWildcard else { return nil }
        let candidate = resolved[current]
        let last = Int(candidate.parameterCount) - 1
        let start = candidate.slotStart >= 0 ? Int(resolvedPositions[Int(candidate.slotStart) + last].segment)
            : Int(candidate.layout.unsafelyUnwrapped[last].segment)
        return start..<segmentCount
    }

    @inline(__always)
    func segment(_ index: Int) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: segmentStarts[index], count: segmentLengths[index])
    }

    mutating func next() -> LookupStatus {
        guard current >= 0 else { return .noMatch }
        if current + 1 < resolved.count {
            activate(current + 1)
            return .found
        }
        current = -1
        parameters.removeAll()
        return .noMatch
    }

    mutating func clearResult() {
        current = -1
        parameters.removeAll()
        resolved.removeAll()
        resolvedPositions.removeAll()
        candidates.removeAll()
    }

    /// Makes candidate `index` current and lays out its parameters.
    mutating func activate(_ index: Int) {
        current = index
        parameters.removeAll()
        let candidate = resolved[index]
        let count = Int(candidate.parameterCount)
        if count == 0 && queryPairs.count == 0 { return }
        let layout = candidate.layout.unsafelyUnwrapped
        let out = parameters.extend(by: count &+ queryPairs.count)
        if candidate.slotStart < 0 && !candidate.endsWithWildcard {
            // The common case: every parameter is a whole segment.
            for offset in 0..<count {
                let entry = layout[offset]
                let segment = Int(entry.segment)
                out[offset] = MatchParameter(name: entry.name, nameLength: entry.nameLength, nameString: entry.nameString,
                                             value: segmentStarts[segment], valueLength: segmentLengths[segment])
            }
        } else {
            for offset in 0..<count {
                let entry = layout[offset]
                let value: UnsafeBufferPointer<UInt8>
                if candidate.slotStart >= 0 {
                    let slot = resolvedPositions[Int(candidate.slotStart) + offset]
                    if slot.length >= 0 {
                        value = UnsafeBufferPointer(start: segmentStarts[Int(slot.segment)] + Int(slot.offset),
                                                    count: Int(slot.length))
                    } else if candidate.endsWithWildcard && offset == count - 1 {
                        value = joinedSegments(from: Int(slot.segment))
                    } else {
                        value = segment(Int(slot.segment))
                    }
                } else if offset == count - 1 {
                    value = joinedSegments(from: Int(entry.segment))
                } else {
                    value = segment(Int(entry.segment))
                }
                out[offset] = MatchParameter(name: entry.name, nameLength: entry.nameLength, nameString: entry.nameString,
                                             value: value.baseAddress ?? UnsafePointer(joined), valueLength: value.count)
            }
        }
        for pair in 0..<queryPairs.count {
            let query = queryPairs[pair]
            out[count &+ pair] = MatchParameter(name: query.key, nameLength: query.keyLength, nameString: nil,
                                                value: query.value, valueLength: query.valueLength)
        }
    }

    /// Segments `start...` joined by `/`: borrowed from the URL when there is one, copied otherwise.
    private func joinedSegments(from start: Int) -> UnsafeBufferPointer<UInt8> {
        let count = segmentCount - start
        if count <= 0 { return UnsafeBufferPointer(start: joined, count: 0) }
        if count == 1 { return segment(start) }
        var written = 0
        for index in start..<segmentCount {
            if index > start {
                joined[written] = UInt8(ascii: "/")
                written += 1
            }
            (joined + written).update(from: segmentStarts[index], count: segmentLengths[index])
            written += segmentLengths[index]
        }
        return UnsafeBufferPointer(start: joined, count: written)
    }
}

/// One (name, value) pair as handed to callers: pointers into the URL, the scratch or the name table.
@usableFromInline
struct MatchParameter: BitwiseCopyable {
    @usableFromInline var name: UnsafePointer<UInt8>
    @usableFromInline var nameLength: Int
    /// The interned name as a string (path parameters); `nil` for query keys.
    var nameString: UnsafePointer<String>?
    @usableFromInline var value: UnsafePointer<UInt8>
    @usableFromInline var valueLength: Int
}

/// One decoded query item.
struct QueryPair {
    var key: UnsafePointer<UInt8>
    var keyLength: Int
    var value: UnsafePointer<UInt8>
    var valueLength: Int
}

/// A candidate copied out of the table, so declining and reading parameters never touch the
/// table again (a writer may have changed it since).
@usableFromInline
struct ResolvedCandidate: BitwiseCopyable {
    @usableFromInline var routeID: UInt64
    var payload: UnsafeMutableRawPointer?
    /// The variant's immortal parameter layout.
    var layout: UnsafePointer<NameTable.LayoutEntry>?
    var record: UInt32
    /// Start of the candidate's slots in `resolvedPositions` when it has partial segments, else -1.
    var slotStart: Int32
    var parameterCount: Int32
    var endsWithWildcard: Bool
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
