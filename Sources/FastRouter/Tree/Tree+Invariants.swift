/// The structure's rules, checked (docs/ARCHITECTURE.md, "The lookup tree"). Tests and fuzzers
/// call ``RouterCore/checkInvariants()`` after every change; a broken rule stops the process
/// with the rule's name.
enum TreeInvariants {
    /// Checks every table of `roots`, and that none of the blocks in `freed` (nodes and chunks
    /// replaced by the update that published `roots`) is reachable from them.
    static func check(_ roots: TableRoots, freed: [UnsafeMutableRawPointer] = []) {
        var reachable = Set<UInt>()
        var captures = 0
        var pending: [Pending] = []
        check(roots.global, isRoot: true, isLiteral: false, captures: 0, maxCaptures: &captures, reachable: &reachable,
              pending: &pending)
        var schemes = Set<[UInt8]>()
        for index in 0..<roots.schemeCount {
            let entry = roots.scheme(at: index)
            let name = Array(UnsafeBufferPointer(start: entry.name, count: entry.nameLength))
            precondition(schemes.insert(name).inserted, "invariant: one table per scheme")
            precondition(name.allSatisfy { ASCII.lowercased($0) == $0 }, "invariant: scheme names are lower-cased")
            precondition(!entry.root.isEmptyRoot, "invariant: an empty scheme table is dropped")
            check(entry.root, isRoot: true, isLiteral: false, captures: 0, maxCaptures: &captures, reachable: &reachable,
                  pending: &pending)
        }
        precondition(captures <= roots.maxCaptures, "invariant: maxCaptures covers every route's parameters")
        let prefix = TableRoots.commonPrefix(of: roots.global)
        precondition(prefix.length == roots.prefixLength && prefix.word == roots.prefixWord
                     && prefix.node.base == roots.prefixNode.base && prefix.mask == roots.prefixMask,
                     "invariant: the prefix is the global table's")
        checkStaticPaths(roots, reachable: &reachable)
        for block in freed {
            precondition(!reachable.contains(UInt(bitPattern: block)), "invariant: nothing freed is reachable")
        }
    }

    /// Checks that ``TableRoots/dynamicRoutes`` counts the global table's dynamic routes and that
    /// its ``StaticPaths`` holds exactly the nodes where its routes end, by their paths, while it
    /// has none (and nothing otherwise).
    private static func checkStaticPaths(_ roots: TableRoots, reachable: inout Set<UInt>) {
        var dynamic = 0
        var stack: [(node: Node, isStatic: Bool)] = [(roots.global, true)]
        while let (node, isStatic) = stack.popLast() {
            dynamic += node.wildcardCount + (isStatic ? 0 : node.terminalCount)
            // A host comes with a scheme (docs/SEMANTICS.md §2): a lookup by the path reads none.
            for terminal in node.terminalList {
                precondition(terminal.shape.pointee.host == nil && terminal.shape.pointee.hostRank == 0,
                             "invariant: the global table's routes have no host rule")
            }
            node.forEachLiteral { stack.append(($0, isStatic)) }
            for edge in node.edgeList { stack.append((edge.child, false)) }
            if node.hasParameter { stack.append((node.parameterChild, false)) }
        }
        precondition(dynamic == roots.dynamicRoutes, "invariant: dynamicRoutes counts the global table's dynamic routes")
        let map = roots.staticPaths
        guard dynamic == 0 else {
            precondition(map.root == nil, "invariant: a table with dynamic routes has no static paths")
            return
        }
        map.forEachBlock { block, _ in
            precondition(reachable.insert(UInt(bitPattern: block)).inserted, "invariant: a static path block has one parent")
        }
        let expected = StaticPaths.paths(below: roots.global)
        let entries = map.entries
        precondition(entries.count == expected.count, "invariant: static paths hold every static route's node")
        for (path, node) in expected {
            let found = map.node(path)
            precondition(found?.base == node.base, "invariant: a static path leads to its node")
        }
    }

    /// A node still to check, with what its parent knows of it.
    private typealias Pending = (node: Node, isLiteral: Bool, captures: Int)

    /// Checks `node` and its subtree, with a stack rather than recursion (a path may be
    /// thousands of nodes deep). `isLiteral`: a literal child (it has a label; a root or a dynamic
    /// segment's node has none); `captures`: parameters passed on the way here.
    private static func check(_ root: Node, isRoot: Bool, isLiteral: Bool, captures: Int, maxCaptures: inout Int,
                              reachable: inout Set<UInt>, pending: inout [Pending]) {
        checkNode(root, isRoot: isRoot, isLiteral: isLiteral, captures: captures, maxCaptures: &maxCaptures,
                  reachable: &reachable, pending: &pending)
        while let next = pending.popLast() {
            checkNode(next.node, isRoot: false, isLiteral: next.isLiteral, captures: next.captures,
                      maxCaptures: &maxCaptures, reachable: &reachable, pending: &pending)
        }
    }

