/// The literal segments a writer parsed lately, by their bytes, so that a pattern's literal
/// shares an equal one's array (a retain) instead of allocating and later freeing its own.
///
/// Routes of one service repeat their literals (`repos`, `issues`, `v1`): in a registration
/// loop most literals are in a slot already. A slot holds the last literal that hashed to it;
/// a miss replaces it. Arrays are never changed once made, so sharing them is safe.
struct RecentLiterals {
    private var slots: [[UInt8]] = []

    /// Slots kept: a service's distinct literals, 2 KiB of references.
    static var slotCount: Int { 256 }

    /// The hash of no bytes, and of `hash`'s bytes followed by `byte`: FNV-1a (literals are
    /// short, and a byte at a time is cheaper than setting up words). The parser takes it while
    /// it scans the literal.
    static var hashSeed: UInt64 { 0xcbf2_9ce4_8422_2325 }
    @inline(__always)
    static func hash(_ hash: UInt64, _ byte: UInt8) -> UInt64 { (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }

    /// An array holding `bytes`, whose hash (``hash(_:_:)``) is `hash`: a recent equal one, or a
    /// new one remembered for the next.
    @inline(__always)
    mutating func array(of bytes: UnsafeBufferPointer<UInt8>, hash: UInt64) -> [UInt8] {
        if slots.isEmpty { slots = Array(repeating: [], count: Self.slotCount) }
        let slot = Int(truncatingIfNeeded: hash >> 32) & (Self.slotCount - 1)
        let found = slots.withUnsafeBufferPointer { slots in
            slots[slot].count == bytes.count
                && slots[slot].withUnsafeBufferPointer { ByteComparison.equal($0.baseAddress!, bytes.baseAddress!, bytes.count, folded: false) }
        }
        if found { return slots[slot] }
        let array = Array(bytes)
        slots[slot] = array
        return array
    }
}
