/// Every table of one router — the per-scheme tries and the global trie — in flat buffers.
///
/// A router keeps two sides (see ``PublishedTables``): readers use the active one while the
/// writer changes the other, then swaps them. A side is therefore only ever mutated by the single
/// writer while no reader can see it, which is why it can use raw, non-atomic storage.
struct TableSide {
    var nodes: FlatBuffer<TrieNode>
    var literalSlots: FlatBuffer<LiteralSlot>
    var literalCount: Int = 0
    var constraintEdges: FlatBuffer<ConstraintEdge>
    var variants: FlatBuffer<Variant>
    /// Literal keys, scheme names and host rules, as bytes.
    var keys: FlatBuffer<UInt8>
    var schemes: FlatBuffer<SchemeEntry>
    /// Heads of the free lists (0 = empty); freed entries are reused before the buffers grow.
    var freeNode: UInt32 = 0
    var freeEdge: UInt32 = 0
    var freeVariant: UInt32 = 0
    /// Bytes of `keys` no longer referenced; the buffer is compacted when they dominate.
    var garbageKeyBytes: Int = 0
    /// Live variants, for statistics.
    var variantCount: Int = 0

    /// The global table's root node.
    static let globalRoot: UInt32 = 1

    init() {
        nodes = FlatBuffer(capacity: 64)
        nodes.append(.empty)  // 0: the "none" sentinel
        var root = TrieNode.empty
        root.kind = SegmentRank.end.rawValue
        nodes.append(root)  // 1: global root
        literalSlots = FlatBuffer(capacity: 64)
        literalSlots.reset(count: 64, to: LiteralSlot(hash: 0, child: 0))
        constraintEdges = FlatBuffer(capacity: 8)
        constraintEdges.append(ConstraintEdge(child: 0, next: 0, code: 0, regex: nil))
        variants = FlatBuffer(capacity: 64)
        variants.append(Variant(routeID: 0, sequence: 0, payload: nil, layout: nil, priority: 0, node: 0, next: 0,
                                record: 0, hostOffset: 0, hostLength: 0, nameCount: 0, expansion: 0, hostRank: 0,
                                endsWithWildcard: false, hasPartial: false))
        keys = FlatBuffer(capacity: 256)
        schemes = FlatBuffer(capacity: 4)
    }

    /// An identical, independent copy (used to bring the other side up to date after a batch).
    func clone() -> TableSide {
        var copy = self
        copy.nodes = nodes.clone()
        copy.literalSlots = literalSlots.clone()
        copy.constraintEdges = constraintEdges.clone()
        copy.variants = variants.clone()
        copy.keys = keys.clone()
        copy.schemes = schemes.clone()
        return copy
    }

    /// Gives back the unused room of the large buffers, once a batch has filled them (the
    /// literal index is sized by its own load factor, not by growth, and keeps its size). Keys
    /// keep their padding: lookups load a whole word from any key's start.
    mutating func shrinkToFit() {
        nodes.shrinkToFit()
        constraintEdges.shrinkToFit()
        variants.shrinkToFit()
        keys.shrinkToFit(keepingSpare: LiteralHash.keyPadding)
    }

    /// Frees every buffer; the side must not be used afterwards.
    func deallocate() {
        nodes.deallocate()
        literalSlots.deallocate()
        constraintEdges.deallocate()
        variants.deallocate()
        keys.deallocate()
        schemes.deallocate()
    }

    // MARK: Schemes

    /// The root of the table for a lower-cased scheme, or 0 when no route uses that scheme.
    @inline(__always)
    func root(forScheme scheme: UnsafePointer<UInt8>, count: Int) -> UInt32 {
        for index in 0..<schemes.count {
            let entry = schemes[index]
            if Int(entry.keyLength) == count,
               ByteComparison.equal(keys.base + Int(entry.keyOffset), scheme, count, folded: true) {
                return entry.root
            }
        }
        return 0
    }

    /// The root for a lower-cased `scheme`, creating the table on first use. `nil` is the global table.
    mutating func rootCreating(scheme: String?) -> UInt32 {
        guard let scheme else { return TableSide.globalRoot }
        return withUTF8(scheme) { bytes in
            let existing = root(forScheme: bytes.baseAddress!, count: bytes.count)
            if existing != 0 { return existing }
            var tableRoot = TrieNode.empty
            tableRoot.kind = SegmentRank.end.rawValue
            let node = allocateNode(tableRoot)
            let offset = storeKey(bytes)
            schemes.append(SchemeEntry(keyOffset: offset, keyLength: UInt32(bytes.count), root: node))
            return node
        }
    }

    /// The root for a lower-cased `scheme` without creating it (0 when absent).
    func existingRoot(scheme: String?) -> UInt32 {
        guard let scheme else { return TableSide.globalRoot }
        if scheme.isEmpty { return 0 }
        return withUTF8(scheme) { root(forScheme: $0.baseAddress!, count: $0.count) }
    }

    // MARK: Storage primitives

    mutating func allocateNode(_ node: TrieNode) -> UInt32 {
        if freeNode != 0 {
            let index = freeNode
            freeNode = nodes[Int(index)].parent
            nodes[Int(index)] = node
            return index
        }
        return UInt32(nodes.append(node))
    }

    mutating func releaseNode(_ index: UInt32) {
        garbageKeyBytes += Int(nodes[Int(index)].keyLength)
        var free = TrieNode.empty
        free.parent = freeNode
        nodes[Int(index)] = free
        freeNode = index
    }

