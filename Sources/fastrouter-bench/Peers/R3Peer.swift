/// r3 (c9s/r3), loaded at run time: patterns in its `{name}` / `{name:regex}` syntax, routes
/// inserted most specific first (r3 takes the first edge that matches and never backtracks),
/// one reused `match_entry` per thread. Captures are strings r3 allocates per lookup; freeing
/// them belongs to the lookup, as it would for any r3 user.
final class R3Peer: Contender, @unchecked Sendable {
    // Safety: the compiled tree is only read by r3_tree_matchl; each thread has its own entry.
    let library: R3Library
    let tree: UnsafeMutableRawPointer
    let urls: StringTable
    let patterns: [PathPattern]
    /// The translated patterns, kept for the tree's lifetime in case r3 points into them.
    let r3Patterns: StringTable
    let build: BuildCost

    /// The reason r3 cannot take `set`, or `nil`.
    static func inexpressible(_ set: RouteSet) -> Inexpressible? {
        if case .failure(let reason) = R3Library.shared { return reason }
        switch PeerSupport.pathPatterns(of: set) {
        case .failure(let reason): return reason
        case .success(let patterns): return combinedPatternOverflow(patterns)
        }
    }

    /// r3 1.3.4 joins the edges of every node that has a placeholder edge into one regex, built
    /// with `strcat` in a fixed 192-byte buffer (`r3_tree_compile_patterns`): a longer one
    /// overwrites the heap and aborts or corrupts the run later. This bounds each node's
    /// combined pattern from above on a segment trie (r3's radix edges are never longer than
    /// the segment and the literal run after it) and refuses sets that could overflow.
    static func combinedPatternOverflow(_ patterns: [PathPattern]) -> Inexpressible? {
        final class Node {
            var children: [String: Node] = [:]
            var isPlaceholder = false
            /// Longest literal text that can follow this segment before the next placeholder.
            var literalTail = 0
        }
        func text(_ segment: PathPattern.Segment) -> (text: String, regex: String?) {
            switch segment {
            case .literal(let literal): return (literal, nil)
            case .placeholder: return ("{}", "[^/]+")
            case .constrained(_, let constraint):
                let expression = regex(forConstraint: constraint)
                let written = expression == "[^/]+" ? expression : "(?:\(expression))(?=/|$)"
                return ("{\(written)}", written)
            case .wildcard: return ("{*}", ".+")
            }
        }
        let root = Node()
        for pattern in patterns {
            var path: [Node] = [root]
            for segment in pattern.segments {
                let (key, regex) = text(segment)
                let node = path.last!.children[key] ?? Node()
                node.isPlaceholder = regex != nil
                path.last!.children[key] = node
                path.append(node)
            }
            // Credit each segment with the literal run after it (up to the next placeholder).
            var run = 0
            for (node, segment) in zip(path.dropFirst(), pattern.segments).reversed() {
                node.literalTail = max(node.literalTail, run)
                if case .literal(let literal) = segment { run += literal.utf8.count + 1 } else { run = 0 }
            }
        }
        var stack = [root]
        while let node = stack.popLast() {
            stack.append(contentsOf: node.children.values)
            guard node.children.values.contains(where: \.isPlaceholder) else { continue }
            let combined = node.children.reduce(0) { total, child in
                // "^(" + edge + ")" + "|", the edge being the segment, its slash and its literal tail.
                total + 4 + (child.value.isPlaceholder ? child.key.utf8.count - 2 : child.key.utf8.count) + 1
                    + child.value.literalTail
            }
            if combined > 191 {
                return Inexpressible("a node would combine about \(combined) bytes of patterns; r3 1.3.4 builds them in a fixed 192-byte buffer (heap overflow)")
            }
        }
        return nil
    }

    /// A built-in constraint as the PCRE regex r3 can run.
    static func regex(forConstraint constraint: String) -> String {
        let hex = "[0-9a-fA-F]"
        switch constraint {
        case "int": return "-?[0-9]+"
        case "uint": return "[0-9]+"
        case "float": return #"-?[0-9]+(?:\.[0-9]+)?"#
        case "uuid": return "\(hex){8}-\(hex){4}-\(hex){4}-\(hex){4}-\(hex){12}"
        case "alpha": return "[A-Za-z]+"
        case "alnum": return "[A-Za-z0-9]+"
        case "hex": return "[0-9A-Fa-f]+"
        default: return constraint
        }
    }

    /// One route in r3's syntax. Constraints must match a whole segment, as in FastRouter,
    /// so all but `[^/]+` (bounded already, and r3's fast path) get a segment-end lookahead.
    static func r3Pattern(_ pattern: PathPattern) -> String {
        if pattern.segments.isEmpty { return "/" }
        return pattern.segments.map { segment -> String in
            switch segment {
            case .literal(let text): return "/" + text
            case .placeholder(let name): return "/{\(name)}"
            case .constrained(let name, let constraint):
                let expression = regex(forConstraint: constraint)
                return expression == "[^/]+" ? "/{\(name):[^/]+}" : "/{\(name):(?:\(expression))(?=/|$)}"
            case .wildcard(let name): return "/{\(name == "*" ? "rest" : name):.+}"
            }
        }.joined()
    }

