/// The editor's side of a large node's chunks (see ``LiteralChildren``): thawed one at a time on
/// the path of the hash being added or removed, so an add copies one chunk per level whatever
/// the node's fan-out; frozen bottom-up into the canonical shape (a child in the shallowest chunk
/// where no sibling shares its hash bits; a chunk left with one child gives it to its parent; a
/// node left with ``LiteralChildren/inlineLimit`` children or fewer indexes them in its block).
extension TreeEditor {
    /// A new, empty edited chunk.
    mutating func makeChunk(level: Int) -> Int {
        let index = takeChunk(level: level)
        chunks[index].clearSlots()
        return index
    }

    /// The next chunk at `level`, empty and without slots (a patched copy uses none): one left by
    /// an earlier edit, or a new one.
    mutating func takeChunk(level: Int) -> Int {
        if chunkCount == chunks.count {
            chunks.append(EditChunk(level: level))
        } else {
            chunks[chunkCount].empty(level: level)
        }
        chunkCount += 1
        return chunkCount - 1
    }

    /// The edited chunk behind `ref`, thawed whole first (a patched copy too).
    mutating func editableChunk(_ ref: inout EditChunkRef, level: Int) -> Int {
        switch ref {
        case .editing(let index):
            materializeChunk(index)
            return index
        case .published(let chunk):
            replaced.append(chunk.base)
            let index = takeChunk(level: level)
            chunks[index].thaw(chunk)
            ref = .editing(index)
            return index
        }
    }

    /// The edited child labelled `label` below `ref`, thawing the chunks on its hash's path;
    /// `nil` when there is none.
    mutating func findChild(_ label: [UInt8], hash: UInt64, in ref: inout EditChunkRef, level: Int) -> Int? {
        let chunk = editableChunk(&ref, level: level)
        // A hash level has one slot for the hash; the collision level is a list to search.
        let slots = level >= LiteralChildren.hashLevels
            ? chunks[chunk].slots.indices : LiteralChildren.slot(hash, level: level)..<(LiteralChildren.slot(hash, level: level) + 1)
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
        case .editing(let index): return nodes[index].labelNode?.labelHash ?? SegmentHash.of(nodes[index].label)
        }
    }

    /// Whether a child's label is `label`, compared where it lies.
    func labelEquals(_ child: EditChild, _ label: [UInt8]) -> Bool {
        switch child {
        case .published(let node):
            return Self.labelEquals(node, label)
        case .editing(let index):
            if let labelNode = nodes[index].labelNode { return Self.labelEquals(labelNode, label) }
            return nodes[index].label == label
        }
    }

    // MARK: Freezing

    /// Node `index`'s literal children, frozen: indexed when there are few enough (in the
    /// editor's ``frozenLiterals``, valid until the next node), else chunked.
    mutating func freezeLiterals(of index: Int) -> FrozenLiterals {
        frozenLiterals.removeAll()
        guard let root = nodes[index].literals.root else {
            for position in 0..<nodes[index].literals.list.count {
                let entry = nodes[index].literals.list[position]
                if let node = freezeChild(entry.child) { frozenLiterals.append((entry.head, node)) }
            }
            return .inline(frozenLiterals.elements)
        }
        switch freezeChunk(root, level: 0) {
        case .none:
            return .none
        case .child(let node):
            frozenLiterals.append((node.labelHead, node))
            return .inline(frozenLiterals.elements)
        case .chunk(let ref, let count):
            if count > LiteralChildren.inlineLimit { return .chunked(write(ref, level: 0)) }
            // Few enough left to index: the chunks go.
            var nodes: [Node] = []
            collect(ref, level: 0, into: &nodes)
            let sorted: [(head: UInt64, node: Node)] = nodes.map { (head: $0.labelHead, node: $0) }.sorted { lhs, rhs in
                lhs.head != rhs.head ? lhs.head < rhs.head : lhs.node.labelBytes.lexicographicallyPrecedes(rhs.node.labelBytes)
            }
            for entry in sorted { frozenLiterals.append(entry) }
            return .inline(frozenLiterals.elements)
        }
    }

    /// Freezes the children below `ref` in place (an edited chunk's slots then hold the frozen
    /// blocks, as published children), nothing written yet: the count decides whether the
    /// chunks are written or the node indexes its children.
    private mutating func freezeChunk(_ ref: EditChunkRef, level: Int) -> FrozenSlot {
        guard case .editing(let index) = ref else {
            guard case .published(let chunk) = ref else { fatalError("unreachable") }
            return .chunk(ref, count: chunk.count)
        }
        if chunks[index].source != nil && frozenChunkStaysValid(index) { return .chunk(ref, count: chunks[index].frozenCount) }
        var count = 0
        var entries = 0
        var lone: Node?
        for slot in chunks[index].slots.indices {
            switch chunks[index].slots[slot] {
            case .empty:
                continue
            case .child(let child):
                guard let node = freezeChild(child) else {
                    chunks[index].slots[slot] = .empty
                    continue
                }
                chunks[index].slots[slot] = .child(.published(node))
                count += 1
                entries += 1
                lone = node
            case .chunk(let below):
                switch freezeChunk(below, level: level + 1) {
                case .none:
                    chunks[index].slots[slot] = .empty
                case .child(let node):
                    chunks[index].slots[slot] = .child(.published(node))
                    count += 1
                    entries += 1
                    lone = node
                case .chunk(let frozen, let below):
                    chunks[index].slots[slot] = .chunk(frozen)
                    count += below
                    entries += 1
                    lone = nil
                }
            }
        }
        if entries == 0 { return .none }
        if entries == 1, let lone { return .child(lone) }
        return .chunk(ref, count: count)
    }

    /// Writes the frozen chunks below `ref` that are new, bottom-up (a collision list with its
    /// positions made dense).
    private mutating func write(_ ref: EditChunkRef, level: Int) -> LiteralChunk {
        switch ref {
        case .published(let chunk):
            return chunk
        case .editing(let index):
            if chunks[index].source != nil { return writeCopy(ofChunk: index) }
            var slots: [(slot: Int, entry: FrozenChunkEntry)] = []
            for (slot, entry) in chunks[index].slots.enumerated() {
                switch entry {
                case .empty: continue
                case .child(let child):
                    guard case .published(let node) = child else { fatalError("unreachable: children are frozen") }
                    slots.append((level >= LiteralChildren.hashLevels ? slots.count : slot, .child(node)))
                case .chunk(let below):
                    slots.append((slot, .chunk(write(below, level: level + 1))))
                }
            }
            written += 1
            return LiteralChunk.make(level: level, slots: slots, in: blockArena)
        }
    }

    /// Every child below the frozen `ref`; its published chunks are replaced (they go with the
    /// chunking).
    private mutating func collect(_ ref: EditChunkRef, level: Int, into nodes: inout [Node]) {
        switch ref {
        case .published(let chunk):
            for block in chunk.blocks(level: level) { replaced.append(block) }
            chunk.forEachChild(level: level) { nodes.append($0) }
        case .editing(let index):
            precondition(chunks[index].source == nil, "a patched chunk keeps more children than an index holds")
            for entry in chunks[index].slots {
                switch entry {
                case .empty: continue
                case .child(let child):
                    guard case .published(let node) = child else { fatalError("unreachable: children are frozen") }
                    nodes.append(node)
                case .chunk(let below): collect(below, level: level + 1, into: &nodes)
                }
            }
        }
    }
}

