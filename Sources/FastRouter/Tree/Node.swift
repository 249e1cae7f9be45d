
/// A published node of the lookup tree: one immutable block of memory (docs/ARCHITECTURE.md,
/// "The lookup tree").
///
/// The tree is a radix tree over the bytes of a canonical path (`/seg/seg...`). A node holds
/// a literal `prefix` the URL must continue with, then what may follow it, in the order a walk
/// tries them (docs/SEMANTICS.md §3.1): literal children (by their first byte), partial-segment
/// and constraint edges, the plain-placeholder child, and the routes ending here. A node whose
/// prefix ends a segment holds the routes that end there (`terminals`) and the wildcards that
/// take the rest (`wildcards`); a node whose prefix ends with `/` (or a table root) holds the
/// dynamic edges for the segment that starts there.
///
/// Once published a node never changes: an update writes new versions of the nodes on its path
/// (see ``TreeEditor``), so a reader that loaded a root sees one consistent version. The block:
///
///     header (32 bytes)
///     parameter child (8, when there is one)
///     literal children (8 each)
///     edges (24 each)
///     terminals, then wildcards (40 each)
///     first bytes of the literal children (1 each)
///     prefix bytes, then 16 zero bytes (word and 16-byte loads never leave the block)
struct Node: BitwiseCopyable {
    /// The block's address. Nodes are compared by identity.
    let base: UnsafeMutableRawPointer

    @inline(__always) init(_ base: UnsafeMutableRawPointer) { self.base = base }

    // MARK: Header

    /// The best ``Terminal/key`` of every route in this subtree: a walk skips a subtree that
    /// cannot beat what it already holds. `Int64.min` when there is none.
    @inline(__always) var maxKey: Int64 { base.load(as: Int64.self) }
    @inline(__always) var prefixLength: Int { Int(base.load(fromByteOffset: 8, as: UInt32.self)) }
    @inline(__always) var staticCount: Int { Int(base.load(fromByteOffset: 12, as: UInt16.self)) }
    @inline(__always) var edgeCount: Int { Int(base.load(fromByteOffset: 14, as: UInt16.self)) }
    @inline(__always) var terminalCount: Int { Int(base.load(fromByteOffset: 16, as: UInt16.self)) }
    @inline(__always) var wildcardCount: Int { Int(base.load(fromByteOffset: 18, as: UInt16.self)) }
    /// Number of `/` from the table root through the end of this node's prefix: the segment a
    /// dynamic edge here consumes has index `slashes - 1`.
    @inline(__always) var slashes: Int { Int(base.load(fromByteOffset: 20, as: UInt16.self)) }
    @inline(__always) var hasParameter: Bool { base.load(fromByteOffset: 22, as: UInt8.self) != 0 }
    /// True when the node has no literal child, edge, parameter child or wildcard: after its
    /// prefix the URL must end.
    @inline(__always) var isLeafOnly: Bool { base.load(fromByteOffset: 23, as: UInt8.self) & 1 != 0 }
    /// Bit 0: ``isLeafOnly``; bit 1: ``hasDynamic``. One load for both.
    @inline(__always) var flags: UInt8 { base.load(fromByteOffset: 23, as: UInt8.self) }
    /// True when the node has edges, a parameter child or wildcards: a walk may branch here.
    @inline(__always) var hasDynamic: Bool { base.load(fromByteOffset: 23, as: UInt8.self) & 2 != 0 }
    /// Where the prefix bytes start in the block (the literal children's first bytes end there).
    @inline(__always) private var prefixOffset: Int { Int(base.load(fromByteOffset: 24, as: UInt32.self)) }
    /// Where the terminals start in the block.
    @inline(__always) private var terminalOffset: Int { Int(base.load(fromByteOffset: 28, as: UInt32.self)) }

    static let headerSize = 32
    static let edgeSize = MemoryLayout<Edge>.stride
    static let terminalSize = MemoryLayout<Terminal>.stride

    // MARK: Sections

