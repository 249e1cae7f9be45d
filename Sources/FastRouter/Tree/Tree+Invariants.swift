/// The structure's rules, checked (docs/ARCHITECTURE.md, "The lookup tree"). Tests and fuzzers
/// call ``RouterCore/checkInvariants()`` after every change; a broken rule stops the process
/// with the rule's name.
enum TreeInvariants {
    /// Checks every table of `roots`, and that none of the blocks in `freed` (replaced by the
    /// update that published `roots`) is reachable from them.
    static func check(_ roots: TableRoots, freed: [Node] = []) {
        var reachable = Set<UInt>()
        var captures = 0
        check(roots.global, isRoot: true, pathEndsSegment: true, slashes: 0, captures: 0, maxCaptures: &captures,
              reachable: &reachable)
        var schemes = Set<[UInt8]>()
        for index in 0..<roots.schemeCount {
            let entry = roots.scheme(at: index)
            let name = Array(UnsafeBufferPointer(start: entry.name, count: entry.nameLength))
            precondition(schemes.insert(name).inserted, "invariant: one table per scheme")
            precondition(name.allSatisfy { ASCII.lowercased($0) == $0 }, "invariant: scheme names are lower-cased")
            precondition(!entry.root.isEmptyRoot, "invariant: an empty scheme table is dropped")
            check(entry.root, isRoot: true, pathEndsSegment: true, slashes: 0, captures: 0, maxCaptures: &captures,
                  reachable: &reachable)
        }
        precondition(captures <= roots.maxCaptures, "invariant: maxCaptures covers every route's parameters")
        for node in freed {
            precondition(!reachable.contains(UInt(bitPattern: node.base)), "invariant: nothing freed is reachable")
        }
    }

    /// Checks `node` and its subtree. `pathEndsSegment`: the bytes before the node's prefix end
    /// a segment (a table root, or after a dynamic edge); `captures`: parameters passed on the
    /// way here.
    private static func check(_ node: Node, isRoot: Bool, pathEndsSegment: Bool, slashes: Int, captures: Int,
                              maxCaptures: inout Int, reachable: inout Set<UInt>) {
        precondition(reachable.insert(UInt(bitPattern: node.base)).inserted, "invariant: the tree is a tree (one parent per node)")
        let prefix = node.prefixBytes
        let slashesHere = slashes + prefix.filter { $0 == UInt8(ascii: "/") }.count
        precondition(node.slashes == slashesHere, "invariant: a node counts the '/' from its table root")
        // Where the node's path ends: at a segment's end, or right after its '/'.
        let endsSegment = prefix.isEmpty ? pathEndsSegment : prefix.last != UInt8(ascii: "/")
        let startsSegment = prefix.isEmpty ? !pathEndsSegment : prefix.last == UInt8(ascii: "/")
        let hasOwn = node.terminalCount > 0 || node.wildcardCount > 0
        if !isRoot {
            precondition(hasOwn || node.staticCount + node.edgeCount > 0 || node.hasParameter,
                         "invariant: no node without routes below it")
            precondition(hasOwn || node.hasParameter || node.edgeCount > 0 || node.staticCount != 1,
                         "invariant: no chain of nodes a single one could hold")
        }
        if hasOwn { precondition(endsSegment, "invariant: routes end where a segment ends") }
        if node.hasParameter || node.edgeCount > 0 {
            precondition(startsSegment, "invariant: dynamic segments start after a '/'")
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
        var previous = -1
        for index in 0..<node.staticCount {
            let child = node.staticChild(at: index)
            precondition(child.prefixLength > 0, "invariant: literal children have a prefix")
            precondition(Int(node.firstBytes[index]) > previous, "invariant: literal children sorted by distinct first bytes")
            precondition(node.firstBytes[index] == child.prefix[0], "invariant: first bytes index their children")
            previous = Int(node.firstBytes[index])
            check(child, isRoot: false, pathEndsSegment: endsSegment, slashes: slashesHere, captures: captures,
                  maxCaptures: &maxCaptures, reachable: &reachable)
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
            check(edge.child, isRoot: false, pathEndsSegment: true, slashes: slashesHere, captures: captures + count,
                  maxCaptures: &maxCaptures, reachable: &reachable)
            maxKey = max(maxKey, edge.child.maxKey)
        }
        if node.hasParameter {
            check(node.parameterChild, isRoot: false, pathEndsSegment: true, slashes: slashesHere, captures: captures + 1,
                  maxCaptures: &maxCaptures, reachable: &reachable)
            maxKey = max(maxKey, node.parameterChild.maxKey)
        }
        precondition(node.maxKey == maxKey, "invariant: maxKey is the best key below")
        let leaf = !node.hasParameter && node.staticCount == 0 && node.edgeCount == 0 && node.wildcardCount == 0
        precondition(node.isLeafOnly == leaf, "invariant: the leaf flag")
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
            func count(_ node: Node) {
                terminals += node.terminalCount + node.wildcardCount
                for child in node.children { count(child) }
            }
            for entry in roots.all { count(entry.root) }
            var expected = 0
            for index in state.routes.liveIndexes { expected += variants(ofStored: index, state).count }
            precondition(terminals == expected, "invariant: the tree holds every registered expansion, once")
        }
    }
}
