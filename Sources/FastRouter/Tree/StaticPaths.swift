/// The global table's static routes by their whole path, for a table with no dynamic route
/// (docs/ARCHITECTURE.md, "Static paths"; docs/SEMANTICS.md §3.1).
///
/// When no route of the global table has a placeholder, a constraint, a partial segment or a
/// wildcard, a path reaches at most one node: the one its segments spell. The walk would pass
/// every segment's node to get there; this map finds it with one hash of the whole path and one
/// probe, and the lookup then weighs that node's routes exactly as the walk does at a path's
/// end (`Walker.atEnd`). A path it does not hold matches no route. A table with a dynamic route
/// has no map (a dynamic route may match the same path, and a decline must know it), so its
/// lookups neither use nor pay for one.
///
/// It is persistent like the tree: a hash-array-mapped trie of 64-way chunks keyed by
/// ``SegmentHash`` of the path (the chunk layout of ``LiteralChunk``), whose leaves are
/// ``StaticPathEntry`` blocks (the path's bytes and its node). An update writes the chunks on its
/// hashes' paths and new entries for the nodes it replaced, shares the rest, and lists the blocks
/// the new version no longer reaches for the grace period (``StaticPathsEditor``).
struct StaticPaths {
    /// The root chunk; `nil` for an empty map.
    let root: UnsafeMutableRawPointer?

    /// The node whose path is the `length` bytes at `path` (`key`: their ``StaticPathKey``), if
    /// a route ends there.
    @inline(__always)
    func node(key: StaticPathKey, path: UnsafeRawPointer, length: Int) -> Node? {
        guard let root else { return nil }
        return LiteralChunk(root).find(hash: key.hash) { StaticPathEntry($0).matches(last: key.last, path: path, length: length) }
            .map { StaticPathEntry($0).node }
    }

    /// ``node(key:path:length:)`` for the path `bytes[0..<end]` of a lookup (`readable`: the bytes
    /// that may be loaded), its key computed here.
    @inline(__always)
    func node(path bytes: UnsafePointer<UInt8>, end: Int, readable: Int) -> Node? {
        node(key: StaticPathKey(bytes, from: 0, end: end, readable: readable), path: UnsafeRawPointer(bytes), length: end)
    }

    /// ``node(key:path:length:)`` for a path given as bytes (the editor, the invariants).
    func node(_ path: [UInt8]) -> Node? {
        path.withUnsafeBytes { node(key: StaticPathKey(of: path), path: $0.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!,
                                    length: $0.count) }
    }

    /// Every entry (for the invariants and the tests).
    var entries: [StaticPathEntry] {
        var result: [StaticPathEntry] = []
        forEachBlock { pointer, isEntry in if isEntry { result.append(StaticPathEntry(pointer)) } }
        return result
    }

    /// Calls `body` with every block of the map, chunks and entries (`isEntry`), a chunk after
    /// what it holds, so that `body` may free each.
    func forEachBlock(_ body: (UnsafeMutableRawPointer, _ isEntry: Bool) -> Void) {
        guard let root else { return }
        var stack: [(UnsafeMutableRawPointer, Int)] = [(root, 0)]
        while let (pointer, level) = stack.popLast() {
            // The chunk read before `body` sees it: it may free it.
            for (_, entry, isChunk) in LiteralChunk(pointer).slots(level: level) {
                if isChunk { stack.append((entry, level + 1)) } else { body(entry, true) }
            }
            body(pointer, false)
        }
    }

    /// Frees every block; only when no reader can reach the map.
    func deallocate() { forEachBlock { pointer, _ in BlockArena.deallocateUnpooled(pointer) } }
}

/// One path of ``StaticPaths``: an immutable block.
///
///     node (8), length (8), last (8): the path's last word (``StaticPathKey``), hash (8),
///     path bytes, 8 zero bytes
struct StaticPathEntry {
    let base: UnsafeMutableRawPointer
    @inline(__always) init(_ base: UnsafeMutableRawPointer) { self.base = base }

