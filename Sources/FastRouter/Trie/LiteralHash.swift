/// Hashing and comparison of literal segments, shared by insertion and lookup.
///
/// The hash is taken over ASCII-lower-cased bytes so one index serves both byte-exact and
/// case-insensitive comparison (SPEC §3.2): keys stay stored as written, and only the final
/// comparison decides whether case matters.
enum LiteralHash {
    /// Hash of a segment's bytes with ASCII letters folded to lower case. Reads 8 bytes at a time.
    @inline(__always)
    static func segmentHash(_ start: UnsafePointer<UInt8>, _ count: Int) -> UInt64 {
        var hash: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(truncatingIfNeeded: count)
        var index = 0
        let raw = UnsafeRawPointer(start)
        while index + 8 <= count {
            let word = foldWord(raw.loadUnaligned(fromByteOffset: index, as: UInt64.self))
            hash = (hash ^ word) &* 0xFF51_AFD7_ED55_8CCD
            hash ^= hash >> 29
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
            hash = (hash ^ foldWord(word)) &* 0xFF51_AFD7_ED55_8CCD
            hash ^= hash >> 29
        }
        return hash
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
        if !folded { return memcmp(lhs, rhs, count) == 0 }
        for index in 0..<count where lowercase(lhs[index]) != lowercase(rhs[index]) {
            return false
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
