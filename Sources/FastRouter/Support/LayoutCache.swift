/// The parameter layouts one writer interned lately (``NameTable/Store/internLayout(_:)``),
/// found again without the process's lock and its hashing of every name: most routes of a
/// table have a layout an earlier route had (`/users/:id`, `/orders/:id`). Direct-mapped by a
/// hash of the names and their segments; a slot holds the last layout that hashed there.
/// Layouts are immortal, so a cached one never goes stale. The process's store keeps one too,
/// under its lock, for the layouts all routers interned lately: a new router's first routes
/// then skip the hashing of every name.
struct LayoutCache {
    private var slots: [(names: [(name: String, segment: Int32)], layout: UnsafePointer<NameTable.LayoutEntry>)?]

    /// A cache of `slotCount` slots: a writer's keeps 64, the process's store 1024.
    init(slotCount: Int = 64) {
        slots = Array(repeating: nil, count: slotCount)
    }

    /// The layout of `names` (as ``NameTable/Store/internLayout(_:)`` gives it), from the cache
    /// or interned in `store` (the one store this cache is used with).
    mutating func layout(of names: [(name: String, segment: Int32)],
                         in store: NameTable.Store) throws(RouterError) -> UnsafePointer<NameTable.LayoutEntry> {
        if names.isEmpty { return NameTable.emptyLayout }
        let hash = Self.hash(of: names)
        let slot = self.slot(hash)
        if let layout = cached(names, slot: slot) { return layout }
        let layout = try store.internLayout(names, hash: hash)
        remember(names, layout, slot: slot)
        return layout
    }

    /// The hash of `names` that picks their slot (``slot(_:)``).
    static func hash(of names: [(name: String, segment: Int32)]) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for (name, segment) in names {
            // A name's length and end bytes, not all its bytes: a collision only costs a miss,
            // and walking a string's bytes costs more than the rest of the lookup. Read from the
            // string's own bytes: `UTF8View.last` walks index arithmetic.
            let ends = name.utf8.withContiguousStorageIfAvailable { bytes -> UInt64 in
                let first = UInt64(bytes.first ?? 0)
                let last = UInt64(bytes.last ?? 0)
                return first << 8 | last | UInt64(bytes.count) << 16
            } ?? UInt64(name.utf8.count) << 16
            hash = (hash ^ ends) &* 0x100_0000_01B3
            hash = (hash ^ UInt64(UInt32(bitPattern: segment))) &* 0x100_0000_01B3
        }
        return hash ^ hash >> 32
    }

    /// The slot of names with `hash`.
    func slot(_ hash: UInt64) -> Int { Int(truncatingIfNeeded: hash % UInt64(slots.count)) }

    /// The layout cached for `names` in `slot` (``slot(_:)``), if that is the one there.
    func cached(_ names: [(name: String, segment: Int32)], slot: Int) -> UnsafePointer<NameTable.LayoutEntry>? {
        guard let cached = slots[slot], Self.same(cached.names, names) else { return nil }
        return cached.layout
    }

    /// Caches `layout` for `names` in `slot`, in place of the one there.
    mutating func remember(_ names: [(name: String, segment: Int32)], _ layout: UnsafePointer<NameTable.LayoutEntry>,
                           slot: Int) {
        // A copy of its own: `names` is usually the caller's buffer, reused for the next route.
        slots[slot] = (names.map { $0 }, layout)
    }

    private static func same(_ lhs: [(name: String, segment: Int32)], _ rhs: [(name: String, segment: Int32)]) -> Bool {
        guard lhs.count == rhs.count else { return false }
        for index in lhs.indices where lhs[index].segment != rhs[index].segment || lhs[index].name != rhs[index].name {
            return false
        }
        return true
    }
}

