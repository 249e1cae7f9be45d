/// How a writer changes the tree without touching a published node (docs/SEMANTICS.md §3.5).
///
/// An editor starts from the published roots. Before it changes a node it *thaws* it: copies it
/// into an ``EditNode`` and notes the published block as replaced. Everything else stays shared
/// with the published version. A large node's literal children are thawed one chunk at a time
/// (see ``LiteralChildren``): an add copies the chunks on its hash's path, never the fan-out.
/// ``freeze(into:)`` then writes the changed nodes and chunks as new blocks, bottom-up, and returns
/// the new roots; the caller publishes them with one atomic store and, after the readers' grace
/// period, frees the replaced blocks. An editor that is dropped (a duplicate found half-way
/// through a batch) has changed nothing anyone can see.
///
/// Single adds, removals and batches all go through here, and the tree's shape depends only on
/// the routes it holds, never on their order: a node per segment, nodes without routes below them
/// dropped, literal children indexed or chunked by their count alone (see ``LiteralChildren``).
///
/// Edited nodes live in ``nodes`` (and chunks in ``chunks``) and children name them by index, so
/// a child is a plain value: thawing a node with many children copies words, with no reference
/// counting.
struct TreeEditor {
    /// Every table's root: the global table's first.
    var roots: [(scheme: [UInt8]?, root: EditChild)]
    /// The nodes being edited, the first ``nodeCount`` of them; ``EditChild/editing(_:)``
    /// indexes them. The rest are those of earlier edits, kept for their arrays' room: a node
    /// taken again is emptied, not made, so a single add allocates nothing for its nodes.
    var nodes = WriterBuffer<EditNode>()
    private(set) var nodeCount = 0
    /// The chunks being edited, the first ``chunkCount`` of them, kept as ``nodes`` are;
    /// ``EditChunkRef/editing(_:)`` indexes them (see TreeEditor+Chunks.swift).
    var chunks = WriterBuffer<EditChunk>()
    var chunkCount = 0
    /// The words patched copies replace (see TreeEditor+Patches.swift); each node and chunk
    /// links its own.
    var patches = WriterBuffer<BlockPatch>()
    /// Published blocks (nodes and chunks) this edit replaces, to free after the grace period.
    var replaced = WriterBuffer<UnsafeMutableRawPointer>()
    /// Blocks (nodes and chunks) ``freeze(into:)`` wrote.
    var written = 0
    /// The global table's static routes this edit added or removed, as their labels: the paths
    /// whose nodes (and their prefixes' nodes) ``StaticPaths`` must look up again.
    var staticEdits: [[[UInt8]]] = []
    /// Routes with a dynamic segment or a wildcard this edit added to the global table, less
    /// those it removed (see ``TableRoots/dynamicRoutes``).
    var dynamicDelta = 0
    /// Whether the published version has a ``StaticPaths`` map, which this edit's static paths
    /// must then be looked up for again.
    private var keepsStaticPaths = false
    /// ``EditNode/frozen``'s values before a node is written and for a node left without routes.
    static let notFrozen: UInt = 0
    static let dropped: UInt = 1
    /// The new roots ``freeze(into:)`` wrote (the global table's first), in a list kept for its
    /// room.
    private(set) var frozenRoots: [(scheme: [UInt8]?, root: Node)] = []
    /// During ``freeze(into:)``: where the new blocks go.
    /// Unretained: the caller's argument outlives the call, and a retained reference read from
    /// `self` would be retained again around each use (a few per node).
    private var arena: Unmanaged<BlockArena>?
    /// The frozen literal children, edges and routes of the node being written
    /// (``freezeNode(_:isRoot:)``), reused from node to node.
    var frozenLiterals = WriterBuffer<(head: UInt64, node: Node)>()
    private var frozenEdges = WriterBuffer<Edge>()
    private var frozenRoutes = WriterBuffer<Terminal>()

    /// An editor for no tables yet: ``begin(_:)`` gives it some. The writer keeps one between
    /// changes (``WriterState/editor``), so that a single add does not grow its buffers
    /// from nothing.
    init() { roots = [] }

