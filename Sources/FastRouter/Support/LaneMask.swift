#if arch(x86_64)
import _Builtin_intrinsics.intel
#endif

/// Sixteen-byte vector comparisons as bit masks: the URL scans and the tree's child dispatch
/// compare sixteen bytes at once and want one bit per byte.
enum LaneMask {
    /// One bit per lane of a 16-lane byte comparison (lane i to bit i): SSE2's movemask on
    /// x86-64, a portable equivalent elsewhere.
    @inline(__always)
    static func of(_ mask: SIMDMask<SIMD16<Int8>>) -> UInt32 {
        #if arch(x86_64)
        return UInt32(truncatingIfNeeded: _mm_movemask_epi8(unsafeBitCast(mask, to: __m128i.self)))
        #else
        let lanes = unsafeBitCast(mask, to: SIMD16<UInt8>.self)
            & SIMD16<UInt8>(1, 2, 4, 8, 16, 32, 64, 128, 1, 2, 4, 8, 16, 32, 64, 128)
        let words = unsafeBitCast(lanes, to: SIMD2<UInt64>.self)
        // Multiplying by 0x0101... sums a word's bytes into its top byte; the bits are disjoint.
        let low = (words[0] &* 0x0101_0101_0101_0101) &>> 56
        let high = (words[1] &* 0x0101_0101_0101_0101) &>> 56
        return UInt32(truncatingIfNeeded: low | high &<< 8)
        #endif
    }

    /// One bit per byte of `block` whose high bit is set (a non-ASCII byte).
    @inline(__always)
    static func highBits(_ block: SIMD16<UInt8>) -> UInt32 {
        of(unsafeBitCast(block, to: SIMD16<Int8>.self) .< SIMD16<Int8>(repeating: 0))
    }
}