    /// Checks one node; its children go on `pending`.
    private static func checkNode(_ node: Node, isRoot: Bool, isLiteral: Bool, captures: Int, maxCaptures: inout Int,
                                  reachable: inout Set<UInt>, pending: inout [Pending]) {
        precondition(reachable.insert(UInt(bitPattern: node.base)).inserted, "invariant: the tree is a tree (one parent per node)")
        let label = node.labelBytes
        precondition(isLiteral == !label.isEmpty, "invariant: literal children have a label, no other node does")
        precondition(!label.contains(UInt8(ascii: "/")), "invariant: a label is one segment (a decoded '/' is NUL)")
        precondition(node.labelHead == SegmentHash.head(of: label), "invariant: labelHead is the label's first word")
        precondition(node.labelTail == Node.tail(of: label), "invariant: labelTail is the label's last word")
        let hasOwn = node.terminalCount > 0 || node.wildcardCount > 0
        if !isRoot {
            precondition(hasOwn || node.literalCount + node.edgeCount > 0 || node.hasParameter,
                         "invariant: no node without routes below it")
        }
        var maxKey = Int64.min
        for index in 0..<(node.terminalCount + node.wildcardCount) {
            let terminal = node.terminal(at: index)
            let isWildcard = index >= node.terminalCount
            let shape = terminal.shape.pointee
            precondition(shape.endsWithWildcard == isWildcard, "invariant: wildcards and terminals are listed apart")
            precondition(shape.nameCount == captures + (isWildcard ? 1 : 0),
                         "invariant: a route's parameters are the captures on its path")
            maxKey = max(maxKey, terminal.key)
        }
        for index in 0..<node.terminalCount {
            for other in 0..<index {
                precondition(node.terminal(at: other).sequence != node.terminal(at: index).sequence
                             || node.terminal(at: other).shape != node.terminal(at: index).shape,
                             "invariant: a route expansion ends once")
            }
        }
        maxCaptures = max(maxCaptures, captures + (node.wildcardCount > 0 ? 1 : 0))
        let literals = checkLiterals(node, reachable: &reachable)
        var labels = Set<[UInt8]>()
        for child in literals {
            precondition(labels.insert(child.labelBytes).inserted, "invariant: literal siblings have distinct labels")
            pending.append((child, true, captures))
            maxKey = max(maxKey, child.maxKey)
        }
        var lastRank = UInt8.max
        for index in 0..<node.edgeCount {
            let edge = node.edge(at: index)
            precondition(edge.rank.rawValue <= lastRank, "invariant: partial edges before constraint edges")
            lastRank = edge.rank.rawValue
            var count = 1
            if edge.code == BuiltinCode.partial.rawValue {
                count = Unmanaged<PartialTemplate>.fromOpaque(edge.matcher!)._withUnsafeGuaranteedRef { $0.parameterCount }
            }
            pending.append((edge.child, false, captures + count))
            maxKey = max(maxKey, edge.child.maxKey)
        }
        if node.hasParameter {
            pending.append((node.parameterChild, false, captures + 1))
            maxKey = max(maxKey, node.parameterChild.maxKey)
        }
        precondition(node.maxKey == maxKey, "invariant: maxKey is the best key below")
        // A region's blocks start a cache line; the system allocator's are 16-byte aligned.
        precondition(UInt(bitPattern: node.base) % UInt(BlockArena.systemAlignment) == 0, "invariant: a node is aligned")
        let leaf = !node.hasParameter && node.literalCount == 0 && node.edgeCount == 0 && node.wildcardCount == 0
        precondition(node.isLeafOnly == leaf, "invariant: the leaf flag")
        let dynamic = node.hasParameter || node.edgeCount > 0 || node.wildcardCount > 0
        precondition(node.hasDynamic == dynamic, "invariant: the dynamic flag")
        precondition(node.onlyParameter == (node.hasParameter && node.edgeCount == 0 && node.wildcardCount == 0),
                     "invariant: the only-parameter flag")
        let terminals = node.terminalList
        precondition(node.terminalTraits == Node.traits(of: terminals) & Node.traits(of: node.wildcardList),
                     "invariant: the terminal traits")
        precondition(node.hasOneTerminalPerMethod == (node.wildcardCount == 0 && Node.haveOneTerminalPerMethod(terminals)),
                     "invariant: the one-terminal-per-method flag")
        if node.hasOneTerminalPerMethod {
            for (index, terminal) in terminals.enumerated() {
                for other in terminals[(index + 1)...] {
                    let one = terminal.shape.pointee, two = other.shape.pointee
                    precondition(!one.anyMethod && !two.anyMethod && one.methods & two.methods == 0,
                                 "invariant: terminals of one key and no host rule accept no method in common")
                }
            }
        }
        if node.onlyParameter {
            precondition(node.onlyParameterChild.base == node.parameterChild.base,
                         "invariant: an only-parameter node's child lies right before its terminals")
        }
    }

