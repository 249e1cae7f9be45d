/// How a node finds its literal child for a segment in O(1) (docs/ARCHITECTURE.md, "The lookup
/// tree"): by the segment's hash (``SegmentHash``), found while the walk looked for its end.
///
/// - A small node (up to ``inlineLimit`` children) keeps an index in its own block: a tag byte
///   per child (``SegmentHash/tag(head:length:)``, from the label's first word and length, so
///   the walk hashes no segment at a small node) in blocks of 16, each compared at once with one
///   vector compare; the children's addresses follow the first block, the later blocks follow
///   them. A tag that matches is confirmed on the child's label: its length and first word (all
///   of a label of up to 8 bytes), then the rest.
/// - A large node keeps a hash-array-mapped trie of 64-way ``LiteralChunk``s: each level takes 6
///   bits of the hash, from the top. An add copies one chunk per level, never the whole fan-out,
///   so a node with 65 536 children costs a few chunks per change; a path copy shares every other
///   chunk.
///
/// Both are canonical for their set of children (the index sorted by the first word of the
/// label, ``Node/labelHead`` as a number, then label; a child sits
/// in the shallowest chunk where no other shares its hash bits), so the tree's shape depends on its
/// routes only, never on their order.
enum LiteralChildren {
    /// Most children a node indexes in its block; more go to chunks. Four blocks of tags: a
    /// node of a few dozen children (a site's first level) is searched with four vector compares
    /// at most, without hashing the segment, and is still copied whole cheaply.
    static let inlineLimit = 64
    /// Tags a block holds, compared at once.
    static let tagBlock = 16
    /// Bytes of tags an index of `count` children takes: whole blocks, unused tags 0.
    @inline(__always) static func tagBytes(_ count: Int) -> Int { (count &+ 15) & ~15 }
    /// Bytes an index of `count` children takes in its node's block: its tags, then an address each.
    @inline(__always) static func indexBytes(_ count: Int) -> Int { tagBytes(count) &+ 8 &* count }
    /// Where tag `index` of an index of `count` children lies, from the index's start: the first
    /// block, then the children's addresses (at a fixed place, where the walk finds them without
    /// reading the count), then the later blocks.
    @inline(__always) static func tagOffset(_ index: Int, count: Int) -> Int {
        index < tagBlock ? index : index &+ 8 &* count
    }
    /// Where child `index`'s address lies, from the index's start: after the first block of tags.
    @inline(__always) static func childOffset(_ index: Int) -> Int { tagBlock &+ 8 &* index }
    /// Hash bits a chunk level takes, and so its slots: 64 a chunk, so that a node of a few dozen
    /// children (a site's first level) is mostly one level deep, and 12 000 (the first level of
    /// a million routes) three.
    static let chunkBits = 6
    static let chunkSlots = 1 << chunkBits
    /// Chunk levels that take hash bits (60 of the 64); the level below them is a collision list.
    static let hashLevels = 10
    /// Bits of the hash a chunk at `level` reads: `(hash >> shift(level)) & 63`, from the top.
    @inline(__always) static func shift(_ level: Int) -> UInt64 {
        UInt64(truncatingIfNeeded: 64 &- chunkBits &* (level &+ 1))
    }
    @inline(__always) static func slot(_ hash: UInt64, level: Int) -> Int {
        Int(truncatingIfNeeded: (hash &>> shift(level)) & UInt64(chunkSlots &- 1))
    }
}

/// One chunk of a large node's literal children (see ``LiteralChildren``): an immutable block.
///
///     maxKey (8): the best key below, so a node's own maxKey never reads its children
///     count (4): children below
///     entry count (4): entries in this chunk
///     slots (64 bytes): per slot, 0 when empty, else 1 + the entry's index, with bit 7 set
///                       when the entry is a chunk (a byte per slot, not a bitmap: no popcount,
///                       which baseline x86-64 lacks)
///     entries (8 each), in slot order: a child node or a chunk of the next level
///
/// A chunk of the collision level (equal hash bits, a list in label order) leaves its slots
/// empty: its entries are its children.
struct LiteralChunk: BitwiseCopyable {
    let base: UnsafeMutableRawPointer
    @inline(__always) init(_ base: UnsafeMutableRawPointer) { self.base = base }

