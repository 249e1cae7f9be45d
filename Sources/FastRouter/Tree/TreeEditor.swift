/// How a writer changes the tree without touching a published node (docs/SEMANTICS.md §3.5).
///
/// An editor starts from the published roots. Before it changes a node it *thaws* it: copies it
/// into an ``EditNode`` and notes the published block as replaced. Everything else stays shared
/// with the published version. ``freeze(from:)`` then writes the changed nodes as new blocks,
/// bottom-up, and returns the new roots; the caller publishes them with one atomic store and,
/// after the readers' grace period, frees the replaced blocks. An editor that is dropped (a
/// duplicate found half-way through a batch) has changed nothing anyone can see.
///
/// Single adds, removals and batches all go through here, and the tree's shape depends only on
/// the routes it holds, never on their order: nodes are split and merged so that every node
/// but a root either ends a route, branches, or starts a dynamic segment.
struct TreeEditor {
    /// Every table's root: the global table's first.
    var roots: [(scheme: [UInt8]?, root: EditChild)]
    /// Published blocks this edit replaces, to free after the grace period.
    private(set) var replaced: [Node] = []
    /// Blocks written by ``freeze(from:)``.
    private(set) var written = 0

    init(_ tables: TableRoots?) {
        guard let tables else {
            roots = [(nil, .editing(EditNode(prefix: [])))]
            return
        }
        roots = [(nil, .published(tables.global))]
        for index in 0..<tables.schemeCount {
            let entry = tables.scheme(at: index)
            roots.append((Array(UnsafeBufferPointer(start: entry.name, count: entry.nameLength)), .published(entry.root)))
        }
    }

    // MARK: Thawing

    /// The node behind `child`, made editable (thawed once, then edited in place).
    private mutating func editable(_ child: inout EditChild) -> EditNode {
        switch child {
        case .editing(let node):
            return node
        case .published(let node):
            replaced.append(node)
            let thawed = EditNode(thawing: node)
            child = .editing(thawed)
            return thawed
        }
    }

    /// The index of the table of `scheme` (`nil`: global), created when `create` is set.
    private mutating func tableIndex(_ scheme: String?, create: Bool) -> Int? {
        guard let scheme else { return 0 }
        let bytes = Array(scheme.utf8)
        if let index = roots.firstIndex(where: { $0.scheme == bytes }) { return index }
        guard create else { return nil }
        roots.append((bytes, .editing(EditNode(prefix: []))))
        return roots.count - 1
    }

    // MARK: Adding and removing

    /// Adds one expansion of a route. Returns `false`, changing nothing readers can see, when a
    /// route with the same ``DuplicateKey`` is there already.
    mutating func add(_ variant: RouteVariant, _ terminal: Terminal) -> Bool {
        let table = tableIndex(variant.key.table, create: true)!
        var root = roots[table].root
        let (node, isWildcard) = path(in: &root, for: variant, creating: true)!
        roots[table].root = root
        let shape = terminal.shape.pointee
        let existing = isWildcard ? node.wildcards : node.terminals
        for other in existing where other.priority == terminal.priority && Self.sameHost(other.shape.pointee, shape) {
            return false
        }
        if isWildcard { node.wildcards.append(terminal) } else { node.terminals.append(terminal) }
        return true
    }

    /// Removes the expansion of route `record` that `variant` describes; returns its terminal.
    @discardableResult
    mutating func remove(_ variant: RouteVariant, record: UInt32) -> Terminal? {
        guard let table = tableIndex(variant.key.table, create: false) else { return nil }
        var root = roots[table].root
        let found = path(in: &root, for: variant, creating: false)
        roots[table].root = root
        guard let (node, isWildcard) = found else { return nil }
        let expansion = UInt16(variant.expansion)
        func take(_ list: inout [Terminal]) -> Terminal? {
            guard let index = list.firstIndex(where: { $0.record == record && $0.shape.pointee.expansion == expansion })
            else { return nil }
            return list.remove(at: index)
        }
        return isWildcard ? take(&node.wildcards) : take(&node.terminals)
    }

    private static func sameHost(_ lhs: TerminalShape, _ rhs: TerminalShape) -> Bool {
        guard lhs.hostRank == rhs.hostRank, lhs.hostLength == rhs.hostLength else { return false }
        guard let left = lhs.host, let right = rhs.host else { return lhs.host == nil && rhs.host == nil }
        return ByteComparison.equal(left, right, lhs.hostLength, folded: false)
    }

