/// Finds the first record of a route id: open addressing over record indexes only (4 bytes a
/// slot), the ids being read back from the records, so a million routes cost a few megabytes
/// instead of a dictionary of (id, index) pairs.
///
/// A slot's low ``indexBits`` bits hold the record's index plus one (0: empty); the bits above
/// them hold a fingerprint of its id. A probe reads a record's id only when the fingerprint
/// agrees: at a million routes the records are tens of megabytes, and each read of a
/// non-matching record's id was a cache miss (a few per insertion of a new id). The index
/// starts with 24 index bits (8 of fingerprint) and widens them, rebuilding itself, when a
/// record's index no longer fits: past 16 million records, fingerprints get shorter.
struct RouteIDIndex {
    private static let empty: UInt32 = 0
    private var slots: [UInt32]
    private var count = 0
    /// 64 − log2(slot count): Fibonacci hashing keeps the top bits.
    private var shift: UInt64
    /// Low bits of a slot holding a record's index plus one; the rest is the id's fingerprint.
    private var indexBits: Int

    /// An empty index whose slots keep `indexBits` bits for record indexes at first (tests
    /// use few, to reach the widening).
    init(indexBits: Int = 24) {
        slots = [UInt32](repeating: Self.empty, count: 16)
        shift = 60
        self.indexBits = indexBits
    }

    /// Bytes of its slots.
    var byteCount: Int { slots.capacity * 4 }

    private var indexMask: UInt32 { indexBits >= 32 ? .max : (1 << UInt32(indexBits)) - 1 }

    /// The fingerprint bits of `id` (above the index bits), from a hash other than the home's.
    private func fingerprint(_ id: UInt64) -> UInt32 {
        UInt32(truncatingIfNeeded: (id &* 0xC2B2_AE3D_27D4_EB4F) >> 32) & ~indexMask
    }

    /// The record registered under `id`, if any; `idOf` gives a record's id.
    func find(_ id: UInt64, idOf: (UInt32) -> UInt64) -> UInt32? {
        let mask = slots.count - 1
        let indexMask = indexMask
        let print = fingerprint(id)
        var slot = home(id)
        while true {
            let entry = slots[slot]
            if entry == Self.empty { return nil }
            if entry & ~indexMask == print {
                let record = (entry & indexMask) &- 1
                if idOf(record) == id { return record }
            }
            slot = (slot + 1) & mask
        }
    }

    /// Adds `record` under `id`, which must not be present yet.
    mutating func insert(_ record: UInt32, id: UInt64, idOf: (UInt32) -> UInt64) {
        if UInt64(record) + 1 > UInt64(indexMask) {
            // The record's index needs more bits than the slots give it: widen, and rebuild.
            var bits = indexBits
            while bits < 32 && UInt64(record) + 1 > (UInt64(1) << UInt64(bits)) - 1 { bits += 1 }
            rehash(slotCount: slots.count, indexBits: bits, idOf: idOf)
        }
        if (count + 1) * 4 > slots.count * 3 { rehash(slotCount: slots.count * 2, indexBits: indexBits, idOf: idOf) }
        place(fingerprint(id) | (record + 1), home: home(id))
        count += 1
    }

    /// Removes `id`, which must be present.
    mutating func remove(_ id: UInt64, idOf: (UInt32) -> UInt64) {
        let mask = slots.count - 1
        let indexMask = indexMask
        let print = fingerprint(id)
        var hole = home(id)
        while slots[hole] & ~indexMask != print || idOf((slots[hole] & indexMask) &- 1) != id { hole = (hole + 1) & mask }
        // Backward-shift deletion keeps every probe chain unbroken without tombstones.
        var next = (hole + 1) & mask
        while slots[next] != Self.empty {
            let wanted = home(idOf((slots[next] & indexMask) &- 1))
            if (hole - wanted) & mask <= (next - wanted) & mask {
                slots[hole] = slots[next]
                hole = next
            }
            next = (next + 1) & mask
        }
        slots[hole] = Self.empty
        count -= 1
    }

    private func home(_ id: UInt64) -> Int {
        Int(truncatingIfNeeded: (id &* 0x9E37_79B9_7F4A_7C15) >> shift)
    }

    @inline(__always)
    private mutating func place(_ entry: UInt32, home: Int) {
        let mask = slots.count - 1
        var slot = home
        while slots[slot] != Self.empty { slot = (slot + 1) & mask }
        slots[slot] = entry
    }

    /// Makes room for `additional` more ids without growing again. Growing re-reads the id of
    /// every record already indexed, at random places in the records: a batch sizes the index
    /// once rather than doubling it step by step under its insertions.
    mutating func reserve(_ additional: Int, idOf: (UInt32) -> UInt64) {
        var slotCount = slots.count
        while (count + additional) * 4 > slotCount * 3 { slotCount *= 2 }
        if slotCount > slots.count { rehash(slotCount: slotCount, indexBits: indexBits, idOf: idOf) }
    }

    /// Halves the slots (more than once if need be) while the index is under an eighth full,
    /// so that removals give back what additions took; O(count) when it does, paid for by the
    /// removals since the last resize.
    mutating func shrinkIfSparse(idOf: (UInt32) -> UInt64) {
        guard slots.count > 16, count * 8 < slots.count else { return }
        var slotCount = slots.count
        while slotCount > 16 && count * 4 < slotCount { slotCount /= 2 }
        rehash(slotCount: slotCount, indexBits: indexBits, idOf: idOf)
    }

    /// Rebuilds the index with `slotCount` slots (a power of two) and `indexBits` index bits,
    /// placing every record again.
    private mutating func rehash(slotCount: Int, indexBits: Int, idOf: (UInt32) -> UInt64) {
        let old = slots
        let oldMask = indexMask
        slots = [UInt32](repeating: Self.empty, count: slotCount)
        shift = UInt64(64 - slotCount.trailingZeroBitCount)
        self.indexBits = indexBits
        for entry in old where entry != Self.empty {
            let record = (entry & oldMask) &- 1
            let id = idOf(record)
            place(fingerprint(id) | (record + 1), home: home(id))
        }
    }
}