    /// Checks how `node` finds its literal children (index or chunks, see ``LiteralChildren``)
    /// and returns them.
    private static func checkLiterals(_ node: Node, reachable: inout Set<UInt>) -> [Node] {
        let count = node.literalCount
        precondition(node.hasSingleLiteral == (count == 1), "invariant: the single-literal flag")
        precondition(node.isIndexed == (count > 1 && count <= LiteralChildren.inlineLimit), "invariant: the indexed flag")
        precondition(node.isChunked == (count > LiteralChildren.inlineLimit),
                     "invariant: a node indexes up to inlineLimit literal children and chunks more")
        guard node.isChunked else {
            var previous: (head: UInt64, label: [UInt8])?
            for index in 0..<count {
                let child = node.indexedChild(at: index)
                let head = child.labelHead
                precondition(node.tag(at: index) == SegmentHash.tag(of: child.labelBytes) && child.indexTag == node.tag(at: index),
                             "invariant: an index's tags are its children's")
                if let previous {
                    precondition(previous.head < head || (previous.head == head
                                                          && previous.label.lexicographicallyPrecedes(child.labelBytes)),
                                 "invariant: an index is sorted by its labels' first words, then label")
                }
                previous = (head, child.labelBytes)
            }
            for index in count..<LiteralChildren.tagBytes(count) {
                precondition(node.tag(at: index) == 0, "invariant: an index's unused tags are 0")
            }
            return (0..<count).map(node.indexedChild(at:))
        }
        var children: [Node] = []
        let (below, _) = checkChunk(node.rootChunk, level: 0, hashPrefix: 0, isRoot: true, reachable: &reachable,
                                    children: &children)
        precondition(below == count, "invariant: a node counts its chunked children")
        return children
    }

    /// Checks a chunk and those below it: each child in the slot of its hash bits under the bits
    /// of the chunks above (`hashPrefix`), no chunk that a single child could replace, counts and
    /// maxKey. Returns its children's count and best key.
    private static func checkChunk(_ chunk: LiteralChunk, level: Int, hashPrefix: UInt64, isRoot: Bool,
                                   reachable: inout Set<UInt>, children: inout [Node]) -> (Int, Int64) {
        precondition(reachable.insert(UInt(bitPattern: chunk.base)).inserted, "invariant: a chunk has one parent")
        var count = 0
        var maxKey = Int64.min
        let entries = chunk.entries(level: level)
        if !isRoot {
            precondition(entries.count > 1 || entries.contains { if case .chunk = $0.entry { true } else { false } },
                         "invariant: a chunk holds more than one child")
        }
        let bits = LiteralChildren.chunkBits
        let prefixBits = UInt64(bits * level)
        var previousLabel: [UInt8]?
        for (slot, entry) in entries {
            let slotPrefix = level >= LiteralChildren.hashLevels ? hashPrefix : hashPrefix << UInt64(bits) | UInt64(slot)
            switch entry {
            case .child(let node):
                let hash = node.labelHash
                if level >= LiteralChildren.hashLevels {
                    precondition(hash >> UInt64(64 - bits * LiteralChildren.hashLevels) == hashPrefix,
                                 "invariant: a collision list holds equal hashes")
                    if let previousLabel {
                        precondition(previousLabel.lexicographicallyPrecedes(node.labelBytes),
                                     "invariant: a collision list is sorted by label")
                    }
                    previousLabel = node.labelBytes
                } else {
                    precondition(hash >> (64 - UInt64(bits) - prefixBits) == slotPrefix,
                                 "invariant: a child sits in its hash's slot")
                }
                children.append(node)
                count += 1
                maxKey = max(maxKey, node.maxKey)
            case .chunk(let below):
                precondition(level < LiteralChildren.hashLevels, "invariant: no chunk below a collision list")
                let (belowCount, belowKey) = checkChunk(below, level: level + 1, hashPrefix: slotPrefix, isRoot: false,
                                                        reachable: &reachable, children: &children)
                count += belowCount
                maxKey = max(maxKey, belowKey)
            }
        }
        precondition(chunk.count == count, "invariant: a chunk counts the children below it")
        precondition(chunk.maxKey == maxKey, "invariant: a chunk's maxKey is the best key below")
        return (count, maxKey)
    }
}

extension RouterCore {
    /// Verifies the published tables' structure (see ``TreeInvariants``) and that they hold
    /// exactly the registered routes' expansions. Takes the writer lock; for tests and fuzzers.
    package func checkInvariants() {
        writer.withLock { state in
            let roots = tables.published
            TreeInvariants.check(roots)
            var terminals = 0
            var stack = roots.all.map(\.root)
            while let node = stack.popLast() {
                terminals += node.terminalCount + node.wildcardCount
                stack += node.children
            }
            var expected = 0
            for index in state.routes.liveIndexes { expected += variants(ofStored: index, state).count }
            precondition(terminals == expected, "invariant: the tree holds every registered expansion, once")
        }
    }
}