    /// Starts an edit of `tables`; the editor must be new or ended (``end()``).
    @inline(__always)
    mutating func begin(_ tables: TableRoots) {
        keepsStaticPaths = tables.dynamicRoutes == 0
        roots.append((nil, .published(tables.global)))
        for index in 0..<tables.schemeCount {
            let entry = tables.scheme(at: index)
            roots.append((Array(UnsafeBufferPointer(start: entry.name, count: entry.nameLength)), .published(entry.root)))
        }
    }

    /// Makes room for `count` edited nodes.
    mutating func reserveNodes(_ count: Int) { nodes.reserveCapacity(count) }

    /// Whether the edit has removed a route (``remove(_:sequence:)``): until then no copy's
    /// child can come out empty or with a lower key (``copyStaysValid(_:)``).
    private(set) var removes = false

    /// Forgets the edit (published or dropped), keeping the buffers' room for the next.
    @inline(__always)
    mutating func end() {
        removes = false
        roots.clearKeepingCapacity()
        nodeCount = 0
        chunkCount = 0
        patches.removeAll()
        replaced.removeAll()
        staticEdits.clearKeepingCapacity()
        written = 0
        dynamicDelta = 0
    }

    // MARK: Thawing

    /// A new edited node. Its label shares `label`'s buffer (a step's, from the parsed pattern):
    /// no copy, and nothing to allocate.
    @inline(__always)
    mutating func makeNode(label: [UInt8]) -> Int {
        let index = takeNode()
        nodes[index].emptyLists()
        nodes[index].label = label
        return index
    }

    /// The next node, empty but for its lists (which only a node without a ``EditNode/source``
    /// reads: ``makeNode(label:)`` and ``materialize(_:)`` empty them): one left by an earlier
    /// edit, or a new one. Most nodes an edit takes are patched copies, which never use them.
    @inline(__always)
    mutating func takeNode() -> Int {
        if nodeCount == nodes.count { nodes.append(EditNode()) } else { nodes[nodeCount].emptyFields() }
        nodeCount += 1
        return nodeCount - 1
    }

    /// The edited node behind `child`, thawed first (as a patched copy, see
    /// TreeEditor+Patches.swift) when it is a published block.
    mutating func editable(_ child: inout EditChild) -> Int {
        switch child {
        case .editing(let index):
            return index
        case .published(let node):
            let copy = patchedCopy(of: node)
            child = .editing(copy)
            return copy
        }
    }

    /// The label of a child, published or edited.
    func label(of child: EditChild) -> [UInt8] {
        switch child {
        case .published(let node): return node.labelBytes
        case .editing(let index): return nodes[index].labelNode?.labelBytes ?? nodes[index].label
        }
    }

    /// The index of the table of `scheme` (`nil`: global), created when `create` is set.
    private mutating func tableIndex(_ scheme: String?, create: Bool) -> Int? {
        guard let scheme else { return 0 }
        let bytes = Array(scheme.utf8)
        if let index = roots.firstIndex(where: { $0.scheme == bytes }) { return index }
        guard create else { return nil }
        roots.append((bytes, .editing(makeNode(label: []))))
        return roots.count - 1
    }

    // MARK: Adding and removing

    /// Adds one expansion of a route. Returns `false`, changing nothing readers can see, when a
    /// route with the same ``DuplicateKey`` and an overlapping method set is there already.
    mutating func add(_ variant: borrowing RouteVariant, _ terminal: Terminal) -> Bool {
        let table = tableIndex(variant.table, create: true)!
        var root = roots[table].root
        let (index, isWildcard) = path(in: &root, for: variant, creating: true)!
        roots[table].root = root
        materialize(index)
        let shape = terminal.shape.pointee
        let existing = isWildcard ? nodes[index].wildcards : nodes[index].terminals
        for other in existing where other.shape.pointee.key == shape.key && Self.sameHost(other.shape.pointee, shape)
            && Self.sameMethods(other.shape.pointee, shape) {
            return false
        }
        if isWildcard { nodes[index].wildcards.append(terminal) } else { nodes[index].terminals.append(terminal) }
        if table == 0 { note(variant, added: true) }
        return true
    }

