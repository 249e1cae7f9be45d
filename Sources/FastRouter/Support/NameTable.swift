import Synchronization

/// Interned parameter names and parameter layouts, shared by every router.
///
/// Names are immortal by design: once interned, a name (and every layout built from names) is
/// never freed, not even when the last route using it is removed or its router is freed. A
/// match hands out parameter names as (pointer, length) pairs that must stay valid after the
/// lookup has left the table, even if a writer removes the route meanwhile; immortal names let
/// readers use them with no lock and no reference count. Memory grows only with the number of
/// *distinct* names and name lists, which is small in any real route set.
///
/// Because nothing is ever given back, the number of distinct names a process may register is
/// bounded (``capacity``): past it, registering a route with a new name fails with
/// `.outOfMemory` (`FR_ENOMEM`) instead of growing without end.
package enum NameTable {
    /// One parameter of a route variant (see ``ParameterLayoutEntry``).
    typealias LayoutEntry = ParameterLayoutEntry

    /// Distinct parameter names one process may intern: 16M.
    static let capacity = 1 << 24

    /// The table every router uses.
    static let shared = Store(capacity: capacity)

    /// The layout of every variant without parameters (no entry is ever read from it).
    nonisolated(unsafe) static let emptyLayout = UnsafePointer(UnsafeMutablePointer<LayoutEntry>.allocate(capacity: 1))

    /// Interning storage with a fixed capacity of distinct names; ``NameTable/shared`` is the
    /// process-wide one, tests make small ones to reach the limit quickly.
    package final class Store: Sendable {
        private struct State {
            /// Id of each interned name; ids are dense, in interning order.
            var ids: [String: UInt32] = [:]
            /// Immortal UTF-8 bytes of each name, by id.
            var names: [UnsafeBufferPointer<UInt8>] = []
            /// The same names as immortal strings, by id.
            var strings: [UnsafePointer<String>] = []
            var layouts: [[Int64]: UnsafePointer<LayoutEntry>] = [:]
            var shapes = ShapeTable()
            /// The buffer of the last lookup key, kept so that looking up a known layout
            /// allocates nothing.
            var spareKey: [Int64] = []
            /// The layouts interned or found lately, found again without hashing each name.
            var recentLayouts = LayoutCache(slotCount: 1024)
        }

        /// Most distinct names this store interns.
        let capacity: Int
        private let state = Mutex(State())

        /// A store accepting up to `capacity` distinct names.
        init(capacity: Int) {
            self.capacity = capacity
        }

        /// An immortal parameter layout: (name, segment) for each parameter of a route variant,
        /// in pattern order. Variants with the same names at the same places share one.
        ///
        /// `hash`: ``LayoutCache/hash(of:)`` of `parameters`, when the caller has it. The store's
        /// own ``LayoutCache`` finds a layout interned lately (by any router) without hashing each name.
        /// - Throws: `.outOfMemory` when the names not interned yet would exceed ``capacity``;
        ///   then nothing is interned.
        func internLayout(_ parameters: [(name: String, segment: Int32)],
                          hash: UInt64? = nil) throws(RouterError) -> UnsafePointer<LayoutEntry> {
            // Routes without parameters are common and all share one layout, found without the lock.
            if parameters.isEmpty { return NameTable.emptyLayout }
            let hash = hash ?? LayoutCache.hash(of: parameters)
            return try state.withLock { (state) throws(RouterError) -> UnsafePointer<LayoutEntry> in
                let slot = state.recentLayouts.slot(hash)
                if let layout = state.recentLayouts.cached(parameters, slot: slot) { return layout }
                let layout = try Self.internLayout(parameters, capacity: capacity, &state)
                state.recentLayouts.remember(parameters, layout, slot: slot)
                return layout
            }
        }

        /// ``internLayout(_:)`` under the lock, past the recent layouts.
        private static func internLayout(_ parameters: [(name: String, segment: Int32)], capacity: Int,
                                         _ state: inout State) throws(RouterError) -> UnsafePointer<LayoutEntry> {
            // The layout's key: (name id, segment) pairs; nil while some name is not interned.
            func knownKey() -> [Int64]? {
                var key = state.spareKey
                state.spareKey = []
                key.removeAll(keepingCapacity: true)
                key.reserveCapacity(2 * parameters.count)
                for parameter in parameters {
                    guard let id = state.ids[parameter.name] else { return nil }
                    key.append(Int64(id))
                    key.append(Int64(parameter.segment))
                }
                return key
            }
            // Usually every name is known and so is the layout: one lookup per name, one for the layout.
            if let key = knownKey() {
                defer { state.spareKey = key }
                if let existing = state.layouts[key] { return existing }
            }
            var fresh = Set<String>()
            for parameter in parameters where state.ids[parameter.name] == nil { fresh.insert(parameter.name) }
            guard state.names.count + fresh.count <= capacity else {
                throw RouterError(.outOfMemory, offset: 0,
                                  "too many distinct parameter names: the process-wide limit is \(capacity) and "
                                    + "names are never freed; reuse parameter names across routes")
            }
            let ids = parameters.map { Self.intern($0.name, &state) }
            let key = knownKey()!
            if let existing = state.layouts[key] { return existing }
            let storage = UnsafeMutablePointer<LayoutEntry>.allocate(capacity: max(parameters.count, 1))
            for (index, id) in ids.enumerated() {
                let bytes = state.names[Int(id)]
                (storage + index).initialize(to: LayoutEntry(name: bytes.baseAddress ?? UnsafePointer(bitPattern: 1)!,
                                                             nameLength: bytes.count,
                                                             segment: parameters[index].segment,
                                                             nameString: state.strings[Int(id)]))
            }
            state.layouts[key] = UnsafePointer(storage)
            return UnsafePointer(storage)
        }

        /// The interned shapes, by a hash of what makes two equal: open addressing over the
        /// shapes' addresses (0: empty), compared field by field. A `Dictionary` of a key struct
        /// cost a seeded hash of the key and a copy of its lists for every add.
        struct ShapeTable {
            private var slots = [UInt](repeating: 0, count: 64)
            private var count = 0

            /// The hash of a shape's identifying fields, its lists byte by byte.
            static func hash(layout: UnsafePointer<LayoutEntry>, nameCount: Int, ranks: UnsafeBufferPointer<UInt8>,
                             host: UnsafeBufferPointer<UInt8>, key: Int64, expansion: UInt16, endsWithWildcard: Bool,
                             anyMethod: Bool, methods: UInt64) -> UInt64 {
                var fold: UInt64 = 0xCBF2_9CE4_8422_2325
                for byte in ranks { fold = (fold ^ UInt64(byte)) &* 0x100_0000_01B3 }
                for byte in host { fold = (fold ^ UInt64(byte)) &* 0x100_0000_01B3 }
                fold ^= UInt64(truncatingIfNeeded: nameCount) &<< 40 ^ UInt64(expansion) &<< 8
                    ^ UInt64(bitPattern: key) &<< 44 ^ (endsWithWildcard ? 1 : 0) ^ (anyMethod ? 2 : 0)
                fold = (fold ^ UInt64(UInt(bitPattern: layout))) &* SegmentHash.multiplier
                fold = (fold ^ methods ^ fold >> 29) &* SegmentHash.multiplier
                return fold ^ fold >> 32
            }

            static func hash(of shape: TerminalShape) -> UInt64 {
                hash(layout: shape.layout, nameCount: shape.nameCount,
                     ranks: UnsafeBufferPointer(start: shape.ranks, count: shape.rankCount),
                     host: UnsafeBufferPointer(start: shape.host, count: shape.hostLength), key: shape.key,
                     expansion: shape.expansion, endsWithWildcard: shape.endsWithWildcard, anyMethod: shape.anyMethod,
                     methods: shape.methods)
            }

            /// The shape with `hash` that `matches` accepts, if there is one.
            func find(_ hash: UInt64, _ matches: (TerminalShape) -> Bool) -> UInt? {
                let mask = slots.count - 1
                var slot = Int(truncatingIfNeeded: hash) & mask
                while slots[slot] != 0 {
                    if matches(UnsafePointer<TerminalShape>(bitPattern: slots[slot]).unsafelyUnwrapped.pointee) { return slots[slot] }
                    slot = (slot + 1) & mask
                }
                return nil
            }

            /// Adds `shape` (not there yet), whose hash is `hash`.
            mutating func insert(_ shape: UInt, hash: UInt64) {
                if (count + 1) * 4 > slots.count * 3 { grow() }
                let mask = slots.count - 1
                var slot = Int(truncatingIfNeeded: hash) & mask
                while slots[slot] != 0 { slot = (slot + 1) & mask }
                slots[slot] = shape
                count += 1
            }

            private mutating func grow() {
                let old = slots
                slots = [UInt](repeating: 0, count: old.count * 2)
                count = 0
                for shape in old where shape != 0 {
                    insert(shape, hash: Self.hash(of: UnsafePointer<TerminalShape>(bitPattern: shape).unsafelyUnwrapped.pointee))
                }
            }
        }

        /// Whether `count` bytes at `stored` are `bytes`.
        private static func sameBytes(_ stored: UnsafePointer<UInt8>?, _ count: Int, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
            guard count == bytes.count else { return false }
            guard count > 0, let stored, let base = bytes.baseAddress else { return true }
            return ByteComparison.equal(stored, base, count, folded: false)
        }

        /// The immortal shape of a route expansion: its parameter layout (from
        /// ``internLayout(_:)``), segment ranks, host rule, methods and priority. Expansions alike share one, so the
        /// number of shapes grows with the distinct route shapes (and priorities), not with the routes.
        func internShape(layout: UnsafePointer<LayoutEntry>, nameCount: Int, ranks: UnsafeBufferPointer<UInt8>,
                         host: UnsafeBufferPointer<UInt8>, hostRank: UInt8, priority: Int32, expansion: UInt16,
                         endsWithWildcard: Bool, methods: MethodSet) -> UnsafePointer<TerminalShape> {
            let key = Int64(priority) &<< 2 | Int64(hostRank)
            let hash = ShapeTable.hash(layout: layout, nameCount: nameCount, ranks: ranks, host: host, key: key,
                                       expansion: expansion, endsWithWildcard: endsWithWildcard,
                                       anyMethod: methods.isAny, methods: methods.mask)
            let address = state.withLock { state -> UInt in
                let existing = state.shapes.find(hash) { shape in
                    shape.layout == layout && shape.nameCount == nameCount && shape.key == key
                        && shape.expansion == expansion && shape.endsWithWildcard == endsWithWildcard
                        && shape.anyMethod == methods.isAny && shape.methods == methods.mask
                        && shape.hostRank == hostRank
                        && Self.sameBytes(shape.ranks, shape.rankCount, ranks)
                        && Self.sameBytes(shape.host, shape.hostLength, host)
                }
                if let existing { return existing }
                let rankStorage = UnsafeMutablePointer<UInt8>.allocate(capacity: max(ranks.count, 1))
                if let base = ranks.baseAddress { rankStorage.initialize(from: base, count: ranks.count) }
                var hostStorage: UnsafeMutablePointer<UInt8>?
                if let base = host.baseAddress, !host.isEmpty {
                    hostStorage = .allocate(capacity: host.count)
                    hostStorage!.initialize(from: base, count: host.count)
                }
                let shape = UnsafeMutablePointer<TerminalShape>.allocate(capacity: 1)
                shape.initialize(to: TerminalShape(layout: layout, nameCount: nameCount, ranks: rankStorage,
                                                   rankCount: ranks.count, host: hostStorage.map { UnsafePointer($0) },
                                                   hostLength: host.count, hostRank: hostRank, expansion: expansion,
                                                   endsWithWildcard: endsWithWildcard, anyMethod: methods.isAny,
                                                   methods: methods.mask, key: key))
                state.shapes.insert(UInt(bitPattern: shape), hash: hash)
                return UInt(bitPattern: shape)
            }
            return UnsafePointer(bitPattern: address)!
        }

        /// The id of `name`, interning it on first use (the caller checked the capacity).
        private static func intern(_ name: String, _ state: inout State) -> UInt32 {
            if let id = state.ids[name] { return id }
            let id = UInt32(state.names.count)
            let utf8 = Array(name.utf8)
            // Padded like the lookup's buffers, so a match may copy a short name with whole loads.
            let storage = UnsafeMutablePointer<UInt8>.allocate(capacity: utf8.count + ScratchState.padding)
            storage.initialize(repeating: 0, count: utf8.count + ScratchState.padding)
            storage.update(from: utf8, count: utf8.count)
            state.names.append(UnsafeBufferPointer(start: storage, count: utf8.count))
            let string = UnsafeMutablePointer<String>.allocate(capacity: 1)
            string.initialize(to: name)
            state.strings.append(UnsafePointer(string))
            state.ids[name] = id
            return id
        }

        /// Distinct names interned so far.
        var count: Int { state.withLock { $0.names.count } }
    }
}

/// One parameter of a route variant: its name and the URL segment that holds its value (-1 when
/// it is a slice of a partial segment, found at match time). Outside ``NameTable`` so that the
/// inlinable result accessors the C boundary calls (``ScratchState/parameter(at:)``) can read it.
@usableFromInline
struct ParameterLayoutEntry {
    @usableFromInline let name: UnsafePointer<UInt8>
    @usableFromInline let nameLength: Int
    let segment: Int32
    /// The same name as an immortal Swift string, so a match copies it instead of decoding it.
    let nameString: UnsafePointer<String>
}
