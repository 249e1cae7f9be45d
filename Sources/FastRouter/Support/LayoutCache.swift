/// The parameter layouts one writer interned lately (``NameTable/Store/internLayout(_:)``),
/// found again without the process's lock and its hashing of every name: most routes of a
/// table have a layout an earlier route had (`/users/:id`, `/orders/:id`). Direct-mapped by a
/// hash of the names and their segments; a slot holds the last layout that hashed there.
/// Layouts are immortal, so a cached one never goes stale.
struct LayoutCache {
    private static let slotCount = 64
    private var slots = [(names: [(name: String, segment: Int32)], layout: UnsafePointer<NameTable.LayoutEntry>)?](
        repeating: nil, count: slotCount)

    /// The layout of `names` (as ``NameTable/Store/internLayout(_:)`` gives it), from the cache
    /// or interned in `store` (the one store this cache is used with).
    mutating func layout(of names: [(name: String, segment: Int32)],
                         in store: NameTable.Store) throws(RouterError) -> UnsafePointer<NameTable.LayoutEntry> {
        if names.isEmpty { return NameTable.emptyLayout }
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for (name, segment) in names {
            // A name's length and end bytes, not all its bytes: a collision only costs a miss,
            // and walking a string's bytes costs more than the rest of the lookup.
            // Read from the string's own bytes: `UTF8View.last` walks index arithmetic.
            let ends = name.utf8.withContiguousStorageIfAvailable { bytes in
                UInt64(bytes.first ?? 0) << 8 | UInt64(bytes.last ?? 0) | UInt64(bytes.count) << 16
            } ?? UInt64(name.utf8.count) << 16
            hash = (hash ^ ends) &* 0x100_0000_01B3
            hash = (hash ^ UInt64(UInt32(bitPattern: segment))) &* 0x100_0000_01B3
        }
        let slot = Int(truncatingIfNeeded: (hash ^ hash >> 32) % UInt64(Self.slotCount))
        if let cached = slots[slot], Self.same(cached.names, names) { return cached.layout }
        let layout = try store.internLayout(names)
        // A copy of its own: `names` is usually the caller's buffer, reused for the next route.
        slots[slot] = (names.map { $0 }, layout)
        return layout
    }

    private static func same(_ lhs: [(name: String, segment: Int32)], _ rhs: [(name: String, segment: Int32)]) -> Bool {
        guard lhs.count == rhs.count else { return false }
        for index in lhs.indices where lhs[index].segment != rhs[index].segment || lhs[index].name != rhs[index].name {
            return false
        }
        return true
    }
}