    @inline(__always) var maxKey: Int64 { base.load(as: Int64.self) }
    @inline(__always) var count: Int { Int(base.load(fromByteOffset: 8, as: UInt32.self)) }
    @inline(__always) var entryCount: Int { Int(base.load(fromByteOffset: 12, as: UInt32.self)) }
    @inline(__always) func slotByte(_ slot: Int) -> UInt8 { base.load(fromByteOffset: 16 &+ slot, as: UInt8.self) }
    @inline(__always) func entry(_ index: Int) -> UnsafeMutableRawPointer {
        base.load(fromByteOffset: Self.headerSize &+ 8 &* index, as: UnsafeMutableRawPointer.self)
    }
    static let headerSize = 16 + LiteralChildren.chunkSlots
    /// The block's size, as ``write(level:_:count:maxKey:in:)`` wrote it.
    var byteCount: Int { Self.headerSize &+ 8 &* entryCount }
    static let chunkBit: UInt8 = 0x80

    /// An entry as the block holds it: its slot (at the collision level, its position), its
    /// block, and whether that is a chunk of the next level.
    typealias RawSlot = (slot: Int, entry: UnsafeMutableRawPointer, isChunk: Bool)

    /// A new block. `slots`: per occupied slot in order (or the collision list), a child or a chunk.
    static func make(level: Int, slots: [(slot: Int, entry: FrozenChunkEntry)], in arena: BlockArena) -> LiteralChunk {
        var count = 0
        var maxKey = Int64.min
        let raw: [RawSlot] = slots.map { slot, entry in
            switch entry {
            case .child(let node):
                count += 1
                maxKey = max(maxKey, node.maxKey)
                return (slot, node.base, false)
            case .chunk(let chunk):
                count += chunk.count
                maxKey = max(maxKey, chunk.maxKey)
                return (slot, chunk.base, true)
            }
        }
        return write(level: level, raw, count: count, maxKey: maxKey, in: arena)
    }

    /// A new block holding `slots` (in slot order, or the collision list), with `count` and
    /// `maxKey` for its header: the layout every chunk trie shares (a large node's children,
    /// ``StaticPaths``), from `arena`, or from the system allocator (`nil`: ``StaticPaths``).
    static func write(level: Int, _ slots: [RawSlot], count: Int, maxKey: Int64, in arena: BlockArena?) -> LiteralChunk {
        let size = headerSize + 8 * slots.count
        let base = arena?.allocate(byteCount: size) ?? BlockArena.allocateUnpooled(byteCount: size)
        base.initializeMemory(as: UInt8.self, repeating: 0, count: size)
        for (index, (slot, entry, isChunk)) in slots.enumerated() {
            if level < LiteralChildren.hashLevels {
                base.storeBytes(of: UInt8(index + 1) | (isChunk ? chunkBit : 0), toByteOffset: 16 + slot, as: UInt8.self)
            }
            base.storeBytes(of: entry, toByteOffset: headerSize + 8 * index, as: UnsafeMutableRawPointer.self)
        }
        base.storeBytes(of: maxKey, as: Int64.self)
        base.storeBytes(of: UInt32(count), toByteOffset: 8, as: UInt32.self)
        base.storeBytes(of: UInt32(slots.count), toByteOffset: 12, as: UInt32.self)
        return LiteralChunk(base)
    }

    /// The entry below this chunk (the root of a trie) whose hash is `hash` and that `matches`
    /// confirms: 6 bits of the hash a level, from the top, then the collision list of equal
    /// hashes. Inlined into each caller with its `matches`, so a lookup makes no call for it.
    @inline(__always)
    func find(hash: UInt64, _ matches: (UnsafeMutableRawPointer) -> Bool) -> UnsafeMutableRawPointer? {
        var chunk = self
        // The level's shift runs down from the top bits (``LiteralChildren/shift(_:)``), the
        // loop's only counter.
        var shift = LiteralChildren.shift(0)
        let last = LiteralChildren.shift(LiteralChildren.hashLevels &- 1)
        let mask = UInt64(LiteralChildren.chunkSlots &- 1)
        while true {
            let byte = chunk.slotByte(Int(truncatingIfNeeded: (hash &>> shift) & mask))
            if byte == 0 { return nil }
            let pointer = chunk.entry(Int(byte & ~Self.chunkBit) &- 1)
            if byte & Self.chunkBit == 0 { return matches(pointer) ? pointer : nil }
            chunk = LiteralChunk(pointer)
            if shift == last { break }
            shift &-= UInt64(LiteralChildren.chunkBits)
        }
        for index in 0..<chunk.entryCount where matches(chunk.entry(index)) { return chunk.entry(index) }
        return nil
    }

