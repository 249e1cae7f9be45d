/// A set of byte values, one bit each: membership is one shift and one mask, with no branch on
/// the byte's class.
struct ByteSet: Equatable {
    private var bits: SIMD4<UInt64> = .zero

    /// The empty set.
    init() {}

    /// The bytes for which `rule` holds.
    init(where rule: (UInt8) -> Bool) {
        for byte in UInt8.min...UInt8.max where rule(byte) { insert(byte) }
    }

    @inline(__always)
    func contains(_ byte: UInt8) -> Bool {
        bits[Int(byte &>> 6)] &>> UInt64(byte & 63) & 1 != 0
    }

    mutating func insert(_ byte: UInt8) {
        bits[Int(byte >> 6)] |= 1 << UInt64(byte & 63)
    }

    mutating func insert(_ range: ClosedRange<UInt8>) {
        for byte in range { insert(byte) }
    }

    /// Every byte not in it, in place.
    mutating func invert() { bits = ~bits }

    /// Its members below 0x80 as two words (bytes 0–63, then 64–127): a loop testing many bytes
    /// against a set without non-ASCII members keeps these in registers, where ``contains(_:)``
    /// indexes the whole set in memory.
    var asciiWords: (low: UInt64, high: UInt64) { (bits[0], bits[1]) }

    /// Whether it holds a byte of 0x80 or more (none of them ASCII).
    var containsNonASCII: Bool { bits[2] | bits[3] != 0 }
}
