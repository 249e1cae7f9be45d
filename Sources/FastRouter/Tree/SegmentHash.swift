/// The hash of one literal segment, over its 8-byte words (docs/ARCHITECTURE.md, "The lookup
/// tree").
///
/// A large node finds its literal child by this hash, through its chunks (``LiteralChunk``); a
/// small node needs only a tag of the segment's first word and length (``tag(head:length:)``).
/// The walk knows where a URL's segment ends from the scan's `/` positions
/// (``WalkInput/slashes``) and hashes it only at a large node; the editor hashes a route's label
/// with the same words and mix, so both always agree.
///
/// The mix is FxHash's (rotate, xor a word, multiply): a multiply carries every input bit
/// upwards, so the top bits, which the chunk levels read first, depend on every byte. It is not
/// meant to resist chosen routes (routes come from the application; URLs only ever cost one
/// walk); equal hashes just share a collision list. ``StaticPathKey`` mixes whole paths with it.
enum SegmentHash {
    static let multiplier: UInt64 = 0x517C_C1B7_2722_0A95

    @inline(__always)
    static func mix(_ hash: UInt64, _ word: UInt64) -> UInt64 {
        ((hash &<< 5 | hash &>> 59) ^ word) &* multiplier
    }

    /// The last step: the final partial word (0 to 7 bytes, the rest zero). Labels that differ
    /// only by trailing NUL bytes (decoded `/`) share a hash; their lengths tell them apart.
    @inline(__always)
    static func finish(_ hash: UInt64, tail: UInt64) -> UInt64 { mix(hash, tail) }

    /// The tag of a child in a small node's index: a byte of its first word and length, mixed,
    /// with the low bit set so that a tag is never 0 (an empty lane of the index holds 0, so it
    /// never matches). A small node needs no hash of the whole segment: its few children are told
    /// apart by their first bytes and length, and a tag that matches is confirmed on the label.
    @inline(__always)
    static func tag(head: UInt64, length: Int) -> UInt8 {
        UInt8(truncatingIfNeeded: ((head ^ UInt64(truncatingIfNeeded: length)) &* multiplier) &>> 56) | 1
    }

    /// ``tag(head:length:)`` in every lane, for a vector compare with a block of tags.
    @inline(__always)
    static func tagLanes(head: UInt64, length: Int) -> SIMD16<UInt8> {
        let lanes = UInt64(tag(head: head, length: length)) &* 0x0101_0101_0101_0101
        return unsafeBitCast(SIMD2<UInt64>(repeating: lanes), to: SIMD16<UInt8>.self)
    }

    /// The hash of the segment `[start, end)` of `bytes` (the walk found its end, see
    /// ``WalkInput/slashes``), and its last partial word: its whole words, then its last
    /// 0 to 7 bytes (``tailWord``). `readable`: bytes at `bytes` that may be loaded (at least
    /// `end`). The same as ``of(_:)`` for the same bytes.
    @inline(__always)
    static func hash(_ bytes: UnsafePointer<UInt8>, from start: Int, end: Int, readable: Int) -> ScannedSegment {
        var hash: UInt64 = 0
        var index = start
        while end &- index >= 8 {
            hash = mix(hash, UnsafeRawPointer(bytes + index).loadUnaligned(as: UInt64.self))
            index &+= 8
        }
        let tail = tailWord(bytes, at: index, end: end, readable: readable)
        return ScannedSegment(end: end, hash: finish(hash, tail: tail), tail: tail)
    }

