/// Hashing and comparison of literal segments, shared by insertion and lookup.
///
/// The hash is blind to ASCII case so one index serves both byte-exact and case-insensitive
/// comparison (docs/SEMANTICS.md §3.2): keys stay stored as written, and only the final comparison decides
/// whether case matters.
enum LiteralHash {
    /// Hash of a segment's bytes, blind to ASCII case; reads nothing outside `start[0..<count]`
    /// (keys being registered). Equal to ``paddedSegmentHash(_:_:)``.
    ///
    /// A segment of up to eight bytes hashes to its own bytes, case-blinded and zero-padded: no
    /// arithmetic at all, and distinct for distinct (case-blinded) segments, since case-blinding
    /// leaves no zero byte inside one. ``edgeHash(_:parent:)`` does the mixing. Longer segments
    /// are mixed eight bytes at a time.
    static func segmentHash(_ start: UnsafePointer<UInt8>, _ count: Int) -> UInt64 {
        var (hash, index) = count > 8 ? mixWholeWords(start, count) : (seed, 0)
        if index < count {
            // The last bytes, zero-extended into one word.
            var word: UInt64 = 0
            var shift: UInt64 = 0
            for tail in index..<count {
                word |= UInt64(start[tail]) &<< shift
                shift &+= 8
            }
            let head = caseBlind(word) & ByteComparison.headMask(count &- index)
            if count <= 8 { return head }
            hash = mix(hash, head)
        }
        return finish(hash, count: count)
    }

    /// ``segmentHash(_:_:)`` of bytes that may be read a whole word at a time: the eight bytes
    /// from any position before `count` are readable (a URL segment in the padded copy, or a
    /// decoded one). A segment of up to eight bytes costs one load, an `or` and an `and`.
    @inline(__always)
    static func paddedSegmentHash(_ start: UnsafePointer<UInt8>, _ count: Int) -> UInt64 {
        let raw = UnsafeRawPointer(start)
        if UInt(bitPattern: count &- 1) < 8 {
            return caseBlind(raw.loadUnaligned(as: UInt64.self)) & ByteComparison.headMask(count)
        }
        return paddedLongSegmentHash(start, count)
    }

    @inline(never)
    private static func paddedLongSegmentHash(_ start: UnsafePointer<UInt8>, _ count: Int) -> UInt64 {
        var (hash, index) = mixWholeWords(start, count)
        if index < count {
            hash = mix(hash, caseBlind(UnsafeRawPointer(start).loadUnaligned(fromByteOffset: index, as: UInt64.self))
                                       & ByteComparison.headMask(count &- index))
        }
        return finish(hash, count: count)
    }

    /// The hash of the leading whole 8-byte words of `start[0..<count]`, and where the remaining
    /// tail starts: the part of a long segment's hash both forms share.
    @inline(__always)
    private static func mixWholeWords(_ start: UnsafePointer<UInt8>, _ count: Int) -> (hash: UInt64, tail: Int) {
        let raw = UnsafeRawPointer(start)
        var hash = seed
        var index = 0
        while index &+ 8 <= count {
            hash = mix(hash, caseBlind(raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)))
            index &+= 8
        }
        return (hash, index)
    }

    /// Bytes kept readable past the end of a key buffer, for ``ByteComparison.paddedEqual(_:_:_:folded:)``.
    static let keyPadding = 8

    /// Starting value of a segment hash.
    static let seed: UInt64 = 0x9E37_79B9_7F4A_7C15

    /// Folds one (case-folded, zero-padded) 8-byte word into a segment hash.
    @inline(__always)
    static func mix(_ hash: UInt64, _ word: UInt64) -> UInt64 {
        let mixed = (hash ^ word) &* 0xFF51_AFD7_ED55_8CCD
        return mixed ^ (mixed >> 29)
    }

    /// Completes a segment hash with the segment's length.
    @inline(__always)
    static func finish(_ hash: UInt64, count: Int) -> UInt64 {
        hash ^ UInt64(truncatingIfNeeded: count)
    }

    /// Eight packed bytes with bit 5 set in each: equal for words that differ only in the case of
    /// ASCII letters. Cheaper than ``ByteComparison.foldWord(_:)`` and good enough for hashing, where a few
    /// other byte pairs ('@' and '`', '[' and '{', ...) colliding only costs a comparison.
    @inline(__always)
    static func caseBlind(_ word: UInt64) -> UInt64 {
        word | 0x2020_2020_2020_2020
    }

    /// Combines a segment hash with its parent node into the index hash: one full-width multiply,
    /// its two halves folded together. A short segment's hash is its raw bytes, first byte lowest,
    /// so siblings often differ only in low bits ("1", "2", ...): those reach the product's high
    /// half only through carries, and its low half is what spreads them.
    @inline(__always)
    static func edgeHash(_ segmentHash: UInt64, parent: UInt32) -> UInt32 {
        let key = segmentHash ^ (UInt64(parent) &* 0x9E37_79B9_7F4A_7C15)
        let product = key.multipliedFullWidth(by: 0xD6E8_FEB8_6659_FD93)
        return UInt32(truncatingIfNeeded: product.high ^ product.low)
    }

}

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
