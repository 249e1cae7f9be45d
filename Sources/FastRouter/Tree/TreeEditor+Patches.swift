/// Copies that change only addresses (docs/ARCHITECTURE.md, "Updates"): most nodes an edit
/// thaws are on the way to the change (an add's ancestors), and all that changes in them is the
/// address of the one child below. Such a node is thawed as a *patched copy*: the published block
/// it copies (its `source`) and a short list of ``BlockPatch``es, each naming a word of that
/// block and the edited node or chunk whose frozen address goes there. Freezing it copies the
/// block and writes those words: no arrays, no re-encoding of the index, no hashing of its
/// other children. The same holds for the chunks of a large node.
///
/// A patched copy turns into a whole thaw (``materialize(_:)``) as soon as its structure must
/// change: a child, an edge, a placeholder or a route to add or to take away. At freeze time,
/// too, when a patched child came out with no routes or a lower ``Node/maxKey`` (a removal below
/// it): its parent's key and its slot must then be computed again. Both ways give the same
/// block, so the tree's shape still depends only on its routes.
extension TreeEditor {
    /// Most patches a node or chunk takes before it is thawed whole: past them, finding the
    /// patch for a child (a walk of the list) costs more than the whole thaw saves.
    static var patchLimit: Int { 16 }

    // MARK: Thawing

    /// The edited node behind the published `node`: a patched copy of it.
    mutating func patchedCopy(of node: Node) -> Int {
        replaced.append(node.base)
        let index = takeNode()
        nodes[index].source = node
        return index
    }

    /// The edited chunk behind the published `chunk` at `level`: a patched copy of it.
    mutating func patchedCopy(of chunk: LiteralChunk, level: Int) -> Int {
        replaced.append(chunk.base)
        let index = takeChunk(level: level)
        chunks[index].source = chunk
        return index
    }

    /// What patch `slot` of node `owner` (or of chunk `owner` when `inChunk`) points to, if it has one.
    func patchTarget(of owner: Int, inChunk: Bool, _ slot: PatchSlot) -> Int? {
        var patch = inChunk ? chunks[owner].newestPatch : nodes[owner].newestPatch
        while patch >= 0 {
            if patches[patch].slot == slot { return patches[patch].target }
            patch = patches[patch].next
        }
        return nil
    }

    /// Points word `slot` of node `owner`'s copy (or chunk `owner`'s) at edited `target`.
    mutating func addPatch(to owner: Int, inChunk: Bool, _ slot: PatchSlot, target: Int) {
        let first = inChunk ? chunks[owner].newestPatch : nodes[owner].newestPatch
        patches.append(BlockPatch(slot: slot, target: target, next: first))
        if inChunk {
            chunks[owner].newestPatch = patches.count - 1
            chunks[owner].patchCount += 1
        } else {
            nodes[owner].newestPatch = patches.count - 1
            nodes[owner].patchCount += 1
        }
    }

    /// The edited child behind word `slot` of patched node `owner` (or chunk `owner` when
    /// `inChunk`), whose published child there is `child`: the one a patch already names, or a
    /// patched copy of `child` patched in. An owner past ``patchLimit`` is thawed whole.
    mutating func patchedChild(of owner: Int, inChunk: Bool = false, _ slot: PatchSlot, published child: Node) -> Int {
        if let target = patchTarget(of: owner, inChunk: inChunk, slot) { return target }
        let copy = patchedCopy(of: child)
        addPatch(to: owner, inChunk: inChunk, slot, target: copy)
        if inChunk {
            if chunks[owner].patchCount > Self.patchLimit { materializeChunk(owner) }
        } else if nodes[owner].patchCount > Self.patchLimit {
            materialize(owner)
        }
        return copy
    }

    /// The edited chunk behind word `slot` of patched node `owner` (or chunk `owner` when
    /// `inChunk`), whose published chunk at `level` there is `chunk`: the one a patch already
    /// names, or a patched copy of `chunk` patched in.
    mutating func patchedChunk(of owner: Int, inChunk: Bool, _ slot: PatchSlot, published chunk: LiteralChunk, level: Int) -> Int {
        if let target = patchTarget(of: owner, inChunk: inChunk, slot) { return target }
        let copy = patchedCopy(of: chunk, level: level)
        addPatch(to: owner, inChunk: inChunk, slot, target: copy)
        return copy
    }

