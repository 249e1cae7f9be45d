/// A published node of the lookup tree: one immutable block of memory (docs/ARCHITECTURE.md,
/// "The lookup tree").
///
/// The tree is a trie of whole segments: a node stands for one segment of a canonical path
/// (`/seg/seg...`) — a literal segment (its `label`), or one a dynamic edge or placeholder took
/// (no label) — and holds what may follow it, in the order a walk tries it (docs/SEMANTICS.md
/// §3.1): literal children (found by the next segment's hash, see ``LiteralChildren``), partial
/// segment and constraint edges, the plain-placeholder child, the routes that end here
/// (`terminals`) and the wildcards that take the rest (`wildcards`). A table's root stands for
/// the empty path.
///
/// Once published a node never changes: an update writes new versions of the nodes on its path
/// (see ``TreeEditor``), so a reader that loaded a root sees one consistent version. The block:
///
///     header (40 bytes)
///     literal children: a small node's index (tag bytes in blocks of 16, then 8 per child),
///                       a large node's root chunk (8)
///     parameter child (8, when there is one)
///     edges (24 each)
///     terminals, then wildcards (24 each)
///     label bytes, then at least 8 zero bytes (only for a label longer than 16 bytes: a shorter
///     one is all in ``labelHead`` and ``labelTail``)
///
/// In a large table the block starts a cache line (``BlockArena``'s regions), so the header and
/// the 24 bytes after it (the first block of tags and the first child's address, or a leaf's
/// whole terminal, see ``Terminal``) are one line: at a million routes, lines fetched are most of
/// a lookup's time. A small table's blocks come from the system allocator, 16-byte aligned: its
/// lines stay in the caches.
struct Node: BitwiseCopyable {
    /// The block's address. Nodes are compared by identity.
    let base: UnsafeMutableRawPointer

    @inline(__always) init(_ base: UnsafeMutableRawPointer) { self.base = base }

    // MARK: Header