    mutating func allocateEdge(_ edge: ConstraintEdge) -> UInt32 {
        if freeEdge != 0 {
            let index = freeEdge
            freeEdge = constraintEdges[Int(index)].next
            constraintEdges[Int(index)] = edge
            return index
        }
        return UInt32(constraintEdges.append(edge))
    }

    mutating func releaseEdge(_ index: UInt32) {
        constraintEdges[Int(index)] = ConstraintEdge(child: 0, next: freeEdge, code: 0, regex: nil)
        freeEdge = index
    }

    mutating func allocateVariant(_ variant: Variant) -> UInt32 {
        variantCount += 1
        if freeVariant != 0 {
            let index = freeVariant
            freeVariant = variants[Int(index)].next
            variants[Int(index)] = variant
            return index
        }
        return UInt32(variants.append(variant))
    }

    mutating func releaseVariant(_ index: UInt32) {
        variantCount -= 1
        garbageKeyBytes += Int(variants[Int(index)].hostLength)
        var free = variants[0]
        free.next = freeVariant
        variants[Int(index)] = free
        freeVariant = index
    }

    /// Appends bytes to the key buffer and returns their offset.
    mutating func storeKey(_ bytes: [UInt8]) -> UInt32 {
        bytes.withUnsafeBufferPointer { storeKey($0) }
    }

    /// Appends bytes to the key buffer and returns their offset.
    mutating func storeKey(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt32 {
        if bytes.isEmpty { return UInt32(keys.count) }
        let offset = UInt32(keys.append(contentsOf: bytes))
        keys.reserve(keys.count + LiteralHash.keyPadding)
        return offset
    }

    /// Rewrites `keys` without garbage once more than half of it is unreferenced.
    /// Deterministic, so both sides compact at the same moment and stay identical.
    mutating func compactKeysIfNeeded() {
        guard garbageKeyBytes > 4096, garbageKeyBytes * 2 > keys.count else { return }
        var fresh = FlatBuffer<UInt8>(capacity: max(keys.count - garbageKeyBytes, 64))
        func move(_ offset: inout UInt32, _ length: UInt32) {
            let start = fresh.count
            fresh.append(contentsOf: UnsafeBufferPointer(start: keys.base + Int(offset), count: Int(length)))
            offset = UInt32(start)
        }
        for index in 0..<schemes.count {
            var entry = schemes[index]
            move(&entry.keyOffset, entry.keyLength)
            schemes[index] = entry
        }
        for index in 2..<max(nodes.count, 2) where nodes[index].keyLength > 0 && nodes[index].kind == SegmentRank.literal.rawValue {
            var node = nodes[index]
            move(&node.keyOffset, node.keyLength)
            nodes[index] = node
        }
        for index in 1..<max(variants.count, 1) where variants[index].node != 0 && variants[index].hostLength > 0 {
            var variant = variants[index]
            move(&variant.hostOffset, variant.hostLength)
            variants[index] = variant
        }
        fresh.reserve(fresh.count + LiteralHash.keyPadding)
        keys.deallocate()
        keys = fresh
        garbageKeyBytes = 0
    }

    // MARK: Literal index

    /// The literal child of `parent` whose key equals `bytes` exactly, or 0.
    func literalChild(of parent: UInt32, _ bytes: UnsafePointer<UInt8>, _ count: Int, hash: UInt64) -> UInt32 {
        let mask = literalSlots.count - 1
        let edgeHash = LiteralHash.edgeHash(hash, parent: parent)
        var slot = Int(edgeHash) & mask
        while true {
            let entry = literalSlots[slot]
            if entry.child == 0 { return 0 }
            if entry.hash == edgeHash {
                let node = nodes[Int(entry.child)]
                if node.parent == parent, Int(node.keyLength) == count,
                   ByteComparison.equal(keys.base + Int(node.keyOffset), bytes, count, folded: false) {
                    return entry.child
                }
            }
            slot = (slot + 1) & mask
        }
    }

    mutating func insertLiteralSlot(child: UInt32, edgeHash: UInt32) {
        if (literalCount + 1) * 4 > literalSlots.count * 3 { growLiteralIndex() }
        let mask = literalSlots.count - 1
        var slot = Int(edgeHash) & mask
        while literalSlots[slot].child != 0 { slot = (slot + 1) & mask }
        literalSlots[slot] = LiteralSlot(hash: edgeHash, child: child)
        literalCount += 1
    }

    mutating func removeLiteralSlot(child: UInt32, edgeHash: UInt32) {
        let mask = literalSlots.count - 1
        var hole = Int(edgeHash) & mask
        while literalSlots[hole].child != child { hole = (hole + 1) & mask }
        // Backward-shift deletion keeps every probe chain unbroken without tombstones.
        var next = (hole + 1) & mask
        while literalSlots[next].child != 0 {
            let home = Int(literalSlots[next].hash) & mask
            let distanceToNext = (next - home) & mask
            let distanceToHole = (hole - home) & mask
            if distanceToHole <= distanceToNext {
                literalSlots[hole] = literalSlots[next]
                hole = next
            }
            next = (next + 1) & mask
        }
        literalSlots[hole] = LiteralSlot(hash: 0, child: 0)
        literalCount -= 1
    }

    private mutating func growLiteralIndex() {
        let old = literalSlots
        var fresh = FlatBuffer<LiteralSlot>(capacity: old.count * 2)
        fresh.reset(count: old.count * 2, to: LiteralSlot(hash: 0, child: 0))
        let mask = fresh.count - 1
        for index in 0..<old.count where old[index].child != 0 {
            var slot = Int(old[index].hash) & mask
            while fresh[slot].child != 0 { slot = (slot + 1) & mask }
            fresh[slot] = old[index]
        }
        old.deallocate()
        literalSlots = fresh
    }
}