    /// Thaws patched node `index` whole (its children published, but those its patches name,
    /// which stay edited); nothing for a node already whole.
    @inline(__always)
    mutating func materialize(_ index: Int) {
        // Inlined for its test: most nodes it is asked about are new or whole already.
        if let source = nodes[index].source { materialize(index, from: source) }
    }

    /// ``materialize(_:)`` of a patched copy of `source`.
    private mutating func materialize(_ index: Int, from source: Node) {
        var patch = nodes[index].newestPatch
        let (insertedAt, insertedChild) = (nodes[index].insertedAt, nodes[index].insertedChild)
        nodes[index].empty()
        nodes[index].thaw(source)
        // After the patches below, whose positions are the source's.
        defer {
            if insertedAt >= 0 {
                let head = SegmentHash.head(of: nodes[insertedChild].label)
                nodes[index].literals.list.insertTrivially((head, .editing(insertedChild)), at: insertedAt)
            }
        }
        while patch >= 0 {
            let target = patches[patch].target
            switch patches[patch].slot {
            case .literal(let position):
                nodes[index].literals.list[position].child = .editing(target)
            case .rootChunk:
                nodes[index].literals.root = .editing(target)
            case .parameter:
                nodes[index].parameter = .editing(target)
            case .edge(let position):
                nodes[index].edges[position].child = .editing(target)
            case .entry:
                preconditionFailure("a chunk's patch on a node")
            }
            patch = patches[patch].next
        }
    }

    /// Thaws patched chunk `index` whole, as ``materialize(_:)`` does a node.
    mutating func materializeChunk(_ index: Int) {
        guard let source = chunks[index].source else { return }
        let level = chunks[index].level
        var patch = chunks[index].newestPatch
        chunks[index].empty(level: level)
        chunks[index].thaw(source)
        while patch >= 0 {
            guard case .entry(let slot, let isChunk) = patches[patch].slot else { preconditionFailure("a node's patch on a chunk") }
            let target = patches[patch].target
            chunks[index].slots[slot] = isChunk ? .chunk(.editing(target)) : .child(.editing(target))
            patch = patches[patch].next
        }
    }

    // MARK: Finding a child in a copy

    /// The edited literal child labelled `label` of patched node `index`, patched in; `nil` when
    /// the published node has none.
    @inline(__always)
    mutating func patchedLiteralChild(of index: Int, _ label: [UInt8]) -> Int? {
        let source = nodes[index].source.unsafelyUnwrapped
        if nodes[index].insertedAt >= 0 && nodes[nodes[index].insertedChild].label == label { return nodes[index].insertedChild }
        if source.isChunked {
            let root = patchedChunk(of: index, inChunk: false, .rootChunk, published: source.rootChunk, level: 0)
            return patchedChild(label, hash: SegmentHash.of(label), inChunk: root)
        }
        let position = label.withUnsafeBufferPointer { source.indexPosition(ofLabel: $0) }
        guard position >= 0 else { return nil }
        return patchedChild(of: index, .literal(position), published: source.indexedChild(at: position))
    }

    /// The edited child labelled `label` below edited chunk `index`, patched in through the
    /// chunks on its hash's path while they are copies (a chunk thawed whole is searched as
    /// such, ``findChild(_:hash:in:level:)``).
    mutating func patchedChild(_ label: [UInt8], hash: UInt64, inChunk index: Int) -> Int? {
        guard let source = chunks[index].source else {
            var ref = EditChunkRef.editing(index)
            return findChild(label, hash: hash, in: &ref, level: chunks[index].level)
        }
        let level = chunks[index].level
        let candidates = level >= LiteralChildren.hashLevels ? 0..<source.entryCount
            : LiteralChildren.slot(hash, level: level)..<(LiteralChildren.slot(hash, level: level) + 1)
        for slot in candidates {
            let entry: Int
            let isChunk: Bool
            if level >= LiteralChildren.hashLevels {
                (entry, isChunk) = (slot, false)
            } else {
                let byte = source.slotByte(slot)
                guard byte != 0 else { return nil }
                (entry, isChunk) = (Int(byte & ~LiteralChunk.chunkBit) - 1, byte & LiteralChunk.chunkBit != 0)
            }
            let patchSlot = PatchSlot.entry(slot: slot, isChunk: isChunk)
            if isChunk {
                let below = patchedChunk(of: index, inChunk: true, patchSlot, published: LiteralChunk(source.entry(entry)),
                                         level: level + 1)
                return patchedChild(label, hash: hash, inChunk: below)
            }
            let child = Node(source.entry(entry))
            guard Self.labelEquals(child, label) else { continue }
            return patchedChild(of: index, inChunk: true, patchSlot, published: child)
        }
        return nil
    }