    /// The best ``Terminal/key`` of every route in this subtree: a walk skips a subtree that
    /// cannot beat what it already holds. `Int64.min` when there is none.
    @inline(__always) var maxKey: Int64 { base.load(as: Int64.self) }
    /// The label's first word (``SegmentHash/head(_:from:end:readable:)``: all of a label of up to 8
    /// bytes, zero-padded): with ``labelLength``, one compare confirms a short segment.
    @inline(__always) var labelHead: UInt64 { base.load(fromByteOffset: 8, as: UInt64.self) }
    /// The 8 bytes that end a label longer than 8 bytes (they may overlap ``labelHead``), 0 for a
    /// shorter one: with the head, all of a label of up to 16 bytes, so a walk confirms such a
    /// segment in the header's line, without reading the label's bytes at the block's end.
    @inline(__always) var labelTail: UInt64 { base.load(fromByteOffset: 16, as: UInt64.self) }
    /// The label's length: a pattern is at most 8 KiB (``PatternParser/maxLength``), so 16 bits.
    @inline(__always) var labelLength: Int { Int(base.load(fromByteOffset: 24, as: UInt16.self)) }
    /// Literal children in the index (at most ``LiteralChildren/inlineLimit``); 0 for a chunked
    /// node, whose count is its root chunk's (see ``literalCount``).
    @inline(__always) var indexCount: Int { Int(base.load(fromByteOffset: 26, as: UInt16.self)) }
    /// Literal children, in the index or in the chunks.
    var literalCount: Int { isChunked ? rootChunk.count : indexCount }
    @inline(__always) var edgeCount: Int { Int(base.load(fromByteOffset: 28, as: UInt16.self)) }
    @inline(__always) var terminalCount: Int { Int(base.load(fromByteOffset: 30, as: UInt16.self)) }
    @inline(__always) var wildcardCount: Int { Int(base.load(fromByteOffset: 32, as: UInt16.self)) }
    /// True when the node has one terminal and no wildcard (the two counts in one load): the
    /// commonest end of a walk.
    @inline(__always) var hasOneTerminalOnly: Bool { base.loadUnaligned(fromByteOffset: 30, as: UInt32.self) == 1 }
    /// Bit 0: ``isLeafOnly``; bit 1: ``hasDynamic``; bit 2: ``hasParameter``; bit 3:
    /// ``isChunked``; bit 4: ``onlyParameter``; bit 5: ``isIndexed``; bit 6:
    /// ``hasSingleLiteral``; bit 7: ``hasOneTerminalPerMethod``. One load for all.
    @inline(__always) var flags: UInt8 { base.load(fromByteOffset: 34, as: UInt8.self) }
    /// True when the node has no literal child, edge, parameter child or wildcard: after it the
    /// URL must end.
    @inline(__always) var isLeafOnly: Bool { flags & Self.leafFlag != 0 }
    /// True when the node has edges, a parameter child or wildcards: a walk may branch here.
    @inline(__always) var hasDynamic: Bool { flags & Self.dynamicFlag != 0 }
    @inline(__always) var hasParameter: Bool { flags & Self.parameterFlag != 0 }
    /// True when the literal children are in chunks (more than ``LiteralChildren/inlineLimit``).
    @inline(__always) var isChunked: Bool { flags & Self.chunkedFlag != 0 }
    /// True when the node has literal children in an index (at least two, no more than
    /// ``LiteralChildren/inlineLimit``): the walk's test for its common search.
    @inline(__always) var isIndexed: Bool { flags & Self.indexedFlag != 0 }
    /// True when the node has exactly one literal child (in an index of one): the walk compares
    /// its label at once, with no tag to compute.
    @inline(__always) var hasSingleLiteral: Bool { flags & Self.singleLiteralFlag != 0 }
    /// True when the node's terminals (two or more) share one key, none has a host rule, and
    /// the node has no wildcard. The terminals then share their path's shape, and no two accept a
    /// method in common (they would be duplicates, docs/SEMANTICS.md §3.7): a lookup for one
    /// method ends here at one of them at most.
    @inline(__always) var hasOneTerminalPerMethod: Bool { flags & Self.oneTerminalPerMethodFlag != 0 }
    /// True when a placeholder child is the only dynamic branch (no edge, no wildcard): when no
    /// literal child takes the segment, a walk goes on to it without trying anything else.
    @inline(__always) var onlyParameter: Bool { flags & Self.onlyParameterFlag != 0 }
    /// What every terminal and wildcard of the node has in common (``noHostRuleTrait``): a
    /// lookup without a method accepts a lone route without a host rule without reading its
    /// shape (`Walker.atEnd`).
    @inline(__always) var terminalTraits: UInt8 { base.load(fromByteOffset: 35, as: UInt8.self) }
    /// Where the terminals start in the block; the edges end there.
    @inline(__always) private var terminalOffset: Int { Int(base.load(fromByteOffset: 36, as: UInt32.self)) }
    /// Where the label's bytes are: after the wildcards for a label longer than 16 bytes, else
    /// offset 8 (``labelHead``, all of a label of up to 8 bytes; one of 9 to 16 is in the header's
    /// two words, see ``withLabel(_:)``). Only the rare paths read them: a walk confirms a label
    /// of up to 16 bytes in the header.
    @inline(__always) private var labelOffset: Int {
        labelLength <= 16 ? 8 : terminalOffset &+ Self.terminalSize &* (terminalCount &+ wildcardCount)
    }

