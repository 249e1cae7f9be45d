/// How a writer changes the tree without touching a published node (docs/SEMANTICS.md §3.5).
///
/// An editor starts from the published roots. Before it changes a node it *thaws* it: copies it
/// into an ``EditNode`` and notes the published block as replaced. Everything else stays shared
/// with the published version. ``freeze()`` then writes the changed nodes as new blocks,
/// bottom-up, and returns the new roots; the caller publishes them with one atomic store and,
/// after the readers' grace period, frees the replaced blocks. An editor that is dropped (a
/// duplicate found half-way through a batch) has changed nothing anyone can see.
///
/// Single adds, removals and batches all go through here, and the tree's shape depends only on
/// the routes it holds, never on their order: nodes are split and merged so that every node
/// but a root either ends a route, branches, or starts a dynamic segment.
///
/// Edited nodes live in ``nodes`` and children name them by index, so a child is a plain value:
/// thawing a node with many children copies words, with no reference counting.
struct TreeEditor {
    /// Every table's root: the global table's first.
    var roots: [(scheme: [UInt8]?, root: EditChild)]
    /// The nodes being edited; ``EditChild/editing(_:)`` indexes them.
    private var nodes: [EditNode] = []
    /// Published blocks this edit replaces, to free after the grace period.
    private(set) var replaced: [Node] = []

    init(_ tables: TableRoots) {
        roots = [(nil, .published(tables.global))]
        for index in 0..<tables.schemeCount {
            let entry = tables.scheme(at: index)
            roots.append((Array(UnsafeBufferPointer(start: entry.name, count: entry.nameLength)), .published(entry.root)))
        }
    }

    // MARK: Thawing

    /// A new edited node.
    private mutating func makeNode(prefix: [UInt8]) -> Int {
        nodes.append(EditNode(prefix: prefix))
        return nodes.count - 1
    }

    /// The edited node behind `child`, thawed first when it is a published block.
    private mutating func editable(_ child: inout EditChild) -> Int {
        switch child {
        case .editing(let index):
            return index
        case .published(let node):
            replaced.append(node)
            nodes.append(EditNode(thawing: node))
            child = .editing(nodes.count - 1)
            return nodes.count - 1
        }
    }

    /// The index of the table of `scheme` (`nil`: global), created when `create` is set.
    private mutating func tableIndex(_ scheme: String?, create: Bool) -> Int? {
        guard let scheme else { return 0 }
        let bytes = Array(scheme.utf8)
        if let index = roots.firstIndex(where: { $0.scheme == bytes }) { return index }
        guard create else { return nil }
        roots.append((bytes, .editing(makeNode(prefix: []))))
        return roots.count - 1
    }

    // MARK: Adding and removing

    /// Adds one expansion of a route. Returns `false`, changing nothing readers can see, when a
    /// route with the same ``DuplicateKey`` and an overlapping method set is there already.
    mutating func add(_ variant: RouteVariant, _ terminal: Terminal) -> Bool {
        let table = tableIndex(variant.key.table, create: true)!
        var root = roots[table].root
        let (index, isWildcard) = path(in: &root, for: variant, creating: true)!
        roots[table].root = root
        let shape = terminal.shape.pointee
        let existing = isWildcard ? nodes[index].wildcards : nodes[index].terminals
        for other in existing where other.priority == terminal.priority && Self.sameHost(other.shape.pointee, shape)
            && Self.sameMethods(other.shape.pointee, shape) {
            return false
        }
        if isWildcard { nodes[index].wildcards.append(terminal) } else { nodes[index].terminals.append(terminal) }
        return true
    }