    /// The node where `variant`'s path ends and whether it ends in a wildcard, thawing every
    /// node on the way; `nil` when `creating` is off and the path is absent.
    private mutating func path(in root: inout EditChild, for variant: RouteVariant,
                               creating: Bool) -> (EditNode, Bool)? {
        var node = editable(&root)
        let steps = variant.steps
        // Bytes of the next literal step already matched by a dynamic child's own prefix.
        var consumed = 0
        for (index, step) in steps.enumerated() {
            let next = index + 1 < steps.count ? steps[index + 1] : nil
            switch step {
            case .literal(let bytes):
                guard let reached = literalPath(from: node, bytes, start: consumed, creating: creating) else { return nil }
                node = reached
                consumed = 0
            case .parameter:
                if node.parameter == nil {
                    guard creating else { return nil }
                    node.parameter = .editing(EditNode(prefix: []))
                }
                guard let (child, matched) = enterDynamic(&node.parameter!, before: next, creating: creating) else { return nil }
                node = child
                consumed = matched
            case .edge(let code, let matcher):
                var position = node.edges.firstIndex { $0.code == code && $0.matcher == matcher }
                if position == nil {
                    guard creating else { return nil }
                    // Partial segments before constraints; within a rank, in order of arrival.
                    let rank = Edge.rank(of: code)
                    let at = node.edges.firstIndex { Edge.rank(of: $0.code).rawValue < rank.rawValue } ?? node.edges.count
                    node.edges.insert((code, matcher, .editing(EditNode(prefix: []))), at: at)
                    position = at
                }
                guard let (child, matched) = enterDynamic(&node.edges[position!].child, before: next, creating: creating)
                else { return nil }
                node = child
                consumed = matched
            case .wildcard:
                return (node, true)
            case .end:
                return (node, false)
            }
        }
        return (node, false)
    }

    /// Enters the child behind a dynamic edge, whose own prefix (merged from a chain) must be
    /// the start of the `next` step's bytes; splits it where they part. Returns the node reached
    /// and how many bytes of `next` its prefix matched.
    private mutating func enterDynamic(_ slot: inout EditChild, before next: PathStep?,
                                       creating: Bool) -> (EditNode, Int)? {
        let child = editable(&slot)
        if child.prefix.isEmpty { return (child, 0) }
        var common = 0
        if case .literal(let bytes)? = next {
            let limit = min(child.prefix.count, bytes.count)
            while common < limit && child.prefix[common] == bytes[common] { common += 1 }
        }
        if common == child.prefix.count { return (child, common) }
        guard creating else { return nil }
        let upper = EditNode(prefix: Array(child.prefix[..<common]))
        child.prefix.removeFirst(common)
        upper.statics = [.editing(child)]
        slot = .editing(upper)
        return (upper, common)
    }

    /// Follows (or makes) the literal children spelling `bytes` from `start`, splitting a child
    /// whose prefix only begins with them.
    private mutating func literalPath(from start: EditNode, _ bytes: [UInt8], start offset: Int,
                                      creating: Bool) -> EditNode? {
        var node = start
        var index = offset
        while index < bytes.count {
            let byte = bytes[index]
            guard let position = node.statics.firstIndex(where: { $0.firstByte >= byte }),
                  node.statics[position].firstByte == byte else {
                guard creating else { return nil }
                let fresh = EditNode(prefix: Array(bytes[index...]))
                let position = node.statics.firstIndex { $0.firstByte > byte } ?? node.statics.count
                node.statics.insert(.editing(fresh), at: position)
                return fresh
            }
            let child = editable(&node.statics[position])
            var common = 0
            let limit = min(child.prefix.count, bytes.count - index)
            while common < limit && child.prefix[common] == bytes[index + common] { common += 1 }
            if common < child.prefix.count {
                guard creating else { return nil }
                // Split: the shared bytes become a node of their own above the child.
                let upper = EditNode(prefix: Array(child.prefix[..<common]))
                child.prefix.removeFirst(common)
                upper.statics = [.editing(child)]
                node.statics[position] = .editing(upper)
                node = upper
            } else {
                node = child
            }
            index += common
        }
        return node
    }

    // MARK: Freezing

    /// Writes every edited node as a new block and returns the new roots (the global table's
    /// first). Nodes left without routes are dropped and chains are merged, so the result has
    /// the same shape whatever the order of the edits.
    mutating func freeze() -> [(scheme: [UInt8]?, root: Node)] {
        var result: [(scheme: [UInt8]?, root: Node)] = []
        for index in roots.indices {
            let root = roots[index].root
            let node: Node
            switch root {
            case .published(let published): node = published
            case .editing(let edit): node = freezeNode(edit, parentSlashes: 0, isRoot: true)!
            }
            // A scheme table left empty is dropped; the global table always has a root.
            if index > 0 && node.isEmptyRoot {
                if case .editing = root { node.deallocate(); written -= 1 }
                if case .published(let published) = root { replaced.append(published) }
                continue
            }
            result.append((roots[index].scheme, node))
        }
        return result
    }