    /// The segment's first word: its first 8 bytes, or all of a shorter segment with the rest
    /// zero. What a small node's index tags (``tag(head:length:)``) and a node's label starts
    /// with (``Node/labelHead``).
    ///
    /// One word load wherever the segment lies: the first 8 bytes of a segment of at least 8;
    /// for a shorter one, the word ending at `end` shifted down (no mask, and no look at
    /// `readable`: a segment after a path's first 8 bytes), else (a segment near the start of a
    /// short buffer) the buffer's first word shifted down and masked. Only a buffer of fewer
    /// than 8 bytes (`readable`: the bytes that may be loaded) is read byte by byte.
    @inline(__always)
    static func head(_ bytes: UnsafePointer<UInt8>, from start: Int, end: Int, readable: Int) -> UInt64 {
        let length = end &- start
        if length >= 8 { return UnsafeRawPointer(bytes + start).loadUnaligned(as: UInt64.self) }
        let drop = UInt64(truncatingIfNeeded: (8 &- length) &* 8)
        if end >= 8 { return UnsafeRawPointer(bytes + (end &- 8)).loadUnaligned(as: UInt64.self) &>> drop }
        guard readable >= 8 else { return partialWord(bytes, at: start, end: end) }
        return (UnsafeRawPointer(bytes).loadUnaligned(as: UInt64.self) &>> UInt64(truncatingIfNeeded: start &* 8))
            & (UInt64.max &>> drop)
    }

    /// The 0 to 7 bytes from `index` to `end`, loaded as one word (forwards when the buffer has
    /// room, else the word ending at `end`, shifted down) and masked.
    @inline(__always)
    private static func tailWord(_ bytes: UnsafePointer<UInt8>, at index: Int, end: Int, readable: Int) -> UInt64 {
        let left = end &- index
        let word: UInt64
        if readable &- index >= 8 {
            word = UnsafeRawPointer(bytes + index).loadUnaligned(as: UInt64.self)
        } else if end >= 8 {
            // With no byte left the shift is 64, taken as 0: the mask below clears it all.
            word = UnsafeRawPointer(bytes + (end &- 8)).loadUnaligned(as: UInt64.self)
                &>> UInt64(truncatingIfNeeded: (8 &- left) &* 8)
        } else {
            word = partialWord(bytes, at: index, end: end)
        }
        return word & ~(UInt64.max &<< UInt64(truncatingIfNeeded: left &* 8))
    }

    /// The bytes from `index` to `end` (fewer than 8, in a path shorter than 8 bytes) in a word,
    /// the rest zero.
    @inline(never)
    static func partialWord(_ bytes: UnsafePointer<UInt8>, at index: Int, end: Int) -> UInt64 {
        var word: UInt64 = 0
        var offset = end &- 1
        while offset >= index {
            word = word &<< 8 | UInt64(bytes[offset])
            offset &-= 1
        }
        return word
    }

    /// The hash of a whole label (no `/` in it: a decoded one is spelled NUL): what the walk's
    /// ``hash(_:from:end:readable:)`` gives for the same bytes, since it is that function.
    static func of(_ label: [UInt8]) -> UInt64 { segment(label).hash }

    /// The tag of `label` in a small node's index: what the walk computes for the same bytes.
    static func tag(of label: [UInt8]) -> UInt8 { tag(head: head(of: label), length: label.count) }

    /// The first word of `label` (see ``head(_:from:end:readable:)``).
    static func head(of label: [UInt8]) -> UInt64 {
        label.withUnsafeBufferPointer { head(of: $0) }
    }

    /// ``head(of:)-([UInt8])`` of the bytes of `label`.
    @inline(__always)
    static func head(of label: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var word: UInt64 = 0
        for index in 0..<min(label.count, 8) { word |= UInt64(label[index]) &<< UInt64(8 * index) }
        return word
    }

    /// The hash and last partial word of `label`.
    static func segment(_ label: [UInt8]) -> ScannedSegment {
        label.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return ScannedSegment(end: 0, hash: finish(0, tail: 0), tail: 0) }
            return hash(base, from: 0, end: buffer.count, readable: buffer.count)
        }
    }
}

/// A segment hashed by ``SegmentHash/hash(_:from:end:readable:)``.
struct ScannedSegment {
    /// Where it ends: the next `/` or the path's end.
    var end: Int
    var hash: UInt64
    /// Its bytes after its last whole word, zero-padded: all of it when it is shorter than 8.
    var tail: UInt64
}