    /// Every entry with its slot (at the collision level, its position).
    func entries(level: Int) -> [(slot: Int, entry: FrozenChunkEntry)] {
        slots(level: level).map { slot, entry, isChunk in (slot, isChunk ? .chunk(LiteralChunk(entry)) : .child(Node(entry))) }
    }

    /// Every entry as the block holds it (see ``RawSlot``).
    func slots(level: Int) -> [RawSlot] {
        if level >= LiteralChildren.hashLevels {
            return (0..<entryCount).map { ($0, entry($0), false) }
        }
        var result: [RawSlot] = []
        for slot in 0..<LiteralChildren.chunkSlots {
            let byte = slotByte(slot)
            guard byte != 0 else { continue }
            result.append((slot, entry(Int(byte & ~Self.chunkBit) - 1), byte & Self.chunkBit != 0))
        }
        return result
    }

    /// Calls `body` with every child below, in slot order; no allocation (the folded walk).
    func forEachChild(level: Int, _ body: (Node) -> Void) {
        if level >= LiteralChildren.hashLevels {
            for index in 0..<entryCount { body(Node(entry(index))) }
            return
        }
        for slot in 0..<LiteralChildren.chunkSlots {
            let byte = slotByte(slot)
            guard byte != 0 else { continue }
            let pointer = entry(Int(byte & ~Self.chunkBit) &- 1)
            if byte & Self.chunkBit != 0 {
                LiteralChunk(pointer).forEachChild(level: level + 1, body)
            } else {
                body(Node(pointer))
            }
        }
    }

    /// This chunk and every chunk below it (to free them, and for the invariants).
    func blocks(level: Int) -> [UnsafeMutableRawPointer] {
        var result = [base]
        for (_, entry) in entries(level: level) {
            if case .chunk(let chunk) = entry { result += chunk.blocks(level: level + 1) }
        }
        return result
    }
}

/// An entry of a chunk being written: a child node or a chunk of the next level.
enum FrozenChunkEntry {
    case child(Node)
    case chunk(LiteralChunk)
}

/// A node's literal children as written into its block (see ``Node/make``).
enum FrozenLiterals {
    /// Up to ``LiteralChildren/inlineLimit`` children with their labels' first words, sorted by
    /// first word then label (see ``EditLiterals/list``).
    /// The children are the editor's list (``TreeEditor/freezeLiterals(of:)``), valid while the
    /// block is written.
    case inline(UnsafeBufferPointer<(head: UInt64, node: Node)>)
    /// The root chunk of more.
    case chunked(LiteralChunk)

    static var none: FrozenLiterals { .inline(UnsafeBufferPointer(start: nil, count: 0)) }

    @inline(__always)
    var count: Int {
        switch self {
        case .inline(let nodes): return nodes.count
        case .chunked(let chunk): return chunk.count
        }
    }

    @inline(__always)
    var maxKey: Int64 {
        switch self {
        case .inline(let nodes): return nodes.reduce(Int64.min) { max($0, $1.node.maxKey) }
        case .chunked(let chunk): return chunk.maxKey
        }
    }

    /// Bytes it takes in the node's block.
    @inline(__always)
    var byteCount: Int {
        switch self {
        case .inline(let nodes): return LiteralChildren.indexBytes(nodes.count)
        case .chunked: return 8
        }
    }

    @inline(__always)
    func write(to start: UnsafeMutableRawPointer) {
        switch self {
        case .inline(let nodes):
            guard !nodes.isEmpty else { return }
            for (index, (_, node)) in nodes.enumerated() {
                start.storeBytes(of: node.indexTag, toByteOffset: LiteralChildren.tagOffset(index, count: nodes.count),
                                 as: UInt8.self)
                start.storeBytes(of: node.base, toByteOffset: LiteralChildren.childOffset(index), as: UnsafeMutableRawPointer.self)
            }
        case .chunked(let chunk):
            start.storeBytes(of: chunk.base, as: UnsafeMutableRawPointer.self)
        }
    }
}

extension Node {
    /// The root chunk of a chunked node.
    @inline(__always) var rootChunk: LiteralChunk {
        LiteralChunk(base.load(fromByteOffset: Node.headerSize, as: UnsafeMutableRawPointer.self))
    }

