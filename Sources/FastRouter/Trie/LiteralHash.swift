/// Hashing and comparison of literal segments, shared by insertion and lookup.
///
/// The hash is taken over ASCII-lower-cased bytes so one index serves both byte-exact and
/// case-insensitive comparison (SPEC §3.2): keys stay stored as written, and only the final
/// comparison decides whether case matters.
enum LiteralHash {
    /// Hash of a segment's bytes with ASCII letters folded to lower case. Reads 8 bytes at a time;
    /// ``ScratchState`` computes the same value while it splits a URL (see `scanSegment`).
    @inline(__always)
    static func segmentHash(_ start: UnsafePointer<UInt8>, _ count: Int) -> UInt64 {
        var hash = seed
        var index = 0
        let raw = UnsafeRawPointer(start)
        while index + 8 <= count {
            hash = mix(hash, foldWord(raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)))
            index += 8
        }
        if index < count {
            var word: UInt64 = 0
            var shift: UInt64 = 0
            while index < count {
                word |= UInt64(start[index]) << shift
                shift += 8
                index += 1
            }
            hash = mix(hash, foldWord(word))
        }
        return finish(hash, count: count)
    }

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

    /// Lower-cases the ASCII letters of eight packed bytes at once (SWAR).
    @inline(__always)
    static func foldWord(_ word: UInt64) -> UInt64 {
        let low7 = word & 0x7F7F_7F7F_7F7F_7F7F
        let aboveA = low7 &+ 0x3F3F_3F3F_3F3F_3F3F   // high bit set where byte >= 'A' (0x41)
        let aboveZ = low7 &+ 0x2525_2525_2525_2525   // high bit set where byte > 'Z' (0x5A)
        let upper = aboveA & ~aboveZ & ~word & 0x8080_8080_8080_8080
        return word | (upper >> 2)
    }

    /// Combines a segment hash with its parent node into the index hash.
    @inline(__always)
    static func edgeHash(_ segmentHash: UInt64, parent: UInt32) -> UInt32 {
        var mixed = segmentHash ^ (UInt64(parent) &* 0x9E37_79B9_7F4A_7C15)
        mixed ^= mixed >> 32
        mixed = mixed &* 0xD6E8_FEB8_6659_FD93
        mixed ^= mixed >> 32
        return UInt32(truncatingIfNeeded: mixed)
    }

    /// Byte equality, exact or with ASCII letters folded.
    @inline(__always)
    static func equal(_ lhs: UnsafePointer<UInt8>, _ rhs: UnsafePointer<UInt8>, _ count: Int, folded: Bool) -> Bool {
        let left = UnsafeRawPointer(lhs)
        let right = UnsafeRawPointer(rhs)
        var index = 0
        // Word at a time; keys are short, so this beats a call to memcmp.
        while index + 8 <= count {
            var a = left.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            var b = right.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            if folded {
                a = foldWord(a)
                b = foldWord(b)
            }
            if a != b { return false }
            index += 8
        }
        while index < count {
            let a = lhs[index]
            let b = rhs[index]
            if a != b && (!folded || lowercase(a) != lowercase(b)) { return false }
            index += 1
        }
        return true
    }

    /// ASCII lower case of one byte; other bytes unchanged.
    @inline(__always)
    static func lowercase(_ byte: UInt8) -> UInt8 {
        byte &- 0x41 < 26 ? byte | 0x20 : byte
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