    /// Notes an expansion of the global table added or removed, for ``StaticPaths``: a static
    /// one's labels only while the table has a map to keep (with dynamic routes there is none,
    /// and one is rebuilt from the tree if they all go).
    @inline(__always)
    private mutating func note(_ variant: borrowing RouteVariant, added: Bool) {
        let isStatic = variant.isStatic
        guard isStatic else {
            dynamicDelta += added ? 1 : -1
            return
        }
        // Past the refresh limit the map is rebuilt from the tree, whatever the edits were: one
        // more than the limit says so (a batch of a million static routes lists no more).
        guard keepsStaticPaths, staticEdits.count <= StaticPathsEditor.refreshLimit else { return }
        staticEdits.append((0..<variant.segments.count).compactMap { index in
            if case .literal(let label) = variant.step(at: index) { return label }
            return nil
        })
    }

    /// Removes the expansion that `variant` describes of the route registered `sequence`-th
    /// (its record's ``RouteStore/Record/sequence``); returns its terminal.
    @discardableResult
    mutating func remove(_ variant: RouteVariant, sequence: UInt64) -> Terminal? {
        removes = true
        guard let table = tableIndex(variant.table, create: false) else { return nil }
        var root = roots[table].root
        let found = path(in: &root, for: variant, creating: false)
        roots[table].root = root
        guard let (index, isWildcard) = found else { return nil }
        materialize(index)
        let expansion = UInt16(variant.expansion)
        func take(_ list: inout [Terminal]) -> Terminal? {
            guard let position = list.firstIndex(where: { $0.sequence == sequence && $0.shape.pointee.expansion == expansion })
            else { return nil }
            return list.remove(at: position)
        }
        let removed = isWildcard ? take(&nodes[index].wildcards) : take(&nodes[index].terminals)
        if removed != nil && table == 0 { note(variant, added: false) }
        return removed
    }

    /// Whether two routes of one path accept a method in common (docs/SEMANTICS.md §3.7).
    private static func sameMethods(_ lhs: TerminalShape, _ rhs: TerminalShape) -> Bool {
        MethodSet(mask: lhs.methods, isAny: lhs.anyMethod).overlaps(MethodSet(mask: rhs.methods, isAny: rhs.anyMethod))
    }

    private static func sameHost(_ lhs: TerminalShape, _ rhs: TerminalShape) -> Bool {
        guard lhs.hostRank == rhs.hostRank, lhs.hostLength == rhs.hostLength else { return false }
        guard let left = lhs.host, let right = rhs.host else { return lhs.host == nil && rhs.host == nil }
        return ByteComparison.equal(left, right, lhs.hostLength, folded: false)
    }

    /// The node where `variant`'s path ends and whether it ends in a wildcard, thawing every
    /// node on the way; `nil` when `creating` is off and the path is absent.
    private mutating func path(in root: inout EditChild, for variant: borrowing RouteVariant,
                               creating: Bool) -> (Int, Bool)? {
        var index = editable(&root)
        for position in 0..<variant.stepCount {
            switch variant.step(at: position) {
            case .literal(let label):
                guard let reached = literalChild(of: index, label, creating: creating) else { return nil }
                index = reached
            case .parameter:
                if nodes[index].source != nil {
                    if let reached = patchedParameterChild(of: index) {
                        index = reached
                        continue
                    }
                    guard creating else { return nil }
                    materialize(index)
                }
                if nodes[index].parameter == nil {
                    guard creating else { return nil }
                    nodes[index].parameter = .editing(makeNode(label: []))
                }
                var child = nodes[index].parameter!
                let reached = editable(&child)
                nodes[index].parameter = child
                index = reached
            case .edge(let code, let matcher):
                if nodes[index].source != nil {
                    if let reached = patchedEdgeChild(of: index, code: code, matcher: matcher) {
                        index = reached
                        continue
                    }
                    guard creating else { return nil }
                    materialize(index)
                }
                var at = nodes[index].edges.firstIndex { $0.code == code && $0.matcher == matcher }
                if at == nil {
                    guard creating else { return nil }
                    // Partial segments before constraints; within a rank, in order of arrival.
                    let rank = Edge.rank(of: code)
                    let insertion = nodes[index].edges.firstIndex { Edge.rank(of: $0.code).rawValue < rank.rawValue }
                        ?? nodes[index].edges.count
                    let fresh = makeNode(label: [])
                    nodes[index].edges.insert((code, matcher, .editing(fresh)), at: insertion)
                    at = insertion
                }
                var child = nodes[index].edges[at!].child
                let reached = editable(&child)
                nodes[index].edges[at!].child = child
                index = reached
            case .wildcard:
                return (index, true)
            case .end:
                return (index, false)
            }
        }
        return (index, false)
    }