    static let headerSize = 40
    /// A cache line: where every region block starts (see above). It costs about 7 bytes a
    /// route at a million routes, against 8-byte alignment.
    static let blockAlignment = 64
    static let edgeSize = MemoryLayout<Edge>.stride
    static let terminalSize = MemoryLayout<Terminal>.stride
    static let leafFlag: UInt8 = 1, dynamicFlag: UInt8 = 2, parameterFlag: UInt8 = 4, chunkedFlag: UInt8 = 8,
               onlyParameterFlag: UInt8 = 16, indexedFlag: UInt8 = 32, singleLiteralFlag: UInt8 = 64,
               oneTerminalPerMethodFlag: UInt8 = 128
    /// ``terminalTraits``: no route of the node has a host rule.
    static let noHostRuleTrait: UInt8 = 1

    // MARK: Sections

    /// The label's bytes as stored: all of them for a label of up to 8 bytes or of more than 16
    /// (then a whole word may be loaded from any of them); for one of 9 to 16 bytes only the
    /// first 8 (see ``withLabel(_:)``).
    @inline(__always) var storedLabel: UnsafePointer<UInt8> { UnsafePointer((base + labelOffset).assumingMemoryBound(to: UInt8.self)) }

    /// Calls `body` with the label's bytes (``labelLength`` of them), whatever its length, then
    /// zero bytes to the end of the word after its last.
    @inline(__always)
    func withLabel<R>(_ body: (UnsafePointer<UInt8>) -> R) -> R {
        let length = labelLength
        guard length > 8 && length <= 16 else { return body(storedLabel) }
        // The head, then the bytes after it: the tail's last `length - 8` (little-endian words).
        var words = (labelHead, labelTail >> UInt64(8 * (16 - length)), UInt64(0))
        return withUnsafeBytes(of: &words) { body($0.baseAddress.unsafelyUnwrapped.assumingMemoryBound(to: UInt8.self)) }
    }
    @inline(__always) var edgeOffset: Int { terminalOffset &- Self.edgeSize &* edgeCount }
    @inline(__always) var parameterChild: Node {
        Node(base.load(fromByteOffset: edgeOffset &- 8, as: UnsafeMutableRawPointer.self))
    }
    /// ``parameterChild`` of a node with no edge (``onlyParameter``): right before the terminals.
    @inline(__always) var onlyParameterChild: Node {
        Node(base.load(fromByteOffset: terminalOffset &- 8, as: UnsafeMutableRawPointer.self))
    }
    @inline(__always) func edge(at index: Int) -> Edge { (base + (edgeOffset &+ Self.edgeSize &* index)).load(as: Edge.self) }
    /// Terminal `index`; the wildcards follow the terminals (index `terminalCount + i`).
    @inline(__always) func terminal(at index: Int) -> Terminal {
        (base + (terminalOffset &+ Self.terminalSize &* index)).load(as: Terminal.self)
    }
    /// Where terminal `index` lies in the block: valid as long as the block (while the reader
    /// that loaded it is inside its lookup).
    @inline(__always) func terminalAddress(at index: Int) -> UnsafePointer<Terminal> {
        UnsafePointer((base + (terminalOffset &+ Self.terminalSize &* index)).assumingMemoryBound(to: Terminal.self))
    }

    // MARK: Making and freeing