    private mutating func freezeChild(_ child: EditChild, parentSlashes: Int) -> Node? {
        switch child {
        case .published(let node): return node
        case .editing(let edit): return freezeNode(edit, parentSlashes: parentSlashes, isRoot: false)
        }
    }

    private mutating func freezeNode(_ edit: EditNode, parentSlashes: Int, isRoot: Bool) -> Node? {
        // Merge a chain: a node with nothing of its own and one literal child becomes one node.
        while !isRoot && edit.terminals.isEmpty && edit.wildcards.isEmpty && edit.parameter == nil
                && edit.edges.isEmpty && edit.statics.count == 1 {
            let child = editable(&edit.statics[0])
            edit.prefix += child.prefix
            edit.statics = child.statics
            edit.parameter = child.parameter
            edit.edges = child.edges
            edit.terminals = child.terminals
            edit.wildcards = child.wildcards
        }
        let slashes = parentSlashes + edit.prefix.reduce(0) { $0 + ($1 == UInt8(ascii: "/") ? 1 : 0) }
        let statics = edit.statics.compactMap { freezeChild($0, parentSlashes: slashes) }
        let parameter = edit.parameter.flatMap { freezeChild($0, parentSlashes: slashes) }
        var edges: [Edge] = []
        for entry in edit.edges {
            if let child = freezeChild(entry.child, parentSlashes: slashes) {
                edges.append(Edge(child: child, matcher: entry.matcher, code: entry.code))
            }
        }
        if !isRoot && statics.isEmpty && parameter == nil && edges.isEmpty && edit.terminals.isEmpty
            && edit.wildcards.isEmpty {
            return nil
        }
        if !isRoot && edit.terminals.isEmpty && edit.wildcards.isEmpty && parameter == nil && edges.isEmpty
            && statics.count == 1 {
            // A child vanished and left a chain: merge it now (the child is new or published).
            let child = statics[0]
            let merged = EditNode(thawing: child)
            if !isFresh(child) { replaced.append(child) } else { child.deallocate(); written -= 1 }
            merged.prefix = edit.prefix + merged.prefix
            return freezeNode(merged, parentSlashes: parentSlashes, isRoot: false)
        }
        written += 1
        let node = Node.make(prefix: edit.prefix, slashes: slashes, parameter: parameter, statics: statics, edges: edges,
                             terminals: edit.terminals, wildcards: edit.wildcards)
        fresh.insert(UInt(bitPattern: node.base))
        return node
    }

    /// Blocks this freeze wrote (so a merge can tell its own new blocks from published ones).
    private var fresh = Set<UInt>()
    private func isFresh(_ node: Node) -> Bool { fresh.contains(UInt(bitPattern: node.base)) }
}

/// A node being edited: a thawed copy of a published node, or a new one.
final class EditNode {
    var prefix: [UInt8]
    /// Sorted by first byte; each prefix is non-empty.
    var statics: [EditChild] = []
    var parameter: EditChild?
    /// Partial-segment edges, then constraint edges.
    var edges: [(code: UInt8, matcher: UnsafeRawPointer?, child: EditChild)] = []
    var terminals: [Terminal] = []
    var wildcards: [Terminal] = []

    init(prefix: [UInt8]) { self.prefix = prefix }

    init(thawing node: Node) {
        prefix = node.prefixBytes
        statics = node.staticList.map { .published($0) }
        parameter = node.hasParameter ? .published(node.parameterChild) : nil
        edges = node.edgeList.map { ($0.code, $0.matcher, .published($0.child)) }
        terminals = node.terminalList
        wildcards = node.wildcardList
    }
}

/// A child during an edit: still the published block, or thawed.
enum EditChild {
    case published(Node)
    case editing(EditNode)

    var firstByte: UInt8 {
        switch self {
        case .published(let node): return node.prefix[0]
        case .editing(let node): return node.prefix[0]
        }
    }
}

extension Edge {
    static func rank(of code: UInt8) -> SegmentRank { code == BuiltinCode.partial.rawValue ? .partial : .constraint }
}

extension Node {
    /// True for a root with nothing below it.
    var isEmptyRoot: Bool {
        staticCount == 0 && edgeCount == 0 && !hasParameter && terminalCount == 0 && wildcardCount == 0
    }
}