    @inline(__always) var parameterChild: Node { Node(base.load(fromByteOffset: Self.headerSize, as: UnsafeMutableRawPointer.self)) }
    @inline(__always) private var staticOffset: Int { Self.headerSize &+ (hasParameter ? 8 : 0) }
    @inline(__always) func staticChild(at index: Int) -> Node {
        Node((base + (staticOffset &+ 8 &* index)).load(as: UnsafeMutableRawPointer.self))
    }
    @inline(__always) private var edgeOffset: Int { staticOffset &+ 8 &* staticCount }
    @inline(__always) func edge(at index: Int) -> Edge { (base + (edgeOffset &+ Self.edgeSize &* index)).load(as: Edge.self) }
    @inline(__always) private var computedTerminalOffset: Int { edgeOffset &+ Self.edgeSize &* edgeCount }
    /// Terminal `index`; the wildcards follow the terminals (index `terminalCount + i`).
    @inline(__always) func terminal(at index: Int) -> Terminal {
        (base + (terminalOffset &+ Self.terminalSize &* index)).load(as: Terminal.self)
    }
    @inline(__always) private var firstByteOffset: Int { prefixOffset &- staticCount }
    @inline(__always) var firstBytes: UnsafePointer<UInt8> { UnsafePointer((base + firstByteOffset).assumingMemoryBound(to: UInt8.self)) }
    @inline(__always) var prefix: UnsafePointer<UInt8> { UnsafePointer((base + prefixOffset).assumingMemoryBound(to: UInt8.self)) }

    /// The literal child whose prefix starts with `byte`, if any: sixteen first bytes compared
    /// at once (the block has room for a whole load past them, see ``make``).
    @inline(__always)
    func staticChild(startingWith byte: UInt8) -> Node? {
        let count = staticCount
        let bytes = UnsafeRawPointer(firstBytes)
        var start = 0
        while start < count {
            let block = bytes.loadUnaligned(fromByteOffset: start, as: SIMD16<UInt8>.self)
            var hits = LaneMask.of(block .== SIMD16(repeating: byte))
            let left = count &- start
            if left < 16 { hits &= (1 &<< UInt32(truncatingIfNeeded: left)) &- 1 }
            if hits != 0 { return staticChild(at: start &+ hits.trailingZeroBitCount) }
            start &+= 16
        }
        return nil
    }


    // MARK: Making and freeing

