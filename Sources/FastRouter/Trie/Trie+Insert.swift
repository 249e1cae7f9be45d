/// A pattern segment ready for the trie: constraints resolved to scanner codes or compiled regexes.
enum TrieSegment: Equatable {
    case literal([UInt8])
    case parameter
    case constraint(code: UInt8, regex: UnsafeRawPointer?)
    /// A partial segment: an unretained ``PartialTemplate``.
    case partial(UnsafeRawPointer)
    case wildcard
}

/// The path ``TableSide/pathCreating(for:cursor:)`` made last: its table root, its segments and
/// the node reached after each. Valid while no node is removed from that side (one batch).
struct PathCursor {
    var root: UInt32 = 0
    var segments: [DuplicateKey.Shape] = []
    var nodes: [UInt32] = []
}

/// One expansion of a route, resolved and ready to insert into a ``TableSide``.
///
/// Its path is its ``DuplicateKey``'s segment shapes: each shape is one kind of edge
/// (``segment(_:)``), so two variants reach the same node exactly when their table and shapes
/// are equal, and the trie is an index of the keys.
struct TrieVariant {
    /// What makes it a duplicate: its table, host rule, priority and path.
    var key: DuplicateKey
    /// The compiled regex of each regex constraint and the shared template of each partial
    /// segment, by position in `key.segments`, unretained; empty when the path has neither.
    var resolved: [UnsafeRawPointer?]
    var layout: UnsafePointer<NameTable.LayoutEntry>?
    var nameCount: UInt16
    var routeID: UInt64
    var sequence: UInt64
    var expansion: UInt16
    var payload: UnsafeMutableRawPointer?
    var record: UInt32

    var priority: Int32 { key.priority }
    var hostRank: UInt8 { key.host.rank }
    var segmentCount: Int { key.segments.count }
    var endsWithWildcard: Bool { key.segments.last == .wildcard }
    var hasPartial: Bool { key.segments.contains { if case .partial = $0 { return true } else { return false } } }

    /// Calls `body` with the host rule's bytes as the trie stores them: the lower-cased host
    /// (exact) or suffix with its leading dot; none for any host.
    func withHostBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        switch key.host {
        case .any: return body(UnsafeBufferPointer(start: nil, count: 0))
        case .exact(let host), .suffix(let host): return withUTF8(host, body)
        }
    }

    /// Segment `index` as the trie's edges are keyed: a shape's constraint as a scanner code or
    /// its compiled regex, a partial segment as its shared template.
    @inline(__always)
    func segment(_ index: Int) -> TrieSegment {
        switch key.segments[index] {
        case .literal(let bytes): return .literal(bytes)
        case .parameter: return .parameter
        case .constrained(.regex): return .constraint(code: BuiltinCode.regex.rawValue, regex: resolved[index])
        case .constrained(let constraint): return .constraint(code: BuiltinCode.of(constraint).rawValue, regex: nil)
        case .partial: return .partial(resolved[index]!)
        case .wildcard: return .wildcard
        }
    }
}

extension TableSide {
    /// The node a variant would hang on, without creating anything (0 when its path is absent).
    func existingNode(for variant: TrieVariant) -> UInt32 {
        var node = existingRoot(scheme: variant.key.table)
        for index in 0..<variant.segmentCount {
            if node == 0 { return 0 }
            switch variant.segment(index) {
            case .literal(let bytes):
                node = bytes.withUnsafeBufferPointer { buffer in
                    let start = buffer.baseAddress ?? UnsafePointer(bitPattern: 1)!
                    return literalChild(of: node, start, buffer.count,
                                        hash: LiteralHash.segmentHash(start, buffer.count))
                }
            case .parameter:
                node = nodes[Int(node)].parameterChild
            case .constraint(let code, let regex):
                node = constraintChild(of: node, code: code, regex: regex)
            case .partial(let template):
                node = constraintChild(of: node, code: BuiltinCode.partial.rawValue, regex: template)
            case .wildcard:
                return node
            }
        }
        return node
    }

    /// True when a variant with the same ``DuplicateKey`` is registered.
    func containsDuplicate(of variant: TrieVariant) -> Bool {
        let node = existingNode(for: variant)
        return node != 0 && hasDuplicate(of: variant, at: node)
    }