/// A chunk being edited: ``LiteralChildren/chunkSlots`` slots, or at the collision level a list in
/// label order.
struct EditChunk {
    var level: Int
    /// Its slots: ``LiteralChildren/chunkSlots`` of them, or at the collision level a list.
    var slots: [EditSlot] = []
    /// For a patched copy (TreeEditor+Patches.swift): the published chunk it copies; `slots` is
    /// then unused. `nil` once thawed whole.
    var source: LiteralChunk? = nil
    /// A patched copy's newest patch in the editor's ``TreeEditor/patches`` (-1: none; each links
    /// to the one before, ``BlockPatch/next``), and how many it has.
    var newestPatch = -1
    var patchCount = 0
    /// A patched copy's children and key once its children froze (``TreeEditor/frozenChunkStaysValid(_:)``).
    var frozenCount = 0
    var frozenMaxKey = Int64.min

    /// A chunk at `level` without slots yet (``clearSlots()`` gives it empty ones).
    init(level: Int) {
        self.level = level
    }

    /// Empties it for its next use at `level`, without slots, keeping their room.
    mutating func empty(level: Int) {
        self.level = level
        if !slots.isEmpty { slots.removeAll(keepingCapacity: true) }
        source = nil
        newestPatch = -1
        patchCount = 0
        frozenCount = 0
        frozenMaxKey = .min
    }

    /// Gives it its empty slots: ``LiteralChildren/chunkSlots`` of them, none at the collision
    /// level (a list).
    mutating func clearSlots() {
        if !slots.isEmpty { slots.removeAll(keepingCapacity: true) }
        if level < LiteralChildren.hashLevels { slots.append(contentsOf: repeatElement(.empty, count: LiteralChildren.chunkSlots)) }
    }

    /// Makes it (without slots) a whole copy of published `chunk`: its children and chunks published.
    mutating func thaw(_ chunk: LiteralChunk) {
        clearSlots()
        if level >= LiteralChildren.hashLevels {
            for entry in 0..<chunk.entryCount { slots.append(.child(.published(Node(chunk.entry(entry))))) }
            return
        }
        for slot in 0..<LiteralChildren.chunkSlots {
            let byte = chunk.slotByte(slot)
            guard byte != 0 else { continue }
            let pointer = chunk.entry(Int(byte & ~LiteralChunk.chunkBit) - 1)
            slots[slot] = byte & LiteralChunk.chunkBit != 0 ? .chunk(.published(LiteralChunk(pointer))) : .child(.published(Node(pointer)))
        }
    }
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

    /// The edited chunk's index (the caller knows it is one).
    var editingIndex: Int {
        guard case .editing(let index) = self else { preconditionFailure("a published chunk") }
        return index
    }
}

/// What a chunk holds after its children froze: nothing, a lone child (for its parent to take),
/// or a chunk (still to write when edited) and the children below it.
private enum FrozenSlot {
    case none
    case child(Node)
    case chunk(EditChunkRef, count: Int)
}