    /// This node's tag in its parent's index (``SegmentHash/tag(head:length:)``), from its
    /// block.
    var indexTag: UInt8 {
        SegmentHash.tag(head: labelHead, length: labelLength)
    }

    /// The tag byte `index` of the index (a node that is not chunked); past the children, an
    /// unused one (0).
    @inline(__always) func tag(at index: Int) -> UInt8 {
        base.load(fromByteOffset: Node.headerSize &+ LiteralChildren.tagOffset(index, count: indexCount), as: UInt8.self)
    }
    @inline(__always) func indexedChild(at index: Int) -> Node {
        Node(base.load(fromByteOffset: Node.headerSize &+ LiteralChildren.childOffset(index), as: UnsafeMutableRawPointer.self))
    }

    /// Every literal child, in index or chunk order.
    var literalList: [Node] {
        var result: [Node] = []
        forEachLiteral { result.append($0) }
        return result
    }

    /// Calls `body` with every literal child; no allocation.
    @inline(__always)
    func forEachLiteral(_ body: (Node) -> Void) {
        if isChunked {
            rootChunk.forEachChild(level: 0, body)
        } else {
            for index in 0..<indexCount { body(indexedChild(at: index)) }
        }
    }

    /// The chunks of a chunked node (none otherwise).
    var chunkBlocks: [UnsafeMutableRawPointer] { isChunked ? rootChunk.blocks(level: 0) : [] }
}

// MARK: Finding a child (the walk)

extension Node {
    /// The literal child for the segment `[start, end)` of `bytes`, compared exactly. The node
    /// has at least one literal child (the walk checks its flags first). A small node finds it
    /// by the segment's first word and length (``SegmentHash/tag(head:length:)``), a large one
    /// by its hash.
    ///
    /// The walk searches an index for a segment of up to 16 bytes itself (``blockChild``) and
    /// calls this for the rest: a chunked node, a longer segment, a lone child's segment of more
    /// than 8 bytes. A function of its own, out of the walk's loop; the rarer cases leave it by
    /// tail calls.
    @inline(never)
    func literalChild(in bytes: UnsafePointer<UInt8>, start: Int, end: Int, readable: Int) -> Node? {
        if isChunked { return chunkedChild(in: bytes, start: start, end: end, readable: readable) }
        let length = end &- start
        guard length <= 16 else { return literalChildTheLongWay(bytes, start: start, end: end, readable: readable) }
        let head = SegmentHash.head(bytes, from: start, end: end, readable: readable)
        let target = SegmentHash.tagLanes(head: head, length: length), path = UnsafeRawPointer(bytes + start)
        if let child = blockChild(target, block: 0, head: head, length: length, path: path) { return child }
        guard indexCount > LiteralChildren.tagBlock else { return nil }
        return laterBlockChild(target, from: LiteralChildren.tagBlock, head: head, length: length, path: path)
    }

    /// The child listed in the index's block of tags that starts at tag `block` (0, 16, ...;
    /// the node has that many children) whose label is the segment of up to 16 bytes at `path`:
    /// `target` is its tag in every lane and `head` its first word, all of a label of up to 8
    /// bytes; one more word, ending where the label ends, is all of one of up to 16. `nil` when
    /// that block has none.
    @inline(__always)
    func blockChild(_ target: SIMD16<UInt8>, block: Int, head: UInt64, length: Int, path: UnsafeRawPointer) -> Node? {
        let tags = UnsafeRawPointer(base + (Node.headerSize &+ LiteralChildren.tagOffset(block, count: indexCount)))
        var hits = LaneMask.of(tags.loadUnaligned(as: SIMD16<UInt8>.self) .== target)
        while hits != 0 {
            let child = indexedChild(at: block &+ hits.trailingZeroBitCount)
            if child.labelHead == head && child.labelLength == length
                && (length <= 8 || path.loadUnaligned(fromByteOffset: length &- 8, as: UInt64.self) == child.labelTail) {
                return child
            }
            hits &= hits &- 1
        }
        return nil
    }

    /// ``literalChild(in:start:end:readable:)`` the long way, for a segment of a buffer shorter
    /// than 8 bytes (whose first word is loaded byte by byte) or one longer than 16 bytes: every block
    /// of tags, every label compared whole.
    @inline(never)
    private func literalChildTheLongWay(_ bytes: UnsafePointer<UInt8>, start: Int, end: Int, readable: Int) -> Node? {
        let length = end &- start
        let head = SegmentHash.head(bytes, from: start, end: end, readable: readable)
        return child(tagged: SegmentHash.tagLanes(head: head, length: length), from: 0, head: head, length: length,
                     path: UnsafeRawPointer(bytes + start))
    }