    /// Writes a new block. `label`: the literal segment the node stands for (empty for a root or
    /// a dynamic segment's node).
    /// `labelOf`: a published node whose label this one has (a node the editor thawed whole),
    /// copied from its block; `label` is then unused.
    static func make(label: UnsafeBufferPointer<UInt8>, labelOf: Node? = nil, literals: FrozenLiterals, parameter: Node?,
                     edges: UnsafeBufferPointer<Edge>, terminals: UnsafeBufferPointer<Terminal>,
                     wildcards: UnsafeBufferPointer<Terminal>, in arena: BlockArena) -> Node {
        let labelLength = labelOf?.labelLength ?? label.count
        let literalSize = literals.byteCount
        let terminalOffset = headerSize + literalSize + (parameter == nil ? 0 : 8) + edgeSize * edges.count
        let labelOffset = terminalOffset + terminalSize * (terminals.count + wildcards.count)
        // A label of up to 16 bytes is all in the header's words (``labelHead``, ``labelTail``).
        let storesLabel = labelLength > 16
        let size = labelOffset + (storesLabel ? (labelLength + 15) & ~7 : 0)
        precondition(edges.count <= Int(UInt16.max) && terminals.count <= Int(UInt16.max)
                     && wildcards.count <= Int(UInt16.max) && labelLength <= Int(UInt16.max)
                     && size <= Int(UInt32.max), "a tree node outgrew its header")
        let base = arena.allocate(byteCount: size)
        base.initializeMemory(as: UInt8.self, repeating: 0, count: size)
        var maxKey = literals.maxKey
        for terminal in terminals { maxKey = Swift.max(maxKey, terminal.key) }
        for terminal in wildcards { maxKey = Swift.max(maxKey, terminal.key) }
        if let parameter { maxKey = Swift.max(maxKey, parameter.maxKey) }
        for edge in edges { maxKey = Swift.max(maxKey, edge.child.maxKey) }
        base.storeBytes(of: maxKey, as: Int64.self)
        base.storeBytes(of: labelOf?.labelHead ?? SegmentHash.head(of: label), toByteOffset: 8, as: UInt64.self)
        base.storeBytes(of: labelOf?.labelTail ?? Self.tail(of: label), toByteOffset: 16, as: UInt64.self)
        base.storeBytes(of: UInt16(labelLength), toByteOffset: 24, as: UInt16.self)
        if case .chunked = literals {} else {
            base.storeBytes(of: UInt16(literals.count), toByteOffset: 26, as: UInt16.self)
        }
        base.storeBytes(of: UInt16(edges.count), toByteOffset: 28, as: UInt16.self)
        base.storeBytes(of: UInt16(terminals.count), toByteOffset: 30, as: UInt16.self)
        base.storeBytes(of: UInt16(wildcards.count), toByteOffset: 32, as: UInt16.self)
        let leaf = parameter == nil && literals.count == 0 && edges.isEmpty && wildcards.isEmpty
        let dynamic = parameter != nil || !edges.isEmpty || !wildcards.isEmpty
        var flags: UInt8 = leaf ? leafFlag : 0
        if dynamic { flags |= dynamicFlag }
        if parameter != nil { flags |= parameterFlag }
        if case .chunked = literals {
            flags |= chunkedFlag
        } else if literals.count == 1 {
            flags |= singleLiteralFlag
        } else if literals.count > 0 {
            flags |= indexedFlag
        }
        if parameter != nil && edges.isEmpty && wildcards.isEmpty { flags |= onlyParameterFlag }
        if wildcards.isEmpty && Self.haveOneTerminalPerMethod(terminals) { flags |= oneTerminalPerMethodFlag }
        base.storeBytes(of: flags, toByteOffset: 34, as: UInt8.self)
        base.storeBytes(of: traits(of: terminals) & traits(of: wildcards), toByteOffset: 35, as: UInt8.self)
        base.storeBytes(of: UInt32(terminalOffset), toByteOffset: 36, as: UInt32.self)
        literals.write(to: base + headerSize)
        var offset = headerSize + literalSize
        if let parameter {
            base.storeBytes(of: parameter.base, toByteOffset: offset, as: UnsafeMutableRawPointer.self)
            offset += 8
        }
        for edge in edges {
            base.storeBytes(of: edge, toByteOffset: offset, as: Edge.self)
            offset += edgeSize
        }
        for terminal in terminals {
            base.storeBytes(of: terminal, toByteOffset: offset, as: Terminal.self)
            offset += terminalSize
        }
        for terminal in wildcards {
            base.storeBytes(of: terminal, toByteOffset: offset, as: Terminal.self)
            offset += terminalSize
        }
        if storesLabel {
            if let labelOf {
                (base + labelOffset).copyMemory(from: labelOf.storedLabel, byteCount: labelLength)
            } else {
                (base + labelOffset).copyMemory(from: label.baseAddress.unsafelyUnwrapped, byteCount: label.count)
            }
        }
        return Node(base)
    }

