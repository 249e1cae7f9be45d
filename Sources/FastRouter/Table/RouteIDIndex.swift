/// Finds the first record of a route id: open addressing over record indexes only (4 bytes a
/// slot), the ids being read back from the records, so a million routes cost a few megabytes
/// instead of a dictionary of (id, index) pairs.
struct RouteIDIndex {
    private static let empty = UInt32.max
    private var slots: [UInt32]
    private var count = 0
    /// 64 − log2(slot count): Fibonacci hashing keeps the top bits.
    private var shift: UInt64

    /// An empty index.
    init() {
        slots = [UInt32](repeating: Self.empty, count: 16)
        shift = 60
    }

    /// Bytes of its slots.
    var byteCount: Int { slots.capacity * 4 }

    /// The record registered under `id`, if any; `idOf` gives a record's id.
    func find(_ id: UInt64, idOf: (UInt32) -> UInt64) -> UInt32? {
        let mask = slots.count - 1
        var slot = home(id)
        while true {
            let record = slots[slot]
            if record == Self.empty { return nil }
            if idOf(record) == id { return record }
            slot = (slot + 1) & mask
        }
    }

    /// Adds `record` under `id`, which must not be present yet.
    mutating func insert(_ record: UInt32, id: UInt64, idOf: (UInt32) -> UInt64) {
        if (count + 1) * 4 > slots.count * 3 { rehash(slotCount: slots.count * 2, idOf: idOf) }
        place(record, home: home(id))
        count += 1
    }

    /// Removes `id`, which must be present.
    mutating func remove(_ id: UInt64, idOf: (UInt32) -> UInt64) {
        let mask = slots.count - 1
        var hole = home(id)
        while idOf(slots[hole]) != id { hole = (hole + 1) & mask }
        // Backward-shift deletion keeps every probe chain unbroken without tombstones.
        var next = (hole + 1) & mask
        while slots[next] != Self.empty {
            let wanted = home(idOf(slots[next]))
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

    private mutating func place(_ record: UInt32, home: Int) {
        let mask = slots.count - 1
        var slot = home
        while slots[slot] != Self.empty { slot = (slot + 1) & mask }
        slots[slot] = record
    }

    /// Makes room for `additional` more ids without growing again. Growing re-reads the id of
    /// every record already indexed, at random places in the records: a batch sizes the index
    /// once rather than doubling it step by step under its insertions.
    mutating func reserve(_ additional: Int, idOf: (UInt32) -> UInt64) {
        var slotCount = slots.count
        while (count + additional) * 4 > slotCount * 3 { slotCount *= 2 }
        if slotCount > slots.count { rehash(slotCount: slotCount, idOf: idOf) }
    }

    /// Halves the slots (more than once if need be) while the index is under an eighth full,
    /// so that removals give back what additions took; O(count) when it does, paid for by the
    /// removals since the last resize.
    mutating func shrinkIfSparse(idOf: (UInt32) -> UInt64) {
        guard slots.count > 16, count * 8 < slots.count else { return }
        var slotCount = slots.count
        while slotCount > 16 && count * 4 < slotCount { slotCount /= 2 }
        rehash(slotCount: slotCount, idOf: idOf)
    }

    /// Rebuilds the index with `slotCount` slots (a power of two), placing every record again.
    private mutating func rehash(slotCount: Int, idOf: (UInt32) -> UInt64) {
        let old = slots
        slots = [UInt32](repeating: Self.empty, count: slotCount)
        shift = UInt64(64 - slotCount.trailingZeroBitCount)
        for record in old where record != Self.empty { place(record, home: home(idOf(record))) }
    }
}
