/// The editor's side of a large node's chunks (see ``LiteralChildren``): thawed one at a time on
/// the path of the hash being added or removed, so an add copies one chunk per level whatever
/// the node's fan-out; frozen bottom-up into the canonical shape (a child in the shallowest chunk
/// where no sibling shares its hash bits; a chunk left with one child gives it to its parent; a
/// node left with ``LiteralChildren/inlineLimit`` children or fewer indexes them in its block).
extension TreeEditor {
    /// A new, empty edited chunk.
    mutating func makeChunk(level: Int) -> Int {
        let slots = level >= LiteralChildren.hashLevels ? [] : [EditSlot](repeating: .empty, count: 32)
        chunks.append(EditChunk(level: level, slots: slots))
        return chunks.count - 1
    }

    /// The edited chunk behind `ref`, thawed first when it is a published block.
    mutating func editableChunk(_ ref: inout EditChunkRef, level: Int) -> Int {
        switch ref {
        case .editing(let index):
            return index
        case .published(let chunk):
            replaced.append(chunk.base)
            let index = makeChunk(level: level)
            for (slot, entry) in chunk.entries(level: level) {
                let thawed: EditSlot
                switch entry {
                case .child(let node): thawed = .child(.published(node))
                case .chunk(let below): thawed = .chunk(.published(below))
                }
                if level >= LiteralChildren.hashLevels { chunks[index].slots.append(thawed) } else { chunks[index].slots[slot] = thawed }
            }
            ref = .editing(index)
            return index
        }
    }

    /// The edited child labelled `label` below `ref`, thawing the chunks on its hash's path;
    /// `nil` when there is none.
    mutating func findChild(_ label: [UInt8], hash: UInt64, in ref: inout EditChunkRef, level: Int) -> Int? {
        let chunk = editableChunk(&ref, level: level)
        let slots = level >= LiteralChildren.hashLevels
            ? Array(chunks[chunk].slots.indices) : [LiteralChildren.slot(hash, level: level)]
        for slot in slots {
            switch chunks[chunk].slots[slot] {
            case .empty:
                continue
            case .child(var child):
                guard labelEquals(child, label) else { continue }
                let reached = editable(&child)
                chunks[chunk].slots[slot] = .child(child)
                return reached
            case .chunk(var below):
                let found = findChild(label, hash: hash, in: &below, level: level + 1)
                chunks[chunk].slots[slot] = .chunk(below)
                return found
            }
        }
        return nil
    }

    /// Puts `child` (not there yet) below `ref`: in its slot when free, else in a chunk of the
    /// next level with the child already there; in label order in a collision list.
    mutating func insert(_ child: EditChild, hash: UInt64, into ref: inout EditChunkRef, level: Int) {
        let chunk = editableChunk(&ref, level: level)
        if level >= LiteralChildren.hashLevels {
            let label = self.label(of: child)
            let position = chunks[chunk].slots.firstIndex { slot in
                guard case .child(let other) = slot else { return false }
                return label.lexicographicallyPrecedes(self.label(of: other))
            } ?? chunks[chunk].slots.count
            chunks[chunk].slots.insert(.child(child), at: position)
            return
        }
        let slot = LiteralChildren.slot(hash, level: level)
        switch chunks[chunk].slots[slot] {
        case .empty:
            chunks[chunk].slots[slot] = .child(child)
        case .child(let other):
            var below = EditChunkRef.editing(makeChunk(level: level + 1))
            insert(other, hash: self.hash(of: other), into: &below, level: level + 1)
            insert(child, hash: hash, into: &below, level: level + 1)
            chunks[chunk].slots[slot] = .chunk(below)
        case .chunk(var below):
            insert(child, hash: hash, into: &below, level: level + 1)
            chunks[chunk].slots[slot] = .chunk(below)
        }
    }

    /// The hash of a child's label.
    func hash(of child: EditChild) -> UInt64 {
        switch child {
        case .published(let node): return node.labelHash
        case .editing(let index): return SegmentHash.of(nodes[index].label)
        }
    }

    /// Whether a child's label is `label`, compared where it lies.
    func labelEquals(_ child: EditChild, _ label: [UInt8]) -> Bool {
        switch child {
        case .published(let node):
            return node.labelLength == label.count && (label.isEmpty || label.withUnsafeBufferPointer { ByteComparison.equal(node.label, $0.baseAddress!, label.count, folded: false) })
        case .editing(let index):
            return nodes[index].label == label
        }
    }

    // MARK: Freezing