    /// ``labelTail`` of `label`: its last 8 bytes when it is longer than 8, else 0.
    static func tail(of label: [UInt8]) -> UInt64 { label.withUnsafeBufferPointer { tail(of: $0) } }

    /// ``tail(of:)-([UInt8])`` of the bytes of `label`.
    static func tail(of label: UnsafeBufferPointer<UInt8>) -> UInt64 {
        guard label.count > 8 else { return 0 }
        return UnsafeRawPointer(label.baseAddress.unsafelyUnwrapped).loadUnaligned(fromByteOffset: label.count - 8, as: UInt64.self)
    }

    /// The ``terminalTraits`` every route of `routes` has (a node's: those of its terminals and
    /// of its wildcards, and-ed).
    static func traits(of routes: some Collection<Terminal>) -> UInt8 {
        routes.allSatisfy { $0.shape.pointee.hostRank == 0 } ? noHostRuleTrait : 0
    }

    /// Whether `terminals` earn ``hasOneTerminalPerMethod``: two or more, one key, no host rule.
    static func haveOneTerminalPerMethod(_ terminals: some Collection<Terminal>) -> Bool {
        guard let first = terminals.first, terminals.count > 1 else { return false }
        return terminals.allSatisfy { $0.key == first.key && $0.shape.pointee.hostRank == 0 }
    }

    /// Frees the block (not its children, nor its chunks) into `arena`, which it came from.
    /// Only after every reader that could reach it has left.
    func deallocate(in arena: BlockArena) { arena.deallocate(base) }

    // MARK: Reading back

    var labelBytes: [UInt8] { withLabel { Array(UnsafeBufferPointer(start: $0, count: labelLength)) } }
    /// The block's size, as ``make(label:literals:parameter:edges:terminals:wildcards:in:)`` wrote it.
    @inline(__always)
    var byteCount: Int {
        let end = terminalOffset &+ Self.terminalSize &* (terminalCount &+ wildcardCount)
        return labelLength > 16 ? end + (labelLength + 15) & ~7 : end
    }
    /// The hash of the label, computed from the block (see ``SegmentHash``).
    var labelHash: UInt64 {
        withLabel { SegmentHash.hash($0, from: 0, end: labelLength, readable: labelLength <= 8 ? 8 : (labelLength + 8) & ~7).hash }
    }
    var edgeList: [Edge] { (0..<edgeCount).map(edge(at:)) }
    var terminalList: [Terminal] { (0..<terminalCount).map(terminal(at:)) }
    var wildcardList: [Terminal] { (terminalCount..<(terminalCount + wildcardCount)).map(terminal(at:)) }
    /// Every child, in walk order (literal children in index or chunk order).
    var children: [Node] {
        literalList + edgeList.map(\.child) + (hasParameter ? [parameterChild] : [])
    }
}

/// A dynamic edge: a segment that a built-in constraint, a PCRE2 regex or a partial-segment
/// template must accept.
struct Edge: BitwiseCopyable {
    var child: Node
    /// The compiled regex (``CompiledRegex``) or template (``PartialTemplate``), unretained: the
    /// router keeps them alive while a route uses them. `nil` for a built-in constraint.
    var matcher: UnsafeRawPointer?
    /// A ``BuiltinCode``.
    var code: UInt8

    /// Partial segments rank above constraints (docs/SEMANTICS.md §3.1).
    var rank: SegmentRank { Self.rank(of: code) }
}

