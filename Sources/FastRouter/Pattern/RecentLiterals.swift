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

    /// An array holding `bytes`: a recent equal one, or a new one remembered for the next.
    @inline(__always)
    mutating func array(of bytes: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        if slots.isEmpty { slots = Array(repeating: [], count: Self.slotCount) }
        // FNV-1a: literals are short, and a byte at a time is cheaper than setting up words.
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
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
