/// Filling a ``ParameterStorage`` from a lookup: what a ``Match`` copies out of the scratch
/// before the thread's next lookup reuses it (ARCHITECTURE.md, "One lookup through
/// `Router.match`").
extension ParameterStorage {
    /// The current candidate's parameters, wildcard segments and fragment, read from a match
    /// scratch's state (a pointer, not the scratch: no reference count to touch), and the
    /// pattern of its route.
    static func make(_ state: UnsafeMutablePointer<ScratchState>, pattern: UnsafeBufferPointer<UInt8>) -> ParameterStorage {
        let named = state.pointee.resultNameCount
        guard state.pointee.resultCount == named, state.pointee.fragment == nil,
              !state.pointee.current.unsafelyUnwrapped.shape.pointee.endsWithWildcard else {
            return makeWithExtras(state, pattern: pattern)
        }
        // The common match: path parameters and the pattern, nothing else.
        let captures = state.pointee.resultCaptures.unsafelyUnwrapped
        let block = blockLength(captures, named)
        let strings = 2 &* named &+ 1
        let storage = make(Contents(pairCount: named, namedCount: named, layout: state.pointee.resultLayout,
                                    segmentCount: 0, fragment: -1, pattern: strings &- 1, stringCount: strings),
                           byteCount: block &+ pattern.count, reusing: &state.pointee.spareParameters)
        let layout = storage.layout
        copyBlock(block, of: state, captures, named, to: layout)
        layout.spans[strings &- 1] = span(block, pattern.count)
        if let start = pattern.baseAddress { copy(start, pattern.count, to: layout.bytes + block, padded: true) }
        return storage
    }

    /// The length of the block holding the path's values: the URL up to the end of the last one.
    @inline(__always)
    private static func blockLength(_ captures: UnsafePointer<Capture>, _ named: Int) -> Int {
        var block = 0
        for index in 0..<named {
            let capture = captures[index]
            block = max(block, Int(capture.start) &+ Int(capture.length))
        }
        return block
    }

    /// Copies the path's values as one block, and makes each capture the span of its value: a
    /// capture is a (start, length) pair of 32-bit numbers into the block as it stands.
    @inline(__always)
    private static func copyBlock(_ block: Int, of state: UnsafeMutablePointer<ScratchState>,
                                  _ captures: UnsafePointer<Capture>, _ named: Int, to layout: Layout) {
        if block > 0 {
            // Values may lie in the caller's URL, which has no readable bytes past its end.
            layout.bytes.initialize(from: state.pointee.resultValues.unsafelyUnwrapped, count: block)
        }
        for index in 0..<named {
            let capture = captures[index]
            layout.spans[2 &* index &+ 1] = span(Int(capture.start), Int(capture.length))
        }
    }

    /// ``make(_:pattern:)`` for a match with a query, a fragment or a wildcard: those are copied
    /// string by string after the block, the wildcard's segments are spans into it.
    @inline(never)
    private static func makeWithExtras(_ state: UnsafeMutablePointer<ScratchState>,
                                       pattern: UnsafeBufferPointer<UInt8>) -> ParameterStorage {
        let named = state.pointee.resultNameCount
        let queries = state.pointee.resultCount &- named
        let captures = state.pointee.resultCaptures.unsafelyUnwrapped
        let block = blockLength(captures, named)
        var segments = 0
        state.pointee.forEachWildcardSegment { _, _ in segments &+= 1 }
        let fragment = state.pointee.fragmentBytes
        // Wrapping arithmetic: every count is bounded by the URL's and the pattern's lengths.
        var byteCount = block &+ pattern.count &+ (fragment?.count ?? 0)
        for index in 0..<queries {
            let pair = state.pointee.queryPairs[index]
            byteCount &+= pair.keyLength &+ pair.valueLength
        }
        let pairs = named &+ queries
        var strings = 2 &* pairs &+ segments
        let fragmentIndex = fragment == nil ? -1 : strings
        if fragment != nil { strings &+= 1 }
        let contents = Contents(pairCount: pairs, namedCount: named, layout: state.pointee.resultLayout,
                                segmentCount: segments, fragment: fragmentIndex, pattern: strings,
                                stringCount: strings &+ 1)
        let storage = make(contents, byteCount: byteCount, reusing: &state.pointee.spareParameters)
        let layout = storage.layout
        copyBlock(block, of: state, captures, named, to: layout)
        if segments > 0, let values = state.pointee.resultValues {
            var index = 2 &* pairs
            state.pointee.forEachWildcardSegment { start, count in
                layout.spans[index] = span(start - values, count)
                index &+= 1
            }
        }
        var offset = block
        func append(_ index: Int, _ start: UnsafePointer<UInt8>?, _ count: Int, padded: Bool) {
            layout.spans[index] = span(offset, count)
            if let start, count > 0 { copy(start, count, to: layout.bytes + offset, padded: padded) }
            offset &+= count
        }
        for index in 0..<queries {
            let pair = state.pointee.queryPairs[index]
            append(2 &* (named &+ index), pair.key, pair.keyLength, padded: false)
            append(2 &* (named &+ index) &+ 1, pair.value, pair.valueLength, padded: false)
        }
        if let fragment { append(fragmentIndex, fragment.baseAddress, fragment.count, padded: false) }
        append(strings, pattern.baseAddress, pattern.count, padded: true)
        return storage
    }

    /// Copies `count` bytes. `padded` says that 16 bytes past the source's end may be read (a
    /// pattern is padded so): up to 32 bytes are then copied 16 at a time instead of by memcpy.
    /// The storage keeps 16 spare bytes at its end, and a block ends less than 16 bytes past
    /// the string; a later string overwrites the excess.
    @inline(__always)
    private static func copy(_ start: UnsafePointer<UInt8>, _ count: Int, to target: UnsafeMutablePointer<UInt8>,
                             padded: Bool) {
        guard padded && count <= 32 else {
            target.initialize(from: start, count: count)
            return
        }
        let source = UnsafeRawPointer(start), target = UnsafeMutableRawPointer(target)
        target.storeBytes(of: source.loadUnaligned(as: SIMD16<UInt8>.self), as: SIMD16<UInt8>.self)
        if count > 16 {
            target.storeBytes(of: source.loadUnaligned(fromByteOffset: 16, as: SIMD16<UInt8>.self),
                              toByteOffset: 16, as: SIMD16<UInt8>.self)
        }
    }
}