    init(set: RouteSet) throws(BuildFailure) {
        guard case .success(let library) = R3Library.shared else { throw BuildFailure(description: R3Library.installHint) }
        guard case .success(let patterns) = PeerSupport.pathPatterns(of: set) else {
            throw BuildFailure(description: "r3 cannot express \(set.name)")
        }
        self.library = library
        self.patterns = patterns
        urls = StringTable(set.requests.map(\.url))
        let order = PeerSupport.specificityOrder(patterns)
        r3Patterns = StringTable(order.map { Self.r3Pattern(patterns[$0]) })
        var failure: String?
        let table = r3Patterns
        let (tree, cost) = BuildCost.measure { () -> UnsafeMutableRawPointer? in
            guard let tree = library.treeCreate(10) else { return nil }
            var message: UnsafeMutablePointer<CChar>?
            for (position, route) in order.enumerated() {
                let (pointer, length) = table.string(position)
                // The route's data pointer is its index + 1 (NULL means "no data" to r3).
                let data = UnsafeMutableRawPointer(bitPattern: route + 1)
                if library.treeInsertPath(tree, pointer, Int32(length), nil, data, &message) == nil || message != nil {
                    failure = "r3_tree_insert_path(\(String(cString: pointer))): \(message.map { String(cString: $0) } ?? "failed")"
                    return tree
                }
            }
            if library.treeCompile(tree, &message) != 0 {
                failure = "r3_tree_compile: \(message.map { String(cString: $0) } ?? "failed")"
            }
            return tree
        }
        guard let tree else { throw BuildFailure(description: "r3_tree_create returned NULL") }
        self.tree = tree
        build = cost
        if let failure { throw BuildFailure(description: failure) }
    }

    // The tree is never freed: r3 1.3.4's r3_tree_free double-frees some compiled trees (seen
    // on the generated sets), which would abort the run. The process exit reclaims it.

    func makeWorker() -> Worker { Worker(peer: self, entry: Entry(library: library)) }

    /// A `match_entry`, freed with its last worker.
    final class Entry {
        let library: R3Library
        let pointer: UnsafeMutableRawPointer
        /// The entry's `str_array *vars`.
        let vars: UnsafeMutableRawPointer

        init(library: R3Library) {
            self.library = library
            guard let pointer = "/".withCString({ library.entryCreate($0, 1) }),
                  let vars = pointer.load(as: UnsafeMutableRawPointer?.self) else {
                fatalError("match_entry_createl returned NULL: out of memory")
            }
            self.pointer = pointer
            self.vars = vars
        }

        deinit {
            clear()
            // match_entry_free must not free our URL buffer: point `path` at nothing first.
            pointer.storeBytes(of: nil, toByteOffset: R3Library.entryPathOffset, as: UnsafePointer<CChar>?.self)
            library.entryFree(pointer)
        }

        /// Frees the captured strings and empties the array for the next lookup.
        @inline(__always) @discardableResult
        func clear() -> Int {
            let count = Int(vars.load(fromByteOffset: R3Library.arrayLengthOffset, as: Int32.self))
            if count > 0 {
                let tokens = vars.load(as: UnsafeMutablePointer<UnsafeMutableRawPointer?>.self)
                for index in 0..<count { library.free(tokens[index]) }
                vars.storeBytes(of: 0, toByteOffset: R3Library.arrayLengthOffset, as: Int32.self)
            }
            return count
        }

        /// The captured strings, in order.
        func values() -> [String] {
            let count = Int(vars.load(fromByteOffset: R3Library.arrayLengthOffset, as: Int32.self))
            guard count > 0 else { return [] }
            let tokens = vars.load(as: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.self)
            return (0..<count).map { tokens[$0].map { String(cString: $0) } ?? "" }
        }
    }

    struct Worker: LookupWorker {
        let peer: R3Peer
        let entry: Entry

        @inline(__always)
        func match(_ index: Int) -> UnsafeMutableRawPointer? {
            let (pointer, length) = peer.urls.string(index)
            entry.pointer.storeBytes(of: pointer, toByteOffset: R3Library.entryPathOffset, as: UnsafePointer<CChar>.self)
            entry.pointer.storeBytes(of: Int32(length), toByteOffset: R3Library.entryPathLengthOffset, as: Int32.self)
            return peer.library.treeMatch(peer.tree, pointer, Int32(length), entry.pointer)
        }

        @inline(__always)
        mutating func lookup(_ index: Int) -> UInt64 {
            let node = match(index)
            let captured = entry.clear()
            let data = node?.load(fromByteOffset: R3Library.nodeDataOffset, as: UInt.self) ?? 0
            return UInt64(data) &+ UInt64(captured)
        }

        mutating func answer(_ index: Int) -> Answer {
            let node = match(index)
            let values = entry.values()
            entry.clear()
            guard let node else { return Answer(route: nil, parameters: [], failure: nil) }
            let data = node.load(fromByteOffset: R3Library.nodeDataOffset, as: UInt.self)
            guard data > 0 else { return Answer(route: nil, parameters: [], failure: "r3 matched a node without data") }
            let route = Int(data) - 1
            return Answer(route: route, parameters: PeerSupport.name(values: values, of: peer.patterns[route]), failure: nil)
        }
    }
}