    /// The edited literal child of node `index` for `label` (thawed, or made when `creating`).
    private mutating func literalChild(of index: Int, _ label: [UInt8], creating: Bool) -> Int? {
        if nodes[index].source != nil {
            if let reached = patchedLiteralChild(of: index, label) { return reached }
            guard creating else { return nil }
            if let inserted = insertLiteral(label, into: index) { return inserted }
            materialize(index)
        }
        if var root = nodes[index].literals.root {
            // Hashed only here: a small node finds and orders its children by their labels.
            let hash = SegmentHash.of(label)
            // Found through copies of the chunks on the hash's path; thawed whole only to insert.
            if case .published(let chunk) = root { root = .editing(patchedCopy(of: chunk, level: 0)) }
            nodes[index].literals.root = root
            if let found = patchedChild(label, hash: hash, inChunk: root.editingIndex) { return found }
            guard creating else { return nil }
            let fresh = makeNode(label: label)
            insert(.editing(fresh), hash: hash, into: &root, level: 0)
            nodes[index].literals.root = root
            return fresh
        }
        let head = SegmentHash.head(of: label)
        var position = 0
        while position < nodes[index].literals.list.count && precedes(nodes[index].literals.list[position], head, label) {
            position += 1
        }
        if position < nodes[index].literals.list.count && nodes[index].literals.list[position].head == head
            && labelEquals(nodes[index].literals.list[position].child, label) {
            var child = nodes[index].literals.list[position].child
            let reached = editable(&child)
            nodes[index].literals.list[position].child = child
            return reached
        }
        guard creating else { return nil }
        let fresh = makeNode(label: label)
        nodes[index].literals.list.insertTrivially((head, .editing(fresh)), at: position)
        if nodes[index].literals.list.count > LiteralChildren.inlineLimit {
            // One more than an index holds: into chunks, by their labels' hashes.
            var root = EditChunkRef.editing(makeChunk(level: 0))
            for entry in nodes[index].literals.list { insert(entry.child, hash: hash(of: entry.child), into: &root, level: 0) }
            nodes[index].literals.list.clearKeepingCapacity()
            nodes[index].literals.root = root
        }
        return fresh
    }

    /// Whether `entry` sorts before a child with first word `head` and `label` in an index (see
    /// ``EditLiterals/list``).
    func precedes(_ entry: (head: UInt64, child: EditChild), _ head: UInt64, _ label: [UInt8]) -> Bool {
        if entry.head != head { return entry.head < head }
        return self.label(of: entry.child).lexicographicallyPrecedes(label)
    }

    // MARK: Freezing

    /// Writes every edited node as a new block, and the new roots into ``frozenRoots``. Nodes left
    /// without routes are dropped, so the result has the same shape whatever the order of the
    /// edits.
    mutating func freeze(into arena: BlockArena) {
        self.arena = Unmanaged.passUnretained(arena)
        defer { self.arena = nil }
        // The last edit's list, emptied: its room serves this one.
        frozenRoots.clearKeepingCapacity()
        for position in roots.indices {
            if case .editing(let index) = roots[position].root { nodes[index].isTableRoot = true }
        }
        // Every edited node was made after its parent (an edit walks down from a root, taking
        // each node it changes on its way), so one sweep from the last made to the first freezes
        // every child before its parent, reading the nodes in order rather than chasing them
        // down the tree (a large batch edits over a million).
        for index in stride(from: nodeCount - 1, through: 0, by: -1) {
            let node = freezeNode(index, isRoot: nodes[index].isTableRoot)
            nodes[index].frozen = node.map { UInt(bitPattern: $0.base) } ?? Self.dropped
        }
        for position in roots.indices {
            let root = roots[position].root
            let node: Node
            switch root {
            case .published(let published): node = published
            case .editing(let index): node = frozenNode(index)!
            }
            // A scheme table left empty is dropped; the global table always has a root.
            if position > 0 && node.isEmptyRoot {
                switch root {
                case .editing: node.deallocate(in: arena)
                case .published(let published): replaced.append(published.base)
                }
                continue
            }
            frozenRoots.append((roots[position].scheme, node))
        }
    }

