/// The hash of one literal segment, and the loop that finds a segment's end and its hash in one
/// pass over its 8-byte words (docs/ARCHITECTURE.md, "The lookup tree").
///
/// A node finds its literal child by this hash: a small node compares one byte of it with a tag
/// per child, a large one follows it through its chunks (``LiteralChunk``). The walk hashes the
/// URL's segment while it looks for the `/` that ends it, so finding a child costs no second
/// pass; the editor hashes a route's label with the very same loop, so both always agree.
///
/// The mix is FxHash's (rotate, xor a word, multiply): a multiply carries every input bit
/// upwards, so the top bits, which the tags and the chunk levels read first, depend on every
/// byte. It is not meant to resist chosen routes (routes come from the application; URLs only
/// ever cost one walk); equal hashes just share a collision list.
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

    /// The tag of a child in a small node's index: the hash's top 7 bits, and the low bit set
    /// so that a tag is never 0 (an empty lane of the index holds 0, so it never matches).
    @inline(__always)
    static func tag(_ hash: UInt64) -> UInt8 { UInt8(truncatingIfNeeded: hash &>> 56) | 1 }

    /// The segment that starts at `start` and runs to the next `/` or to `end`: where it ends,
    /// its hash, and its last partial word (the bytes after its last whole word, zero-padded).
    /// `readable`: bytes at `bytes` that may be loaded (at least `end`).
    ///
    /// Whole words inside the path first; then the path's last 0 to 7 bytes, loaded as one word
    /// (forwards when the buffer has room, else the word ending at `end`, shifted down), with a
    /// stop marked where the path ends.
    @inline(__always)
    static func scan(_ bytes: UnsafePointer<UInt8>, from start: Int, end: Int, readable: Int) -> ScannedSegment {
        var hash: UInt64 = 0
        var index = start
        while end &- index >= 8 {
            let word = UnsafeRawPointer(bytes + index).loadUnaligned(as: UInt64.self)
            let stops = ByteComparison.zeroBytes(word ^ 0x2F2F_2F2F_2F2F_2F2F)
            if stops != 0 { return finish(hash, word, stops, at: index) }
            hash = mix(hash, word)
            index &+= 8
        }
        let left = end &- index
        let word: UInt64
        if readable &- index >= 8 {
            word = UnsafeRawPointer(bytes + index).loadUnaligned(as: UInt64.self)
        } else if end >= 8 {
            // With no byte left the word is anything: the stop at byte 0 masks it all.
            word = UnsafeRawPointer(bytes + (end &- 8)).loadUnaligned(as: UInt64.self)
                &>> UInt64(truncatingIfNeeded: (8 &- left) &* 8)
        } else {
            word = partialWord(bytes, at: index, end: end)
        }
        let stops = ByteComparison.zeroBytes(word ^ 0x2F2F_2F2F_2F2F_2F2F) | 0x80 &<< UInt64(truncatingIfNeeded: left &* 8)
        return finish(hash, word, stops, at: index)
    }

    /// What ``scan(_:from:end:readable:)`` gives for the segment `[start, end)` whose end is
    /// already known (it holds no `/`): its whole words, then its last 0 to 7 bytes, loaded as
    /// one word and masked.
    @inline(__always)
    static func hash(_ bytes: UnsafePointer<UInt8>, from start: Int, end: Int, readable: Int) -> ScannedSegment {
        var hash: UInt64 = 0
        var index = start
        while end &- index >= 8 {
            hash = mix(hash, UnsafeRawPointer(bytes + index).loadUnaligned(as: UInt64.self))
            index &+= 8
        }
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
        let tail = word & ~(UInt64.max &<< UInt64(truncatingIfNeeded: left &* 8))
        return ScannedSegment(end: end, hash: finish(hash, tail: tail), tail: tail)
    }

    /// The segment ends in `word` (loaded at `index`) at the first byte `stops` marks.
    @inline(__always)
    private static func finish(_ hash: UInt64, _ word: UInt64, _ stops: UInt64, at index: Int) -> ScannedSegment {
        let bits = stops.trailingZeroBitCount & ~7
        let tail = word & ~(UInt64.max &<< UInt64(truncatingIfNeeded: bits))
        return ScannedSegment(end: index &+ bits &>> 3, hash: finish(hash, tail: tail), tail: tail)
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

    /// The hash of a whole label (no `/` in it: a decoded one is spelled NUL): what
    /// ``scan(_:from:end:readable:)`` gives for it, whole words then the tail, with no copy.
    static func of(_ label: [UInt8]) -> UInt64 {
        label.withUnsafeBufferPointer { buffer in
            var hash: UInt64 = 0
            var index = 0
            while buffer.count - index >= 8 {
                hash = mix(hash, UnsafeRawPointer(buffer.baseAddress! + index).loadUnaligned(as: UInt64.self))
                index += 8
            }
            return finish(hash, tail: tail(buffer, from: index))
        }
    }

    /// The last partial word of `label` (see ``scan(_:from:end:readable:)``).
    static func tail(of label: [UInt8]) -> UInt64 {
        label.withUnsafeBufferPointer { tail($0, from: $0.count & ~7) }
    }

    private static func tail(_ buffer: UnsafeBufferPointer<UInt8>, from start: Int) -> UInt64 {
        var word: UInt64 = 0
        var index = buffer.count
        while index > start {
            index -= 1
            word = word &<< 8 | UInt64(buffer[index])
        }
        return word
    }
}

/// A segment found by ``SegmentHash/scan(_:from:end:readable:)``.
struct ScannedSegment {
    /// Where it ends: the next `/` or the path's end.
    var end: Int
    var hash: UInt64
    /// Its bytes after its last whole word, zero-padded: all of it when it is shorter than 8.
    var tail: UInt64
}