/// One expansion of one route, where its path ends (or where its wildcard starts): three words.
///
/// A leaf node is its 40-byte header and one terminal, 64 bytes: in a block that starts a cache
/// line (``Node``), the whole leaf is one line, and one size class of the tree's memory
/// (``BlockArena``). What is not read by a walk lives elsewhere: the priority in the shape, the
/// route's value behind ``result``.
@usableFromInline
struct Terminal: BitwiseCopyable {
    /// What this expansion shares with others of the same shape, its priority included (immortal).
    var shape: UnsafePointer<TerminalShape>
    /// What a lookup hands back. In a router whose routes carry no payload (every router of the
    /// C ABI) the route id; in one whose routes do (``Router``'s), the payload, whose first word
    /// is the route id (``RouteValues``). A router's routes all carry one or none
    /// (``RouterCore/holdsPayloads``).
    var result: UInt64
    /// Registration order of the route: earlier routes win ties. Expansions of one route share it.
    var sequence: UInt64

    /// A terminal for a route with `routeID` and `payload` (`nil` through the C ABI).
    init(shape: UnsafePointer<TerminalShape>, routeID: UInt64, payload: UnsafeMutableRawPointer?, sequence: UInt64) {
        self.shape = shape
        result = payload.map { UInt64(UInt(bitPattern: $0)) } ?? routeID
        self.sequence = sequence
    }

    /// The payload of a route of a router whose routes carry one.
    @inline(__always) var payload: UnsafeMutableRawPointer { UnsafeMutableRawPointer(bitPattern: UInt(result)).unsafelyUnwrapped }

    /// The route id, which a payload holds as its first word (``RouteValues``). While the
    /// reader holds the payload (``ReaderSlot``), or under the writer lock.
    @inline(__always)
    func routeID(payloads: Bool) -> UInt64 { payloads ? payload.load(as: UInt64.self) : result }

    /// Priority, then host rank: the part of the order (docs/SEMANTICS.md §3.1) that decides
    /// before the path, as one comparable number.
    @inline(__always) var key: Int64 { shape.pointee.key }
}

/// What a route expansion shares with every other of the same shape: its parameter names, its
/// segment ranks (for precedence), its host rule, its methods and its place among its route's
/// expansions.
/// Interned and immortal, like parameter names (see ``NameTable``), so a terminal holds one
/// pointer and a reader may keep it after the route is removed.
struct TerminalShape {
    var layout: UnsafePointer<NameTable.LayoutEntry>
    /// Parameters, in pattern order: path placeholders and partial-segment pieces, then the
    /// wildcard. A walk records one capture per parameter.
    var nameCount: Int
    /// ``SegmentRank`` of each path segment, then of the tail (`end` or `wildcard`).
    var ranks: UnsafePointer<UInt8>
    var rankCount: Int
    /// Lower-cased host rule bytes (a suffix rule keeps its leading dot); `nil` for any host.
    var host: UnsafePointer<UInt8>?
    var hostLength: Int
    /// ``HostRule/rank``: 2 exact, 1 suffix, 0 any.
    var hostRank: UInt8
    var expansion: UInt16
    var endsWithWildcard: Bool
    /// ``MethodSet/isAny``: the route accepts every method.
    var anyMethod: Bool
    /// ``MethodSet/mask``: a bit per method the route accepts (every bit for any method), in the
    /// numbering of its router's ``MethodTable``.
    var methods: UInt64
    /// Priority, then host rank (``hostRank``), as one comparable number (``Terminal/key``):
    /// one load where a walk compares candidates.
    var key: Int64
    /// The route's priority.
    var priority: Int32 { Int32(truncatingIfNeeded: key >> 2) }

    /// Whether the route names the method of `bit` (a route for any method names every one,
    /// even a method the router has never seen, whose bit is 0).
    @inline(__always)
    func names(_ bit: UInt64) -> Bool {
        anyMethod || methods & bit != 0
    }

    /// The rank of segment `index`, or of the tail past it.
    @inline(__always)
    func rank(at index: Int) -> UInt8 {
        index < rankCount ? ranks[index] : SegmentRank.wildcard.rawValue
    }
}