    /// Removes the expansion of route `record` that `variant` describes; returns its terminal.
    @discardableResult
    mutating func remove(_ variant: RouteVariant, record: UInt32) -> Terminal? {
        guard let table = tableIndex(variant.key.table, create: false) else { return nil }
        var root = roots[table].root
        let found = path(in: &root, for: variant, creating: false)
        roots[table].root = root
        guard let (index, isWildcard) = found else { return nil }
        let expansion = UInt16(variant.expansion)
        func take(_ list: inout [Terminal]) -> Terminal? {
            guard let position = list.firstIndex(where: { $0.record == record && $0.shape.pointee.expansion == expansion })
            else { return nil }
            return list.remove(at: position)
        }
        return isWildcard ? take(&nodes[index].wildcards) : take(&nodes[index].terminals)
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
    private mutating func path(in root: inout EditChild, for variant: RouteVariant,
                               creating: Bool) -> (Int, Bool)? {
        var index = editable(&root)
        let steps = variant.steps
        // Bytes of the next literal step already matched by a dynamic child's own prefix.
        var consumed = 0
        for (position, step) in steps.enumerated() {
            let next = position + 1 < steps.count ? steps[position + 1] : nil
            switch step {
            case .literal(let bytes):
                guard let reached = literalPath(from: index, bytes, start: consumed, creating: creating) else { return nil }
                index = reached
                consumed = 0
            case .parameter:
                if nodes[index].parameter == nil {
                    guard creating else { return nil }
                    nodes[index].parameter = .editing(makeNode(prefix: []))
                }
                var child = nodes[index].parameter!
                let entered = enterDynamic(&child, before: next, creating: creating)
                nodes[index].parameter = child
                guard let (reached, matched) = entered else { return nil }
                index = reached
                consumed = matched
            case .edge(let code, let matcher):
                var at = nodes[index].edges.firstIndex { $0.code == code && $0.matcher == matcher }
                if at == nil {
                    guard creating else { return nil }
                    // Partial segments before constraints; within a rank, in order of arrival.
                    let rank = Edge.rank(of: code)
                    let insertion = nodes[index].edges.firstIndex { Edge.rank(of: $0.code).rawValue < rank.rawValue }
                        ?? nodes[index].edges.count
                    let fresh = makeNode(prefix: [])
                    nodes[index].edges.insert((code, matcher, .editing(fresh)), at: insertion)
                    at = insertion
                }
                var child = nodes[index].edges[at!].child
                let entered = enterDynamic(&child, before: next, creating: creating)
                nodes[index].edges[at!].child = child
                guard let (reached, matched) = entered else { return nil }
                index = reached
                consumed = matched
            case .wildcard:
                return (index, true)
            case .end:
                return (index, false)
            }
        }
        return (index, false)
    }

    /// Enters the child behind a dynamic edge, whose own prefix (merged from a chain) must be
    /// the start of the `next` step's bytes; splits it where they part. Returns the node reached
    /// and how many bytes of `next` its prefix matched.
    private mutating func enterDynamic(_ slot: inout EditChild, before next: PathStep?,
                                       creating: Bool) -> (Int, Int)? {
        let index = editable(&slot)
        let prefixCount = nodes[index].prefix.count
        if prefixCount == 0 { return (index, 0) }
        var common = 0
        if case .literal(let bytes)? = next {
            let limit = min(prefixCount, bytes.count)
            while common < limit && nodes[index].prefix[common] == bytes[common] { common += 1 }
        }
        if common == prefixCount { return (index, common) }
        guard creating else { return nil }
        let upper = makeNode(prefix: Array(nodes[index].prefix[..<common]))
        nodes[index].prefix.removeFirst(common)
        nodes[upper].statics = [.editing(index)]
        slot = .editing(upper)
        return (upper, common)
    }

    /// Follows (or makes) the literal children spelling `bytes` from `offset`, splitting a child
    /// whose prefix only begins with them.
    private mutating func literalPath(from start: Int, _ bytes: [UInt8], start offset: Int,
                                      creating: Bool) -> Int? {
        var index = start
        var at = offset
        while at < bytes.count {
            let byte = bytes[at]
            let count = nodes[index].statics.count
            var position = 0
            while position < count && firstByte(of: nodes[index].statics[position]) < byte { position += 1 }
            guard position < count, firstByte(of: nodes[index].statics[position]) == byte else {
                guard creating else { return nil }
                let fresh = makeNode(prefix: Array(bytes[at...]))
                nodes[index].statics.insert(.editing(fresh), at: position)
                return fresh
            }
            var slot = nodes[index].statics[position]
            let childIndex = editable(&slot)
            nodes[index].statics[position] = slot
            let prefixCount = nodes[childIndex].prefix.count
            var common = 0
            let limit = min(prefixCount, bytes.count - at)
            while common < limit && nodes[childIndex].prefix[common] == bytes[at + common] { common += 1 }
            if common < prefixCount {
                guard creating else { return nil }
                // Split: the shared bytes become a node of their own above the child.
                let upper = makeNode(prefix: Array(nodes[childIndex].prefix[..<common]))
                nodes[childIndex].prefix.removeFirst(common)
                nodes[upper].statics = [.editing(childIndex)]
                nodes[index].statics[position] = .editing(upper)
                index = upper
            } else {
                index = childIndex
            }
            at += common
        }
        return index
    }

    private func firstByte(of child: EditChild) -> UInt8 {
        switch child {
        case .published(let node): return node.prefix[0]
        case .editing(let index): return nodes[index].prefix[0]
        }
    }

    // MARK: Freezing

    /// Writes every edited node as a new block and returns the new roots (the global table's
    /// first). Nodes left without routes are dropped and chains are merged, so the result has
    /// the same shape whatever the order of the edits.
    mutating func freeze() -> [(scheme: [UInt8]?, root: Node)] {
        var result: [(scheme: [UInt8]?, root: Node)] = []
        for position in roots.indices {
            let root = roots[position].root
            let node: Node
            switch root {
            case .published(let published): node = published
            case .editing(let index): node = freezeNode(index, parentSlashes: 0, isRoot: true)!.node
            }
            // A scheme table left empty is dropped; the global table always has a root.
            if position > 0 && node.isEmptyRoot {
                switch root {
                case .editing: node.deallocate()
                case .published(let published): replaced.append(published)
                }
                continue
            }
            result.append((roots[position].scheme, node))
        }
        return result
    }

    /// A frozen child and whether this freeze wrote it (a merge frees such a block at once).
    private typealias Frozen = (node: Node, fresh: Bool)

    private mutating func freezeChild(_ child: EditChild, parentSlashes: Int) -> Frozen? {
        switch child {
        case .published(let node): return (node, false)
        case .editing(let index): return freezeNode(index, parentSlashes: parentSlashes, isRoot: false)
        }
    }

    private mutating func freezeNode(_ index: Int, parentSlashes: Int, isRoot: Bool) -> Frozen? {
        // Merge a chain: a node with nothing of its own and one literal child becomes one node.
        while !isRoot && nodes[index].ownsNothing && nodes[index].parameter == nil && nodes[index].statics.count == 1 {
            var slot = nodes[index].statics[0]
            let child = nodes[editable(&slot)]
            nodes[index].prefix += child.prefix
            nodes[index].statics = child.statics
            nodes[index].parameter = child.parameter
            nodes[index].edges = child.edges
            nodes[index].terminals = child.terminals
            nodes[index].wildcards = child.wildcards
        }
        let edit = nodes[index]
        var slashes = parentSlashes
        for byte in edit.prefix where byte == UInt8(ascii: "/") { slashes += 1 }
        var statics: [Node] = []
        var lastStaticIsFresh = false
        if !edit.statics.isEmpty {
            statics.reserveCapacity(edit.statics.count)
            for child in edit.statics {
                if let frozen = freezeChild(child, parentSlashes: slashes) {
                    statics.append(frozen.node)
                    lastStaticIsFresh = frozen.fresh
                }
            }
        }
        let parameter = edit.parameter.flatMap { freezeChild($0, parentSlashes: slashes) }
        var edges: [Edge] = []
        for entry in edit.edges {
            if let child = freezeChild(entry.child, parentSlashes: slashes) {
                edges.append(Edge(child: child.node, matcher: entry.matcher, code: entry.code))
            }
        }
        let ownsNothing = edit.terminals.isEmpty && edit.wildcards.isEmpty && parameter == nil && edges.isEmpty
        if !isRoot && ownsNothing && statics.isEmpty { return nil }
        if !isRoot && ownsNothing && statics.count == 1 {
            // A child vanished and left a chain: merge it now.
            let child = statics[0]
            var merged = EditNode(thawing: child)
            if lastStaticIsFresh { child.deallocate() } else { replaced.append(child) }
            merged.prefix = edit.prefix + merged.prefix
            nodes.append(merged)
            return freezeNode(nodes.count - 1, parentSlashes: parentSlashes, isRoot: false)
        }
        let node = Node.make(prefix: edit.prefix, slashes: slashes, parameter: parameter?.node, statics: statics,
                             edges: edges, terminals: edit.terminals, wildcards: edit.wildcards)
        return (node, true)
    }
}

/// A node being edited: a thawed copy of a published node, or a new one.
struct EditNode {
    var prefix: [UInt8]
    /// Sorted by first byte; each prefix is non-empty.
    var statics: [EditChild] = []
    var parameter: EditChild?
    /// Partial-segment edges, then constraint edges.
    var edges: [(code: UInt8, matcher: UnsafeRawPointer?, child: EditChild)] = []
    var terminals: [Terminal] = []
    var wildcards: [Terminal] = []

    init(prefix: [UInt8]) { self.prefix = prefix }

    /// No routes and no dynamic edges of its own.
    var ownsNothing: Bool { terminals.isEmpty && wildcards.isEmpty && edges.isEmpty }

    init(thawing node: Node) {
        prefix = node.prefixBytes
        let staticCount = node.staticCount
        if staticCount > 0 {
            statics = [EditChild](unsafeUninitializedCapacity: staticCount) { buffer, count in
                for index in 0..<staticCount { buffer[index] = .published(node.staticChild(at: index)) }
                count = staticCount
            }
        }
        parameter = node.hasParameter ? .published(node.parameterChild) : nil
        if node.edgeCount > 0 { edges = node.edgeList.map { ($0.code, $0.matcher, .published($0.child)) } }
        if node.terminalCount > 0 { terminals = node.terminalList }
        if node.wildcardCount > 0 { wildcards = node.wildcardList }
    }
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
        staticCount == 0 && edgeCount == 0 && !hasParameter && terminalCount == 0 && wildcardCount == 0
    }
}