    @inline(__always) var node: Node { Node(base.load(as: UnsafeMutableRawPointer.self)) }
    @inline(__always) var length: Int { base.load(fromByteOffset: 8, as: Int.self) }
    @inline(__always) var last: UInt64 { base.load(fromByteOffset: 16, as: UInt64.self) }
    @inline(__always) var hash: UInt64 { base.load(fromByteOffset: 24, as: UInt64.self) }
    @inline(__always) var bytes: UnsafeRawPointer { UnsafeRawPointer(base + 32) }
    var path: [UInt8] { Array(UnsafeRawBufferPointer(start: bytes, count: length)) }
    /// The block's size, as ``make(path:node:)`` wrote it.
    var byteCount: Int { 32 + (length + 15) & ~7 }

    /// Whether this entry's path is the `length` bytes at `path` whose last word is `last`:
    /// length and last word first (all of a path of up to 8 bytes), then the words before it.
    @inline(__always)
    func matches(last: UInt64, path: UnsafeRawPointer, length: Int) -> Bool {
        guard self.length == length && self.last == last else { return false }
        // The first two words without a loop, as the key mixes them (``StaticPathKey``).
        guard length > 8 else { return true }
        guard path.loadUnaligned(as: UInt64.self) == bytes.loadUnaligned(as: UInt64.self) else { return false }
        guard length > 16 else { return true }
        guard path.loadUnaligned(fromByteOffset: 8, as: UInt64.self) == bytes.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
        else { return false }
        return ByteComparison.wordsBeforeLastEqual(path, bytes, from: 16, length: length)
    }

    static func make(path: [UInt8], node: Node) -> StaticPathEntry {
        let size = 32 + (path.count + 15) & ~7
        let base = BlockArena.allocateUnpooled(byteCount: size)
        base.initializeMemory(as: UInt8.self, repeating: 0, count: size)
        let key = StaticPathKey(of: path)
        base.storeBytes(of: node.base, as: UnsafeMutableRawPointer.self)
        base.storeBytes(of: path.count, toByteOffset: 8, as: Int.self)
        base.storeBytes(of: key.last, toByteOffset: 16, as: UInt64.self)
        base.storeBytes(of: key.hash, toByteOffset: 24, as: UInt64.self)
        path.withUnsafeBytes { (base + 32).copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
        return StaticPathEntry(base)
    }
}

/// Writes new versions of a ``StaticPaths`` map (the writer's side), keeping the blocks it
/// replaced, to free after the grace period, as ``TreeEditor`` does for the tree.
struct StaticPathsEditor {
    /// The map being edited: its root chunk (new blocks or the published ones).
    private(set) var root: UnsafeMutableRawPointer?
    /// Published blocks this edit replaced.
    var replaced: [UnsafeMutableRawPointer] = []
    /// Blocks this edit wrote that a later step of the same edit replaced: freed at once, no
    /// reader ever saw them.
    private var scratch: Set<UInt> = []

    init(_ map: StaticPaths) { root = map.root }

    /// Makes `path` lead to `node` (`nil`: to no node).
    mutating func set(_ path: [UInt8], to node: Node?) {
        let hash = StaticPathKey(of: path).hash
        if let node {
            let entry = StaticPathEntry.make(path: path, node: node)
            scratch.insert(UInt(bitPattern: entry.base))
            root = insert(root, level: 0, hash: hash, entry: entry)
        } else if let current = root {
            switch remove(current, level: 0, hash: hash, path: path) {
            case .unchanged: break
            case .gone: root = nil
            case .single(let entry): root = write(level: 0, [(LiteralChildren.slot(StaticPathEntry(entry).hash, level: 0), entry, false)])
            case .chunk(let chunk): root = chunk
            }
        }
    }

    /// Replaces every block of the map with those of `entries` (a rebuild).
    mutating func rebuild(_ entries: [(path: [UInt8], node: Node)]) {
        StaticPaths(root: root).forEachBlock { pointer, _ in retire(pointer) }
        root = nil
        for (path, node) in entries { set(path, to: node) }
    }

    var map: StaticPaths { StaticPaths(root: root) }

    // MARK: The trie

    private mutating func retire(_ block: UnsafeMutableRawPointer) {
        if scratch.remove(UInt(bitPattern: block)) != nil {
            BlockArena.deallocateUnpooled(block)
        } else {
            replaced.append(block)
        }
    }

    /// A new chunk (see ``LiteralChunk/write(level:_:count:maxKey:in:)``), unpublished until the
    /// edit is: its header counts the entries below it (no key: entries hold no routes).
    private mutating func write(level: Int, _ slots: [LiteralChunk.RawSlot]) -> UnsafeMutableRawPointer {
        let count = slots.reduce(0) { $0 + ($1.isChunk ? LiteralChunk($1.entry).count : 1) }
        let base = LiteralChunk.write(level: level, slots, count: count, maxKey: Int64.min, in: nil).base
        scratch.insert(UInt(bitPattern: base))
        return base
    }