    /// The edited placeholder child of patched node `index`, patched in; `nil` when it has none.
    @inline(__always)
    mutating func patchedParameterChild(of index: Int) -> Int? {
        let source = nodes[index].source.unsafelyUnwrapped
        guard source.hasParameter else { return nil }
        return patchedChild(of: index, .parameter, published: source.parameterChild)
    }

    /// The edited child of patched node `index`'s edge with `code` and `matcher`, patched in;
    /// `nil` when it has no such edge.
    mutating func patchedEdgeChild(of index: Int, code: UInt8, matcher: UnsafeRawPointer?) -> Int? {
        let source = nodes[index].source.unsafelyUnwrapped
        for position in 0..<source.edgeCount {
            let edge = source.edge(at: position)
            if edge.code == code && edge.matcher == matcher {
                return patchedChild(of: index, .edge(position), published: edge.child)
            }
        }
        return nil
    }

    /// Whether published `node`'s label is `label`.
    static func labelEquals(_ node: Node, _ label: [UInt8]) -> Bool {
        node.labelLength == label.count && (label.isEmpty || label.withUnsafeBufferPointer {
            let other = $0.baseAddress!
            return node.withLabel { ByteComparison.equal($0, other, label.count, folded: false) }
        })
    }

    // MARK: Inserting into a copy

    /// A new literal child labelled `label` of patched node `index`, which has none: the copy
    /// keeps its source and takes the child as its one insertion (written into the source's
    /// index at freeze time, ``writeCopy(ofNode:)``). `nil` when the copy cannot take it (its
    /// source is chunked or its index full, or it has an insertion already): it must be thawed
    /// whole.
    ///
    /// A node that gains a child is mostly an add's last ancestor, often a wide one (a site's
    /// resources under an id): thawing it whole would list, then re-encode, every child.
    mutating func insertLiteral(_ label: [UInt8], into index: Int) -> Int? {
        let source = nodes[index].source.unsafelyUnwrapped
        guard nodes[index].insertedAt < 0, !source.isChunked, source.indexCount < LiteralChildren.inlineLimit else { return nil }
        // The position in the index's order (``EditLiterals/list``).
        let head = SegmentHash.head(of: label)
        var position = 0
        while position < source.indexCount,
              precedes((source.indexedChild(at: position).labelHead, .published(source.indexedChild(at: position))), head, label) {
            position += 1
        }
        let fresh = makeNode(label: label)
        nodes[index].insertedChild = fresh
        nodes[index].insertedAt = position
        return fresh
    }

    // MARK: Freezing a copy

    /// Whether patched node `index` can be frozen as a copy: every child it patches came out
    /// with routes and a key no lower than the one it replaces, and its chunks stayed copies.
    /// Otherwise its key, flags or index must be computed again (``materialize(_:)``).
    @inline(__always)
    mutating func copyStaysValid(_ index: Int) -> Bool {
        let source = nodes[index].source.unsafelyUnwrapped
        if removes && nodes[index].insertedAt >= 0 && frozenNode(nodes[index].insertedChild) == nil { return false }
        var patch = nodes[index].newestPatch
        while patch >= 0 {
            let target = patches[patch].target
            switch patches[patch].slot {
            case .rootChunk:
                guard chunks[target].source != nil, frozenChunkStaysValid(target) else { return false }
            case .literal, .parameter, .edge:
                // An edit that only adds routes leaves no child empty and lowers no key.
                guard removes else { break }
                let old = Node(source.base.load(fromByteOffset: Self.offset(of: patches[patch].slot, in: source),
                                                as: UnsafeMutableRawPointer.self))
                guard let frozen = frozenNode(target), frozen.maxKey >= old.maxKey else { return false }
            case .entry:
                preconditionFailure("a chunk's patch on a node")
            }
            patch = patches[patch].next
        }
        return true
    }

