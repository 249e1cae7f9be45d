/// Filling a ``ParameterStorage`` from a lookup: what a ``Match`` copies out of the scratch
/// before the thread's next lookup reuses it (ARCHITECTURE.md, "One lookup through
/// `Router.match`").
extension ParameterStorage {
    /// The current candidate's parameters, wildcard segments and fragment, read from a match
    /// scratch's state (a pointer, not the scratch: no reference count to touch); `nil` when it
    /// has none of them, as most matches of static routes.
    @inline(__always)
    static func make(_ state: UnsafeMutablePointer<ScratchState>) -> ParameterStorage? {
        let named = state.pointee.resultNameCount
        guard state.pointee.resultCount == named, state.pointee.fragment == nil,
              !state.pointee.current.unsafelyUnwrapped.shape.pointee.endsWithWildcard else {
            return makeWithExtras(state)
        }
        guard named > 0 else { return nil }
        return makePath(state, named)
    }

    /// ``make(_:)`` for the common match: path parameters, nothing else.
    @inline(__always)
    private static func makePath(_ state: UnsafeMutablePointer<ScratchState>, _ named: Int) -> ParameterStorage {
        let captures = state.pointee.resultCaptures.unsafelyUnwrapped
        return makePath(captures, named, layout: state.pointee.resultLayout, values: state.pointee.resultValues.unsafelyUnwrapped,
                        bound: blockLength(captures, named), reusing: &state.pointee.spareParameters)
    }

    /// The storage of a match of `named` path parameters and nothing else: their names'
    /// `layout`, their `captures` into `values` (the URL, or the slow path's copy), which end at
    /// `bound` or before. Also what the Swift API's lookup calls straight from the walk, the
    /// match never made current (``FoundMatch/found(_:table:captures:input:_:_:)``), with the
    /// path's end as the bound: room for a few bytes more than the block, so that one pass over
    /// the captures writes the spans and finds the block's end.
    /// `named` is at least 1.
    @inline(__always)
    static func makePath(_ captures: UnsafePointer<Capture>, _ named: Int, layout names: UnsafePointer<ParameterLayoutEntry>?,
                         values: UnsafePointer<UInt8>, bound: Int, reusing spare: inout ParameterStorage?) -> ParameterStorage {
        let storage = make(Contents(pairCount: named, namedCount: named, layout: names,
                                    segmentCount: 0, fragment: -1, stringCount: 2 &* named),
                           byteCount: bound, reusing: &spare)
        let layout = storage.layout
        var block = 0
        func take(_ index: Int) {
            let capture = captures[index]
            let start = Int(capture.start), length = Int(capture.length)
            layout.spans[2 &* index &+ 1] = span(start, length)
            block = max(block, start &+ length)
        }
        // The first two captures without a loop: most matches have one or two, and a loop's
        // set-up (compilers unroll it) costs more than they do.
        take(0)
        if named > 1 {
            take(1)
            var index = 2
            while index < named {
                take(index)
                index &+= 1
            }
        }
        copyBytes(values, block, to: layout.bytes)
        return storage
    }

    /// Copies `count` bytes from `source`, which may have no readable byte past them (the
    /// caller's URL), by overlapping words: a value block is a few dozen bytes, which a call to
    /// `memcpy` costs more than.
    @inline(__always)
    private static func copyBytes(_ source: UnsafePointer<UInt8>, _ count: Int, to target: UnsafeMutablePointer<UInt8>) {
        let from = UnsafeRawPointer(source), to = UnsafeMutableRawPointer(target)
        if count >= 16 {
            // Blocks up to 48 bytes (most) without a loop, whose set-up costs more than they do.
            func copy16(at offset: Int) {
                to.storeBytes(of: from.loadUnaligned(fromByteOffset: offset, as: SIMD16<UInt8>.self), toByteOffset: offset,
                              as: SIMD16<UInt8>.self)
            }
            if count > 32 {
                copy16(at: 0)
                copy16(at: 16)
                var offset = 32
                while count &- offset > 16 {
                    copy16(at: offset)
                    offset &+= 16
                }
            } else if count > 16 {
                copy16(at: 0)
            }
            copy16(at: count &- 16)
        } else if count >= 8 {
            to.storeBytes(of: from.loadUnaligned(as: UInt64.self), as: UInt64.self)
            to.storeBytes(of: from.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self), toByteOffset: count &- 8, as: UInt64.self)
        } else if count >= 4 {
            to.storeBytes(of: from.loadUnaligned(as: UInt32.self), as: UInt32.self)
            to.storeBytes(of: from.loadUnaligned(fromByteOffset: count &- 4, as: UInt32.self), toByteOffset: count &- 4, as: UInt32.self)
        } else {
            var offset = 0
            while offset < count {
                target[offset] = source[offset]
                offset &+= 1
            }
        }
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
    private static func copyBlock(_ block: Int, from values: UnsafePointer<UInt8>?,
                                  _ captures: UnsafePointer<Capture>, _ named: Int, to layout: Layout) {
        // Values may lie in the caller's URL, which has no readable bytes past its end.
        if block > 0 { copyBytes(values.unsafelyUnwrapped, block, to: layout.bytes) }
        for index in 0..<named {
            let capture = captures[index]
            layout.spans[2 &* index &+ 1] = span(Int(capture.start), Int(capture.length))
        }
    }

    /// ``make(_:)`` for a match with a query, a fragment or a wildcard: those are copied string
    /// by string after the block, the wildcard's segments are spans into it.
    @inline(never)
    private static func makeWithExtras(_ state: UnsafeMutablePointer<ScratchState>) -> ParameterStorage {
        let named = state.pointee.resultNameCount
        let queries = state.pointee.resultCount &- named
        let captures = state.pointee.resultCaptures.unsafelyUnwrapped
        let block = blockLength(captures, named)
        var segments = 0
        state.pointee.forEachWildcardSegment { _, _ in segments &+= 1 }
        let fragment = state.pointee.fragmentBytes
        // Wrapping arithmetic: every count is bounded by the URL's length.
        var byteCount = block &+ (fragment?.count ?? 0)
        for index in 0..<queries {
            let pair = state.pointee.queryPairs[index]
            byteCount &+= pair.keyLength &+ pair.valueLength
        }
        let pairs = named &+ queries
        var strings = 2 &* pairs &+ segments
        let fragmentIndex = fragment == nil ? -1 : strings
        if fragment != nil { strings &+= 1 }
        let contents = Contents(pairCount: pairs, namedCount: named, layout: state.pointee.resultLayout,
                                segmentCount: segments, fragment: fragmentIndex, stringCount: strings)
        let storage = make(contents, byteCount: byteCount, reusing: &state.pointee.spareParameters)
        let layout = storage.layout
        copyBlock(block, from: state.pointee.resultValues, captures, named, to: layout)
        if segments > 0, let values = state.pointee.resultValues {
            var index = 2 &* pairs
            state.pointee.forEachWildcardSegment { start, count in
                layout.spans[index] = span(start - values, count)
                index &+= 1
            }
        }
        var offset = block
        func append(_ index: Int, _ start: UnsafePointer<UInt8>?, _ count: Int) {
            layout.spans[index] = span(offset, count)
            if let start, count > 0 { (layout.bytes + offset).initialize(from: start, count: count) }
            offset &+= count
        }
        for index in 0..<queries {
            let pair = state.pointee.queryPairs[index]
            append(2 &* (named &+ index), pair.key, pair.keyLength)
            append(2 &* (named &+ index) &+ 1, pair.value, pair.valueLength)
        }
        if let fragment { append(fragmentIndex, fragment.baseAddress, fragment.count) }
        return storage
    }
}