    /// True when a variant with the same ``DuplicateKey`` as `variant` hangs on `node`, the node
    /// its path leads to: there, the table and segment shapes are equal by construction (a
    /// wildcard's list or the other), and host and priority are compared.
    func hasDuplicate(of variant: TrieVariant, at node: UInt32) -> Bool {
        var index = variant.endsWithWildcard ? nodes[Int(node)].firstWildcard : nodes[Int(node)].firstTerminal
        let hostRank = variant.hostRank
        return variant.withHostBytes { host in
            while index != 0 {
                let existing = variants[Int(index)]
                if existing.priority == variant.priority, existing.hostRank == hostRank,
                   Int(existing.hostLength) == host.count,
                   host.isEmpty || ByteComparison.equal(keys.base + Int(existing.hostOffset), host.baseAddress!,
                                                     host.count, folded: false) {
                    return true
                }
                index = existing.next
            }
            return false
        }
    }

    /// Inserts a variant, creating the nodes of its path, and returns the variant's index.
    /// - Complexity: O(pattern length), amortized; no other route is touched.
    mutating func insert(_ variant: TrieVariant) -> UInt32 {
        attach(variant, at: pathCreating(for: variant))
    }

    /// The node a variant hangs on, creating the nodes of its path that do not exist yet.
    mutating func pathCreating(for variant: TrieVariant) -> UInt32 {
        var node = rootCreating(scheme: variant.key.table)
        for depth in 0..<variant.segmentCount {
            node = childCreating(of: node, variant.segment(depth), depth: depth)
        }
        return node
    }

    /// ``pathCreating(for:)`` that starts where the previous path of the same batch (kept in
    /// `cursor`) stops sharing segments with this one: routes usually come grouped by prefix,
    /// and each shared level would otherwise cost a probe of the literal index.
    mutating func pathCreating(for variant: TrieVariant, cursor: inout PathCursor) -> UInt32 {
        let root = rootCreating(scheme: variant.key.table)
        var node = root
        var shared = 0
        if cursor.root == root {
            // Equal shapes are equal edges: one batch resolves a regex source or a partial
            // shape to one pointer.
            let limit = min(cursor.segments.count, variant.segmentCount)
            while shared < limit && cursor.segments[shared] == variant.key.segments[shared] { shared += 1 }
            if shared > 0 { node = cursor.nodes[shared - 1] }
        }
        cursor.root = root
        cursor.segments = variant.key.segments
        cursor.nodes.removeSubrange(shared...)
        for depth in shared..<variant.segmentCount {
            node = childCreating(of: node, variant.segment(depth), depth: depth)
            cursor.nodes.append(node)
        }
        return node
    }

    /// The child of `node` that `segment` (the path's segment number `depth`) leads to, created
    /// when absent. A wildcard adds no node: its variant hangs on `node` itself.
    private mutating func childCreating(of node: UInt32, _ segment: TrieSegment, depth: Int) -> UInt32 {
        func fresh(_ rank: SegmentRank) -> TrieNode {
            var child = TrieNode.empty
            child.parent = node
            child.depth = UInt16(depth + 1)
            child.kind = rank.rawValue
            return child
        }
        switch segment {
        case .literal(let bytes):
            let hash = bytes.withUnsafeBufferPointer { buffer in
                LiteralHash.segmentHash(buffer.baseAddress ?? UnsafePointer(bitPattern: 1)!, buffer.count)
            }
            let existing = bytes.withUnsafeBufferPointer { buffer in
                literalChild(of: node, buffer.baseAddress ?? UnsafePointer(bitPattern: 1)!, buffer.count, hash: hash)
            }
            if existing != 0 { return existing }
            var literal = fresh(.literal)
            literal.keyOffset = storeKey(bytes)
            literal.keyLength = UInt32(bytes.count)
            let child = allocateNode(literal)
            insertLiteralSlot(child: child, edgeHash: LiteralHash.edgeHash(hash, parent: node))
            nodes[Int(node)].literalChildCount += 1
            return child
        case .parameter:
            let existing = nodes[Int(node)].parameterChild
            if existing != 0 { return existing }
            let child = allocateNode(fresh(.parameter))
            nodes[Int(node)].parameterChild = child
            return child
        case .constraint, .partial:
            let (code, regex, rank): (UInt8, UnsafeRawPointer?, SegmentRank)
            switch segment {
            case .constraint(let constraintCode, let pointer): (code, regex, rank) = (constraintCode, pointer, .constraint)
            case .partial(let template): (code, regex, rank) = (BuiltinCode.partial.rawValue, template, .partial)
            default: preconditionFailure("unreachable")
            }
            let existing = constraintChild(of: node, code: code, regex: regex)
            if existing != 0 { return existing }
            let child = allocateNode(fresh(rank))
            let edge = allocateEdge(ConstraintEdge(child: child, next: 0, code: code, regex: regex))
            appendEdge(edge, to: node)
            return child
        case .wildcard:
            return node
        }
    }