    /// Whether patched chunk `index` can be written as a copy (as ``copyStaysValid(_:)``), its
    /// children being frozen; it then knows its count and key (``EditChunk/frozenCount``). A
    /// chunk that cannot is thawed whole here.
    mutating func frozenChunkStaysValid(_ index: Int) -> Bool {
        guard let source = chunks[index].source else { return false }
        var count = source.count
        var maxKey = source.maxKey
        var valid = true
        var patch = chunks[index].newestPatch
        while patch >= 0 && valid {
            guard case .entry(let slot, let isChunk) = patches[patch].slot else { preconditionFailure("a node's patch on a chunk") }
            let target = patches[patch].target
            let old = source.entry(Self.entryIndex(slot, in: source, level: chunks[index].level))
            if isChunk {
                if chunks[target].source != nil, frozenChunkStaysValid(target) {
                    count += chunks[target].frozenCount - LiteralChunk(old).count
                    maxKey = max(maxKey, chunks[target].frozenMaxKey)
                } else {
                    valid = false
                }
            } else if let frozen = frozenNode(target), frozen.maxKey >= Node(old).maxKey {
                maxKey = max(maxKey, frozen.maxKey)
            } else {
                valid = false
            }
            patch = patches[patch].next
        }
        if !valid {
            materializeChunk(index)
            return false
        }
        chunks[index].frozenCount = count
        chunks[index].frozenMaxKey = maxKey
        return true
    }

    /// Writes patched node `index` (``copyStaysValid(_:)``) as a copy of its source with its
    /// patched words and key.
    @inline(__always)
    mutating func writeCopy(ofNode index: Int) -> Node {
        let source = nodes[index].source.unsafelyUnwrapped
        let insertedAt = nodes[index].insertedAt
        let base: UnsafeMutableRawPointer
        var maxKey = source.maxKey
        if insertedAt >= 0 {
            let child = frozenNode(nodes[index].insertedChild).unsafelyUnwrapped
            base = writeCopy(of: source, inserting: child, at: insertedAt)
            maxKey = max(maxKey, child.maxKey)
        } else {
            let size = source.byteCount
            base = allocateBlock(byteCount: size)
            base.copyMemory(from: source.base, byteCount: size)
        }
        var patch = nodes[index].newestPatch
        while patch >= 0 {
            let slot = patches[patch].slot
            let target = patches[patch].target
            let address: UnsafeMutableRawPointer
            if case .rootChunk = slot {
                let chunk = writeCopy(ofChunk: target)
                maxKey = max(maxKey, chunk.maxKey)
                address = chunk.base
            } else {
                let child = frozenNode(target).unsafelyUnwrapped
                maxKey = max(maxKey, child.maxKey)
                address = child.base
            }
            base.storeBytes(of: address, toByteOffset: Self.offset(of: slot, in: source, inserting: insertedAt),
                            as: UnsafeMutableRawPointer.self)
            patch = patches[patch].next
        }
        base.storeBytes(of: maxKey, as: Int64.self)
        written += 1
        return Node(base)
    }

    /// A new block: published `source` (a small index) with `child` inserted at `position` of
    /// its index, everything after the index moved along; the same block ``Node/make`` would
    /// write for that node (its key is the caller's to set).
    func writeCopy(of source: Node, inserting child: Node, at position: Int) -> UnsafeMutableRawPointer {
        let count = source.indexCount
        let oldIndexSize = LiteralChildren.indexBytes(count)
        let newIndexSize = LiteralChildren.indexBytes(count + 1)
        let restSize = source.byteCount - Node.headerSize - oldIndexSize
        let base = allocateBlock(byteCount: Node.headerSize + newIndexSize + restSize)
        base.copyMemory(from: source.base, byteCount: Node.headerSize)
        let index = base + Node.headerSize
        index.initializeMemory(as: UInt8.self, repeating: 0, count: newIndexSize)
        for entry in 0...count {
            let node = entry < position ? source.indexedChild(at: entry) : entry == position ? child : source.indexedChild(at: entry - 1)
            index.storeBytes(of: node.indexTag, toByteOffset: LiteralChildren.tagOffset(entry, count: count + 1), as: UInt8.self)
            index.storeBytes(of: node.base, toByteOffset: LiteralChildren.childOffset(entry), as: UnsafeMutableRawPointer.self)
        }
        (index + newIndexSize).copyMemory(from: source.base + Node.headerSize + oldIndexSize, byteCount: restSize)
        var flags = source.flags & ~(Node.leafFlag | Node.singleLiteralFlag | Node.indexedFlag)
        flags |= count == 0 ? Node.singleLiteralFlag : Node.indexedFlag
        base.storeBytes(of: UInt16(count + 1), toByteOffset: 26, as: UInt16.self)
        base.storeBytes(of: flags, toByteOffset: 34, as: UInt8.self)
        let terminalOffset = base.load(fromByteOffset: 36, as: UInt32.self)
        base.storeBytes(of: terminalOffset + UInt32(newIndexSize - oldIndexSize), toByteOffset: 36, as: UInt32.self)
        return base
    }