    /// During ``freeze(into:)``: where the new blocks go.
    var blockArena: BlockArena { arena.unsafelyUnwrapped.takeUnretainedValue() }

    /// Allocates a block during ``freeze(into:)``.
    func allocateBlock(byteCount: Int) -> UnsafeMutableRawPointer {
        arena.unsafelyUnwrapped._withUnsafeGuaranteedRef { $0.allocate(byteCount: byteCount) }
    }

    /// The frozen block of edited node `index` (see ``freeze(into:)``), `nil` when it was left
    /// without routes.
    @inline(__always)
    func frozenNode(_ index: Int) -> Node? {
        let bits = nodes[index].frozen
        precondition(bits != Self.notFrozen, "a child is frozen before its parent")
        return bits == Self.dropped ? nil : Node(UnsafeMutableRawPointer(bitPattern: bits).unsafelyUnwrapped)
    }

    /// The frozen block of `child`: the published one, or ``frozenNode(_:)``.
    func freezeChild(_ child: EditChild) -> Node? {
        switch child {
        case .published(let node): return node
        case .editing(let index): return frozenNode(index)
        }
    }

    private mutating func freezeNode(_ index: Int, isRoot: Bool) -> Node? {
        if nodes[index].source != nil {
            if copyStaysValid(index) { return writeCopy(ofNode: index) }
            materialize(index)
        }
        let literals = freezeLiterals(of: index)
        let parameter = nodes[index].parameter.flatMap { freezeChild($0) }
        frozenEdges.removeAll()
        for position in 0..<nodes[index].edges.count {
            let entry = nodes[index].edges[position]
            if let child = freezeChild(entry.child) {
                frozenEdges.append(Edge(child: child, matcher: entry.matcher, code: entry.code))
            }
        }
        let empty = nodes[index].terminals.isEmpty && nodes[index].wildcards.isEmpty && parameter == nil && frozenEdges.count == 0
            && literals.count == 0
        if !isRoot && empty { return nil }
        written += 1
        // The routes copied into the editor's buffer, terminals then wildcards: lending the
        // node's own lists would retain and release each (a node has a route or two).
        frozenRoutes.removeAll()
        for position in 0..<nodes[index].terminals.count { frozenRoutes.append(nodes[index].terminals[position]) }
        let terminalCount = frozenRoutes.count
        for position in 0..<nodes[index].wildcards.count { frozenRoutes.append(nodes[index].wildcards[position]) }
        let routes = frozenRoutes.elements
        let terminals = UnsafeBufferPointer(rebasing: routes[..<terminalCount])
        let wildcards = UnsafeBufferPointer(rebasing: routes[terminalCount...])
        if let labelOf = nodes[index].labelOf {
            return Node.make(label: UnsafeBufferPointer(start: nil, count: 0), labelOf: labelOf, literals: literals,
                             parameter: parameter, edges: frozenEdges.elements, terminals: terminals, wildcards: wildcards,
                             in: blockArena)
        }
        return nodes[index].label.withUnsafeBufferPointer { label in
            Node.make(label: label, labelOf: nil, literals: literals, parameter: parameter, edges: frozenEdges.elements,
                      terminals: terminals, wildcards: wildcards, in: blockArena)
        }
    }
}