    /// The chunk at `level` (or a new one) with `entry` added, an entry of the same path replaced.
    private mutating func insert(_ chunk: UnsafeMutableRawPointer?, level: Int, hash: UInt64,
                                 entry: StaticPathEntry) -> UnsafeMutableRawPointer {
        var slots = chunk.map { LiteralChunk($0).slots(level: level) } ?? []
        if let chunk { retire(chunk) }
        if level >= LiteralChildren.hashLevels {
            // Equal hash bits: a list in path order.
            let path = entry.path
            if let index = slots.firstIndex(where: { StaticPathEntry($0.entry).path == path }) {
                retire(slots[index].entry)
                slots[index].entry = entry.base
            } else {
                slots.append((0, entry.base, false))
                slots.sort { StaticPathEntry($0.entry).path.lexicographicallyPrecedes(StaticPathEntry($1.entry).path) }
            }
            return write(level: level, slots.enumerated().map { ($0, $1.entry, false) })
        }
        let slot = LiteralChildren.slot(hash, level: level)
        guard let index = slots.firstIndex(where: { $0.slot == slot }) else {
            slots.append((slot, entry.base, false))
            slots.sort { $0.slot < $1.slot }
            return write(level: level, slots)
        }
        let present = slots[index]
        if present.isChunk {
            slots[index].entry = insert(present.entry, level: level + 1, hash: hash, entry: entry)
        } else if StaticPathEntry(present.entry).path == entry.path {
            retire(present.entry)
            slots[index].entry = entry.base
        } else {
            // Two paths share this slot: a chunk of the next level holds both.
            let other = StaticPathEntry(present.entry)
            let below = insert(nil, level: level + 1, hash: other.hash, entry: other)
            slots[index] = (slot, insert(below, level: level + 1, hash: hash, entry: entry), true)
        }
        return write(level: level, slots)
    }

    private enum Removal {
        case unchanged, gone
        /// One entry left, given back to the parent (no chunk holds a single entry but the root).
        case single(UnsafeMutableRawPointer)
        case chunk(UnsafeMutableRawPointer)
    }

    private mutating func remove(_ chunk: UnsafeMutableRawPointer, level: Int, hash: UInt64, path: [UInt8]) -> Removal {
        var slots = LiteralChunk(chunk).slots(level: level)
        let index: Int
        if level >= LiteralChildren.hashLevels {
            guard let found = slots.firstIndex(where: { StaticPathEntry($0.entry).path == path }) else { return .unchanged }
            index = found
            retire(slots[index].entry)
            slots.remove(at: index)
        } else {
            let slot = LiteralChildren.slot(hash, level: level)
            guard let found = slots.firstIndex(where: { $0.slot == slot }) else { return .unchanged }
            index = found
            let present = slots[index]
            if present.isChunk {
                switch remove(present.entry, level: level + 1, hash: hash, path: path) {
                case .unchanged: return .unchanged
                case .gone: slots.remove(at: index)
                case .single(let entry): slots[index] = (slot, entry, false)
                case .chunk(let below): slots[index].entry = below
                }
            } else {
                guard StaticPathEntry(present.entry).path == path else { return .unchanged }
                retire(present.entry)
                slots.remove(at: index)
            }
        }
        retire(chunk)
        if slots.isEmpty { return .gone }
        if slots.count == 1 && !slots[0].isChunk { return .single(slots[0].entry) }
        return .chunk(write(level: level, level >= LiteralChildren.hashLevels
                                ? slots.enumerated().map { ($0, $1.entry, false) } : slots))
    }
}

// MARK: Keeping the map with its table

extension StaticPathsEditor {
    /// Most edited paths looked up again one by one; a larger batch rebuilds the map from the
    /// tree, once.
    static let refreshLimit = 256