    /// Writes a new block. `slashes` counts the `/` from the table root through `prefix`.
    static func make(prefix: [UInt8], slashes: Int, parameter: Node?, statics: [Node], edges: [Edge],
                     terminals: [Terminal], wildcards: [Terminal]) -> Node {
        let size = headerSize + (parameter == nil ? 0 : 8) + 8 * statics.count + edgeSize * edges.count
            + terminalSize * (terminals.count + wildcards.count) + statics.count + prefix.count + 16
        precondition(statics.count <= 256 && edges.count <= Int(UInt16.max) && terminals.count <= Int(UInt16.max)
                     && wildcards.count <= Int(UInt16.max) && slashes <= Int(UInt16.max) && size <= Int(UInt32.max),
                     "a tree node outgrew its header")
        let base = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 8)
        base.initializeMemory(as: UInt8.self, repeating: 0, count: size)
        var maxKey = Int64.min
        for terminal in terminals { maxKey = Swift.max(maxKey, terminal.key) }
        for terminal in wildcards { maxKey = Swift.max(maxKey, terminal.key) }
        if let parameter { maxKey = Swift.max(maxKey, parameter.maxKey) }
        for child in statics { maxKey = Swift.max(maxKey, child.maxKey) }
        for edge in edges { maxKey = Swift.max(maxKey, edge.child.maxKey) }
        base.storeBytes(of: maxKey, as: Int64.self)
        base.storeBytes(of: UInt32(prefix.count), toByteOffset: 8, as: UInt32.self)
        base.storeBytes(of: UInt16(statics.count), toByteOffset: 12, as: UInt16.self)
        base.storeBytes(of: UInt16(edges.count), toByteOffset: 14, as: UInt16.self)
        base.storeBytes(of: UInt16(terminals.count), toByteOffset: 16, as: UInt16.self)
        base.storeBytes(of: UInt16(wildcards.count), toByteOffset: 18, as: UInt16.self)
        base.storeBytes(of: UInt16(slashes), toByteOffset: 20, as: UInt16.self)
        base.storeBytes(of: parameter == nil ? 0 : 1, toByteOffset: 22, as: UInt8.self)
        let leaf = parameter == nil && statics.isEmpty && edges.isEmpty && wildcards.isEmpty
        let dynamic = parameter != nil || !edges.isEmpty || !wildcards.isEmpty
        base.storeBytes(of: (leaf ? 1 : 0) | (dynamic ? 2 : 0), toByteOffset: 23, as: UInt8.self)
        let staticOffset = headerSize + (parameter == nil ? 0 : 8)
        let terminalOffset = staticOffset + 8 * statics.count + edgeSize * edges.count
        let prefixOffset = terminalOffset + terminalSize * (terminals.count + wildcards.count) + statics.count
        base.storeBytes(of: UInt32(prefixOffset), toByteOffset: 24, as: UInt32.self)
        base.storeBytes(of: UInt32(terminalOffset), toByteOffset: 28, as: UInt32.self)
        let node = Node(base)
        assert(node.computedTerminalOffset == terminalOffset)
        if let parameter { base.storeBytes(of: parameter.base, toByteOffset: headerSize, as: UnsafeMutableRawPointer.self) }
        for (index, child) in statics.enumerated() {
            base.storeBytes(of: child.base, toByteOffset: node.staticOffset + 8 * index, as: UnsafeMutableRawPointer.self)
            base.storeBytes(of: child.prefix[0], toByteOffset: node.firstByteOffset + index, as: UInt8.self)
        }
        for (index, edge) in edges.enumerated() {
            base.storeBytes(of: edge, toByteOffset: node.edgeOffset + edgeSize * index, as: Edge.self)
        }
        for (index, terminal) in terminals.enumerated() {
            base.storeBytes(of: terminal, toByteOffset: terminalOffset + terminalSize * index, as: Terminal.self)
        }
        for (index, terminal) in wildcards.enumerated() {
            base.storeBytes(of: terminal, toByteOffset: terminalOffset + terminalSize * (terminals.count + index),
                            as: Terminal.self)
        }
        for (index, byte) in prefix.enumerated() { base.storeBytes(of: byte, toByteOffset: prefixOffset + index, as: UInt8.self) }
        return node
    }

    /// Frees the block (not its children). Only after every reader that could reach it has left.
    func deallocate() { base.deallocate() }

    // MARK: Reading back

    var prefixBytes: [UInt8] { Array(UnsafeBufferPointer(start: prefix, count: prefixLength)) }
    var staticList: [Node] { (0..<staticCount).map(staticChild(at:)) }
    var edgeList: [Edge] { (0..<edgeCount).map(edge(at:)) }
    var terminalList: [Terminal] { (0..<terminalCount).map(terminal(at:)) }
    var wildcardList: [Terminal] { (terminalCount..<(terminalCount + wildcardCount)).map(terminal(at:)) }
    /// Every child, in walk order.
    var children: [Node] {
        staticList + edgeList.map(\.child) + (hasParameter ? [parameterChild] : [])
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

/// One expansion of one route, where its path ends (or where its wildcard starts).
@usableFromInline
struct Terminal: BitwiseCopyable {
    @usableFromInline var routeID: UInt64
    /// Registration order of the route: earlier routes win ties.
    var sequence: UInt64
    /// Opaque per-route payload (the Swift router's value box); never read by the tree.
    var payload: UnsafeMutableRawPointer?
    /// What this expansion shares with others of the same shape (immortal).
    var shape: UnsafePointer<TerminalShape>
    var priority: Int32
    /// Index of the route in the router's ``RouteStore``.
    var record: UInt32

    /// Priority, then host rank: the part of the order (docs/SEMANTICS.md §3.1) that decides
    /// before the path, as one comparable number.
    @inline(__always) var key: Int64 { Int64(priority) &<< 2 | Int64(shape.pointee.hostRank) }
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