    /// The child whose label is the segment at `path` (`head`: its first word, `target`: its tag
    /// in every lane), searched in the index's blocks from tag `first` on: where the walk's loop
    /// and ``literalChild(in:start:end:readable:)`` go when the blocks they searched have none
    /// (a node of more than 16 children, or 32 for the walk).
    @inline(never)
    func laterBlockChild(_ target: SIMD16<UInt8>, from first: Int, head: UInt64, length: Int, path: UnsafeRawPointer) -> Node? {
        child(tagged: target, from: first, head: head, length: length, path: path)
    }

    /// The child whose tag is `target` and whose label is the segment, searched in the index's
    /// blocks from offset `first` on.
    @inline(__always)
    private func child(tagged target: SIMD16<UInt8>, from first: Int, head: UInt64, length: Int,
                       path: UnsafeRawPointer) -> Node? {
        let position = self.position(tagged: target, from: first, head: head, length: length, path: path)
        return position < 0 ? nil : indexedChild(at: position)
    }

    /// The position in the index of the child whose tag is `target` and whose label is the
    /// segment, searched in the index's blocks from offset `first` on; -1 when none is.
    @inline(__always)
    private func position(tagged target: SIMD16<UInt8>, from first: Int, head: UInt64, length: Int,
                          path: UnsafeRawPointer) -> Int {
        let tags = UnsafeRawPointer(base + Node.headerSize)
        let count = indexCount
        let tagBytes = LiteralChildren.tagBytes(count)
        var block = first
        while block < tagBytes {
            let blockTags = tags.loadUnaligned(fromByteOffset: LiteralChildren.tagOffset(block, count: count), as: SIMD16<UInt8>.self)
            var hits = LaneMask.of(blockTags .== target)
            while hits != 0 {
                let position = block &+ hits.trailingZeroBitCount
                if indexedChild(at: position).labelMatches(head: head, length: length, path: path) { return position }
                hits &= hits &- 1
            }
            block &+= LiteralChildren.tagBlock
        }
        return -1
    }

    /// The position in the index (a node that is not chunked) of the child labelled `label`, -1
    /// when there is none: the walk's search, for the editor.
    func indexPosition(ofLabel label: UnsafeBufferPointer<UInt8>) -> Int {
        guard let bytes = label.baseAddress else { return -1 }
        let head = SegmentHash.head(of: label)
        return position(tagged: SegmentHash.tagLanes(head: head, length: label.count), from: 0, head: head,
                        length: label.count, path: UnsafeRawPointer(bytes))
    }

    /// ``literalChild(in:start:end:readable:)`` through the chunks: 6 bits of the hash per level.
    /// Hashes the segment first (a small node needs no hash).
    @inline(never)
    private func chunkedChild(in bytes: UnsafePointer<UInt8>, start: Int, end: Int, readable: Int) -> Node? {
        let hash = SegmentHash.hash(bytes, from: start, end: end, readable: readable).hash
        let head = SegmentHash.head(bytes, from: start, end: end, readable: readable), length = end &- start
        let path = UnsafeRawPointer(bytes + start)
        return rootChunk.find(hash: hash) { Node($0).labelMatches(head: head, length: length, path: path) }
            .map(Node.init)
    }

    /// Whether this node's label is the segment of `length` bytes at `path` whose first word is
    /// `head`: its first word and length (all of a label of up to 8 bytes), then the rest.
    @inline(__always)
    func labelMatches(head: UInt64, length: Int, path: UnsafeRawPointer) -> Bool {
        guard labelHead == head && labelLength == length else { return false }
        return length <= 8 || restMatches(length: length, path: path)
    }

    /// Whether the bytes of a label longer than 8 after its first word are those at `path`: the
    /// last word (``labelTail``) first, from the header, then any whole words between, from the
    /// label's bytes (a label of more than 16 bytes).
    @inline(__always)
    private func restMatches(length: Int, path: UnsafeRawPointer) -> Bool {
        path.loadUnaligned(fromByteOffset: length &- 8, as: UInt64.self) == labelTail
            && (length <= 16 || ByteComparison.wordsBeforeLastEqual(path, UnsafeRawPointer(storedLabel), from: 8, length: length))
    }
}