    /// Brings the map of `old` up to a new version of the global table (`global`, the new root)
    /// that has `dynamicRoutes` dynamic routes, `edits` (``TreeEditor/staticEdits``) naming the
    /// static routes added or removed: none while there is a dynamic route; rebuilt from the
    /// tree when the last one went or a batch was large; else each edited path and its prefixes
    /// looked up again, since a node on their way may be a new block.
    mutating func update(from old: TableRoots, global: Node, dynamicRoutes: Int, edits: [[[UInt8]]]) {
        if dynamicRoutes > 0 {
            if root != nil { rebuild([]) }
        } else if old.dynamicRoutes > 0 || edits.count > Self.refreshLimit {
            rebuild(StaticPaths.paths(below: global))
        } else {
            for labels in edits { refresh(labels, global: global) }
        }
    }

    /// Looks up every prefix of the path of `labels` in the tree of `global`, and makes the map
    /// lead it to its node when a route ends there, to none otherwise.
    private mutating func refresh(_ labels: [[UInt8]], global: Node) {
        var node: Node? = global
        var path: [UInt8] = []
        for label in labels {
            path.append(UInt8(ascii: "/"))
            path += label
            node = node.flatMap { StaticPaths.child(of: $0, label) }
            let target = node.flatMap { $0.terminalCount > 0 ? $0 : nil }
            let present = map.node(path)
            if present?.base != target?.base { set(path, to: target) }
        }
    }
}

extension StaticPaths {
    /// Every node of a tree without dynamic routes where a route ends, with its path.
    static func paths(below root: Node) -> [(path: [UInt8], node: Node)] {
        var result: [(path: [UInt8], node: Node)] = []
        var stack: [(node: Node, path: [UInt8])] = [(root, [])]
        while let (node, path) = stack.popLast() {
            if !path.isEmpty && node.terminalCount > 0 { result.append((path, node)) }
            node.forEachLiteral { child in stack.append((child, path + [UInt8(ascii: "/")] + child.labelBytes)) }
        }
        return result
    }

    /// The literal child of `node` labelled `label`, found as a walk finds it.
    static func child(of node: Node, _ label: [UInt8]) -> Node? {
        guard node.literalCount > 0 else { return nil }
        // Padded, so that the lookup may load whole words past the label.
        let padded = label + [UInt8](repeating: 0, count: 8)
        return padded.withUnsafeBufferPointer {
            node.literalChild(in: $0.baseAddress!, start: 0, end: label.count, readable: padded.count)
        }
    }
}

/// How ``StaticPaths`` finds a whole path: the ``SegmentHash`` mix of its length and its words,
/// the last one being the 8 bytes that end the path (it may overlap the one before, so no word
/// is masked), or all of a shorter path (``SegmentHash/head(_:from:end:readable:)``); and that
/// last word, which an entry compares first.
struct StaticPathKey: Hashable {
    var hash: UInt64
    var last: UInt64

    /// The key of the path `[start, end)` of `bytes` (`readable`: the bytes that may be loaded),
    /// which is not empty: a lookup of the empty path walks the tree.
    @inline(__always)
    init(_ bytes: UnsafePointer<UInt8>, from start: Int, end: Int, readable: Int) {
        let length = end &- start
        var hash = UInt64(truncatingIfNeeded: length)
        let base = UnsafeRawPointer(bytes)
        var index = start
        // Most paths are a few words: the first two are mixed without a loop, whose set-up
        // (compilers unroll it) costs more than they do.
        if end &- index > 8 {
            hash = SegmentHash.mix(hash, base.loadUnaligned(fromByteOffset: index, as: UInt64.self))
            index &+= 8
            if end &- index > 8 {
                hash = SegmentHash.mix(hash, base.loadUnaligned(fromByteOffset: index, as: UInt64.self))
                index &+= 8
                while end &- index > 8 {
                    hash = SegmentHash.mix(hash, base.loadUnaligned(fromByteOffset: index, as: UInt64.self))
                    index &+= 8
                }
            }
        }
        last = length >= 8 ? UnsafeRawPointer(bytes + (end &- 8)).loadUnaligned(as: UInt64.self)
            : SegmentHash.head(bytes, from: start, end: end, readable: readable)
        self.hash = SegmentHash.mix(hash, last)
    }

    /// The key of `path`: what a lookup computes for the same bytes.
    init(of path: [UInt8]) {
        self = path.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else {
                return StaticPathKey(UnsafePointer(bitPattern: 1)!, from: 0, end: 0, readable: 0)
            }
            return StaticPathKey(base, from: 0, end: buffer.count, readable: buffer.count)
        }
    }
}