    /// Writes patched chunk `index` (``frozenChunkStaysValid(_:)``) as a copy of its source.
    mutating func writeCopy(ofChunk index: Int) -> LiteralChunk {
        let source = chunks[index].source.unsafelyUnwrapped
        let level = chunks[index].level
        let size = source.byteCount
        let base = allocateBlock(byteCount: size)
        base.copyMemory(from: source.base, byteCount: size)
        var patch = chunks[index].newestPatch
        while patch >= 0 {
            guard case .entry(let slot, let isChunk) = patches[patch].slot else { preconditionFailure("a node's patch on a chunk") }
            let target = patches[patch].target
            let address = isChunk ? writeCopy(ofChunk: target).base : frozenNode(target).unsafelyUnwrapped.base
            let entry = Self.entryIndex(slot, in: source, level: level)
            base.storeBytes(of: address, toByteOffset: LiteralChunk.headerSize + 8 * entry, as: UnsafeMutableRawPointer.self)
            patch = patches[patch].next
        }
        base.storeBytes(of: chunks[index].frozenMaxKey, as: Int64.self)
        base.storeBytes(of: UInt32(chunks[index].frozenCount), toByteOffset: 8, as: UInt32.self)
        written += 1
        return LiteralChunk(base)
    }

    /// Where word `slot` of published node `node`'s block lies in its copy that gains a literal
    /// child at index position `insertedAt` (-1: none; see ``writeCopy(of:inserting:at:)``).
    static func offset(of slot: PatchSlot, in node: Node, inserting insertedAt: Int) -> Int {
        guard insertedAt >= 0 else { return offset(of: slot, in: node) }
        let growth = LiteralChildren.indexBytes(node.indexCount + 1) - LiteralChildren.indexBytes(node.indexCount)
        switch slot {
        case .literal(let position):
            return Node.headerSize + LiteralChildren.childOffset(position < insertedAt ? position : position + 1)
        case .parameter, .edge:
            return offset(of: slot, in: node) + growth
        case .rootChunk, .entry:
            preconditionFailure("a chunked node takes no insertion")
        }
    }

    /// Where word `slot` lies in published node `node`'s block.
    static func offset(of slot: PatchSlot, in node: Node) -> Int {
        switch slot {
        case .literal(let position): return Node.headerSize + LiteralChildren.childOffset(position)
        case .rootChunk: return Node.headerSize
        case .parameter: return node.edgeOffset - 8
        case .edge(let position): return node.edgeOffset + Node.edgeSize * position + MemoryLayout<Edge>.offset(of: \.child)!
        case .entry: preconditionFailure("a chunk's patch on a node")
        }
    }

    /// The entry of `chunk` at `slot` (at the collision level, the slot is the entry).
    static func entryIndex(_ slot: Int, in chunk: LiteralChunk, level: Int) -> Int {
        level >= LiteralChildren.hashLevels ? slot : Int(chunk.slotByte(slot) & ~LiteralChunk.chunkBit) - 1
    }
}

/// A word of a published block that its patched copy replaces (see TreeEditor+Patches.swift).
struct BlockPatch {
    var slot: PatchSlot
    /// The edited node (or chunk, for ``PatchSlot/rootChunk`` and a chunk entry) whose frozen
    /// address goes there.
    var target: Int
    /// The next patch of the same block, -1 after the last.
    var next: Int
}

/// Which word of a block a ``BlockPatch`` replaces.
enum PatchSlot: Equatable {
    /// A node's indexed literal child at this position.
    case literal(Int)
    /// A chunked node's root chunk.
    case rootChunk
    case parameter
    /// The child of a node's edge at this position.
    case edge(Int)
    /// A chunk's entry in this slot (at the collision level, this position), a chunk of the
    /// next level when `isChunk`.
    case entry(slot: Int, isChunk: Bool)
}