    /// A node's literal children, frozen: indexed when there are few enough, else chunked.
    mutating func freezeLiterals(_ literals: EditLiterals) -> FrozenLiterals {
        switch literals {
        case .list(let list):
            return .inline(list.compactMap { entry in freezeChild(entry.child).map { (entry.hash, $0) } })
        case .chunked(let root):
            switch freezeChunk(root, level: 0) {
            case .none:
                return .none
            case .child(let node):
                return .inline([(node.labelHash, node)])
            case .chunk(let pending):
                if pending.count > LiteralChildren.inlineLimit { return .chunked(write(pending)) }
                // Few enough left to index: the chunks go.
                var nodes: [Node] = []
                collect(pending, into: &nodes)
                let sorted: [(hash: UInt64, node: Node)] = nodes.map { (hash: $0.labelHash, node: $0) }.sorted { lhs, rhs in
                    lhs.hash != rhs.hash ? lhs.hash < rhs.hash : lhs.node.labelBytes.lexicographicallyPrecedes(rhs.node.labelBytes)
                }
                return .inline(sorted)
            }
        }
    }

    /// Freezes the children below `ref`; what is left, not yet written.
    private mutating func freezeChunk(_ ref: EditChunkRef, level: Int) -> FrozenSlot {
        guard case .editing(let index) = ref else {
            guard case .published(let chunk) = ref else { fatalError("unreachable") }
            return .chunk(.published(chunk, level: level))
        }
        var entries: [(slot: Int, entry: PendingEntry)] = []
        var count = 0
        for (slot, entry) in chunks[index].slots.enumerated() {
            switch entry {
            case .empty:
                continue
            case .child(let child):
                guard let node = freezeChild(child) else { continue }
                entries.append((slot, .child(node)))
                count += 1
            case .chunk(let below):
                switch freezeChunk(below, level: level + 1) {
                case .none: continue
                case .child(let node):
                    entries.append((slot, .child(node)))
                    count += 1
                case .chunk(let pending):
                    entries.append((slot, .chunk(pending)))
                    count += pending.count
                }
            }
        }
        if entries.isEmpty { return .none }
        if entries.count == 1, case .child(let node) = entries[0].entry { return .child(node) }
        if level >= LiteralChildren.hashLevels {
            // A collision list keeps its positions dense.
            entries = entries.enumerated().map { ($0.offset, $0.element.entry) }
        }
        return .chunk(.built(level: level, entries: entries, count: count))
    }

    /// Writes the chunks of `pending` that are new, bottom-up.
    private mutating func write(_ pending: PendingChunk) -> LiteralChunk {
        switch pending {
        case .published(let chunk, _):
            return chunk
        case .built(let level, let entries, _):
            var slots: [(slot: Int, entry: FrozenChunkEntry)] = []
            for (slot, entry) in entries {
                switch entry {
                case .child(let node): slots.append((slot, .child(node)))
                case .chunk(let below): slots.append((slot, .chunk(write(below))))
                }
            }
            written += 1
            return LiteralChunk.make(level: level, slots: slots)
        }
    }

    /// Every child of `pending`; its published chunks are replaced (they go with the chunking).
    private mutating func collect(_ pending: PendingChunk, into nodes: inout [Node]) {
        switch pending {
        case .published(let chunk, let level):
            replaced += chunk.blocks(level: level)
            chunk.forEachChild(level: level) { nodes.append($0) }
        case .built(_, let entries, _):
            for (_, entry) in entries {
                switch entry {
                case .child(let node): nodes.append(node)
                case .chunk(let below): collect(below, into: &nodes)
                }
            }
        }
    }
}

/// A chunk being edited: 32 slots, or at the collision level a list in label order.
struct EditChunk {
    var level: Int
    var slots: [EditSlot]
}

/// A slot of an edited chunk. A child's hash is computed again when needed (when a sibling
/// arrives in its slot), not kept for every thawed slot.
enum EditSlot {
    case empty
    case child(EditChild)
    case chunk(EditChunkRef)
}

/// A chunk during an edit: still the published block, or an edited one (an index into the
/// editor's chunks).
enum EditChunkRef {
    case published(LiteralChunk)
    case editing(Int)
}

/// What a chunk holds after its children froze: nothing, a lone child (for its parent to take),
/// or a chunk to write.
private enum FrozenSlot {
    case none
    case child(Node)
    case chunk(PendingChunk)
}

/// A chunk to write (or a published one kept as it is).
private indirect enum PendingChunk {
    case published(LiteralChunk, level: Int)
    case built(level: Int, entries: [(slot: Int, entry: PendingEntry)], count: Int)

    var count: Int {
        switch self {
        case .published(let chunk, _): return chunk.count
        case .built(_, _, let count): return count
        }
    }
}

private enum PendingEntry {
    case child(Node)
    case chunk(PendingChunk)
}