    /// Hangs a variant on `node` (where its path leads) and returns the variant's index.
    mutating func attach(_ variant: TrieVariant, at node: UInt32) -> UInt32 {
        let endsWithWildcard = variant.endsWithWildcard
        let (hostOffset, hostLength) = variant.withHostBytes { (storeKey($0), UInt32($0.count)) }
        let index = allocateVariant(Variant(
            routeID: variant.routeID, sequence: variant.sequence, payload: variant.payload, layout: variant.layout,
            priority: variant.priority, node: node, next: 0, record: variant.record, hostOffset: hostOffset,
            hostLength: hostLength, nameCount: variant.nameCount, expansion: variant.expansion,
            hostRank: variant.hostRank, endsWithWildcard: endsWithWildcard,
            hasPartial: variant.hasPartial))
        // Append at the tail so a node's list stays in registration order (readable dumps).
        if endsWithWildcard {
            if nodes[Int(node)].firstWildcard == 0 {
                nodes[Int(node)].firstWildcard = index
            } else {
                appendVariant(index, after: nodes[Int(node)].firstWildcard)
            }
        } else {
            if nodes[Int(node)].firstTerminal == 0 {
                nodes[Int(node)].firstTerminal = index
            } else {
                appendVariant(index, after: nodes[Int(node)].firstTerminal)
            }
        }
        return index
    }

    /// Removes one variant and prunes the nodes it leaves bare.
    mutating func remove(variant index: UInt32) {
        let variant = variants[Int(index)]
        var node = variant.node
        if variant.endsWithWildcard {
            nodes[Int(node)].firstWildcard = unlinked(index, from: nodes[Int(node)].firstWildcard)
        } else {
            nodes[Int(node)].firstTerminal = unlinked(index, from: nodes[Int(node)].firstTerminal)
        }
        releaseVariant(index)
        while nodes[Int(node)].isBare && nodes[Int(node)].parent != 0 {
            let bare = nodes[Int(node)]
            let parent = bare.parent
            switch bare.kind {
            case SegmentRank.literal.rawValue:
                let hash = LiteralHash.segmentHash(keys.base + Int(bare.keyOffset), Int(bare.keyLength))
                removeLiteralSlot(child: node, edgeHash: LiteralHash.edgeHash(hash, parent: parent))
                nodes[Int(parent)].literalChildCount -= 1
            case SegmentRank.parameter.rawValue:
                nodes[Int(parent)].parameterChild = 0
            default:
                removeEdge(to: node, from: parent)
            }
            releaseNode(node)
            node = parent
        }
        compactKeysIfNeeded()
    }

    // MARK: Lists

    func constraintChild(of node: UInt32, code: UInt8, regex: UnsafeRawPointer?) -> UInt32 {
        var edge = nodes[Int(node)].firstConstraintEdge
        while edge != 0 {
            let entry = constraintEdges[Int(edge)]
            if entry.code == code && entry.regex == regex { return entry.child }
            edge = entry.next
        }
        return 0
    }

    private mutating func appendEdge(_ edge: UInt32, to node: UInt32) {
        var last = nodes[Int(node)].firstConstraintEdge
        if last == 0 {
            nodes[Int(node)].firstConstraintEdge = edge
            return
        }
        while constraintEdges[Int(last)].next != 0 { last = constraintEdges[Int(last)].next }
        constraintEdges[Int(last)].next = edge
    }

    private mutating func removeEdge(to child: UInt32, from node: UInt32) {
        var previous: UInt32 = 0
        var edge = nodes[Int(node)].firstConstraintEdge
        while edge != 0 && constraintEdges[Int(edge)].child != child {
            previous = edge
            edge = constraintEdges[Int(edge)].next
        }
        guard edge != 0 else { return }
        let next = constraintEdges[Int(edge)].next
        if previous == 0 {
            nodes[Int(node)].firstConstraintEdge = next
        } else {
            constraintEdges[Int(previous)].next = next
        }
        releaseEdge(edge)
    }

    private mutating func appendVariant(_ index: UInt32, after head: UInt32) {
        var last = head
        while variants[Int(last)].next != 0 { last = variants[Int(last)].next }
        variants[Int(last)].next = index
    }

    /// The list starting at `head` without `index`; returns the new head.
    private mutating func unlinked(_ index: UInt32, from head: UInt32) -> UInt32 {
        if head == index { return variants[Int(index)].next }
        var current = head
        while current != 0 {
            let next = variants[Int(current)].next
            if next == index {
                variants[Int(current)].next = variants[Int(index)].next
                break
            }
            current = next
        }
        return head
    }
}