/// A node being edited: a copy of a published node (patched, or thawed whole), or a new one.
struct EditNode {
    /// The literal segment it stands for; empty for a root or a dynamic segment's node, for a
    /// patched copy, whose label is its source's, and for a node thawed whole, whose label is
    /// ``labelOf``'s.
    var label: [UInt8]
    /// For a node thawed whole: the published node it was, whose label it keeps (read from its
    /// block, not copied: a thaw would otherwise allocate for it).
    var labelOf: Node?
    /// The published node whose label this one has (its ``source`` or ``labelOf``), if any.
    var labelNode: Node? { source ?? labelOf }
    /// For a patched copy (TreeEditor+Patches.swift): the published node it copies. Its label,
    /// literals, parameter, edges and routes below are then unused; `nil` once thawed whole.
    var source: Node?
    /// A patched copy's newest patch in the editor's ``TreeEditor/patches`` (-1: none; each links
    /// to the one before, ``BlockPatch/next``), and how many it has.
    var newestPatch = -1
    var patchCount = 0
    /// For a patched copy of a node with a small index: a new literal child the copy gains
    /// (TreeEditor+Patches.swift, "Inserting into a copy"), the edited node, and the position
    /// in the source's index it goes before (-1: none).
    var insertedChild = 0
    var insertedAt = -1
    var literals = EditLiterals()
    var parameter: EditChild?
    /// Partial-segment edges, then constraint edges.
    var edges: [(code: UInt8, matcher: UnsafeRawPointer?, child: EditChild)] = []
    var terminals: [Terminal] = []
    var wildcards: [Terminal] = []
    /// During ``TreeEditor/freeze(into:)``: whether it is a table's root (kept even when empty),
    /// and its block once written, as its address's bits (``TreeEditor/notFrozen`` before,
    /// ``TreeEditor/dropped`` for a node left without routes).
    var isTableRoot = false
    var frozen = TreeEditor.notFrozen

    /// An empty new node: no label, no children, no routes.
    init() { label = [] }

    /// Empties it for its next use, keeping its arrays' room.
    mutating func empty() {
        emptyFields()
        emptyLists()
    }

    /// Empties all but its lists.
    mutating func emptyFields() {
        source = nil
        labelOf = nil
        newestPatch = -1
        patchCount = 0
        insertedAt = -1
        isTableRoot = false
        frozen = TreeEditor.notFrozen
        literals.root = nil
        parameter = nil
    }

    /// Empties its label and lists, keeping the lists' room.
    @inline(__always)
    mutating func emptyLists() {
        // Let go, not emptied in place: the buffer is usually a parsed pattern's (see
        // ``TreeEditor/makeNode(label:)``), and emptying a shared buffer would allocate.
        if !label.isEmpty { label = [] }
        // An empty list is left alone: emptying it would still check its buffer's uniqueness.
        if !literals.list.isEmpty { literals.list.clearKeepingCapacity() }
        if !edges.isEmpty { edges.clearKeepingCapacity() }
        if !terminals.isEmpty { terminals.clearKeepingCapacity() }
        if !wildcards.isEmpty { wildcards.clearKeepingCapacity() }
    }

    /// Makes it (empty) a whole copy of published `node`: its children published.
    mutating func thaw(_ node: Node) {
        labelOf = node
        if node.isChunked {
            literals.root = .published(node.rootChunk)
        } else {
            for index in 0..<node.indexCount {
                let child = node.indexedChild(at: index)
                literals.list.append((child.labelHead, .published(child)))
            }
        }
        parameter = node.hasParameter ? .published(node.parameterChild) : nil
        for index in 0..<node.edgeCount {
            let edge = node.edge(at: index)
            edges.append((edge.code, edge.matcher, .published(edge.child)))
        }
        for index in 0..<node.terminalCount { terminals.append(node.terminal(at: index)) }
        for index in node.terminalCount..<(node.terminalCount + node.wildcardCount) { wildcards.append(node.terminal(at: index)) }
    }
}

/// A node's literal children during an edit.
struct EditLiterals {
    /// Up to ``LiteralChildren/inlineLimit`` of them (more only until the next freeze), sorted by
    /// the first word of their labels (``Node/labelHead``, as a number), then label: an order
    /// that depends on the labels alone and reads no more than a node's header to thaw it (a
    /// hash of each label would cost more than the rest of a thaw). Empty once ``root`` is set.
    var list: [(head: UInt64, child: EditChild)] = []
    /// More, in chunks thawed one at a time: the root chunk.
    var root: EditChunkRef?
}

/// A child during an edit: still the published block, or an edited node (an index into the
/// editor's nodes). A plain value.
enum EditChild {
    case published(Node)
    case editing(Int)
}

extension Edge {
    /// The rank of an edge with `code` (docs/SEMANTICS.md §3.1).
    static func rank(of code: UInt8) -> SegmentRank { code == BuiltinCode.partial.rawValue ? .partial : .constraint }
}

extension Node {
    /// True for a root with nothing below it.
    var isEmptyRoot: Bool {
        literalCount == 0 && edgeCount == 0 && !hasParameter && terminalCount == 0 && wildcardCount == 0
    }
}
