import CBenchLoops

/// r3 (c9s/r3), loaded at run time and set up as a performance-minded C user would: plain
/// placeholders as `{name}` (r3's implicit `[^/]+` slug, which it matches with a byte loop
/// where a node has no other kind of edge), constrained ones with their regex, routes inserted most specific first (r3 takes the
/// first edge that matches and never backtracks: in file order it answers no route for some
/// GitHub and Google+ URLs), the tree compiled once, one reused `match_entry` per thread, and
/// the timed lookups in C (`CBenchLoops`). Captures are strings r3 allocates per lookup; reading
/// and freeing them belongs to the lookup, as it does for any r3 user. A set looked up with
/// methods uses r3's own method conditions (`R3Peer+Methods.swift`).
final class R3Peer: Contender, @unchecked Sendable {
    // Safety: the compiled tree is only read by r3_tree_matchl; each thread has its own entry.
    let library: R3Library
    /// r3's lookup function, its free and the compiled tree, where the C loops read them.
    let functions: UnsafeMutablePointer<bench_r3>
    let urls: StringTable
    /// Request i's METHOD_* bit, on a set looked up with methods; `nil` otherwise.
    let methods: UnsafeMutablePointer<Int32>?
    let patterns: [PathPattern]
    /// The translated patterns, kept for the tree's lifetime in case r3 points into them.
    let r3Patterns: StringTable
    let build: BuildCost

    /// The reason r3 cannot take `set`, or `nil`.
    static func inexpressible(_ set: RouteSet) -> Inexpressible? {
        if case .failure(let reason) = R3Library.shared { return reason }
        if let reason = methodsInexpressible(set) { return reason }
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
        methods = Self.requestBits(set)
        // A route's METHOD_* mask (0 for any method), or nil when the set has no methods.
        let masks = set.looksUpMethods ? set.routes.map { Self.mask($0.methods) } : nil
        let order = PeerSupport.specificityOrder(patterns)
        r3Patterns = StringTable(order.map { Self.r3Pattern(patterns[$0]) })
        var failure: String?
        let table = r3Patterns
        let (tree, cost) = BuildCost.measure { () -> UnsafeMutablePointer<bench_r3_node>? in
            guard let tree = library.treeCreate(10) else { return nil }
            var message: UnsafeMutablePointer<CChar>?
            for (position, route) in order.enumerated() {
                let (pointer, length) = table.string(position)
                // The route's data pointer is its index + 1 (NULL means "no data" to r3).
                let data = UnsafeMutableRawPointer(bitPattern: route + 1)
                if let masks {
                    if library.treeInsertRoute(tree, masks[route], pointer, Int32(length), data, &message) == nil
                        || message != nil {
                        failure = "r3_tree_insert_routel_ex(\(String(cString: pointer))): \(message.map { String(cString: $0) } ?? "failed")"
                        return tree
                    }
                } else if library.treeInsertPath(tree, pointer, Int32(length), nil, data, &message) == nil || message != nil {
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
        functions = .allocate(capacity: 1)
        functions.initialize(to: bench_r3(match: library.treeMatch, free: library.free, tree: tree,
                                          match_route: library.treeMatchRoute))
        build = cost
        if let failure { throw BuildFailure(description: failure) }
    }

    // The tree is never freed: r3 1.3.4's r3_tree_free double-frees some compiled trees (seen
    // on the generated sets), which would abort the run. The process exit reclaims it.
    deinit {
        functions.deallocate()
        methods?.deallocate()
    }

    func makeWorker() -> Worker { Worker(peer: self, entry: Entry(library: library)) }

    /// A `match_entry`, freed with its last worker.
    final class Entry {
        let library: R3Library
        let pointer: UnsafeMutablePointer<bench_r3_match_entry>

        init(library: R3Library) {
            self.library = library
            guard let pointer = "/".withCString({ library.entryCreate($0, 1) }) else {
                fatalError("match_entry_createl returned NULL: out of memory")
            }
            // The entry's path is never read by r3_tree_matchl (the path is its argument), and
            // match_entry_free must not free the literal above.
            pointer.pointee.path = nil
            // match_entry_createl leaves these unset; r3_tree_match_route compares a route's
            // host and method with them.
            pointer.pointee.host = nil
            pointer.pointee.host_len = 0
            pointer.pointee.remote_addr = nil
            pointer.pointee.remote_addr_len = 0
            pointer.pointee.request_method = 0
            self.pointer = pointer
        }

        deinit {
            clear()
            library.entryFree(pointer)
        }

        /// Frees the captured strings and empties the array for the next lookup.
        func clear() {
            let vars = pointer.pointee.vars!
            for index in 0..<Int(vars.pointee.len) { library.free(vars.pointee.tokens[index]) }
            vars.pointee.len = 0
        }

        /// The captured strings, in order.
        func values() -> [String] {
            let vars = pointer.pointee.vars!
            return (0..<Int(vars.pointee.len)).map { vars.pointee.tokens[$0].map { String(cString: $0) } ?? "" }
        }
    }

    struct Worker: LookupWorker {
        let peer: R3Peer
        let entry: Entry

        // The choice between the two C loops is made once per call, outside the loops.
        @inline(__always)
        mutating func lookup(_ index: Int) -> UInt64 {
            let (pointer, length) = peer.urls.string(index)
            guard let methods = peer.methods else { return bench_r3_lookup(peer.functions, entry.pointer, pointer, length) }
            return bench_r3_method_lookup(peer.functions, entry.pointer, pointer, length, methods[index])
        }

        @inline(__always)
        mutating func run(from first: Int, lookups: Int, count: Int) -> UInt64 {
            guard let methods = peer.methods else {
                return bench_r3_run(peer.functions, entry.pointer, peer.urls.base, peer.urls.starts, count, first, lookups)
            }
            return bench_r3_method_run(peer.functions, entry.pointer, peer.urls.base, peer.urls.starts, methods, count, first,
                                       lookups)
        }

        /// What r3 finds for request `index`: `nil` for nothing, else the data of the node
        /// (a set without methods) or of the route (with them) it found, which may be NULL.
        private func find(_ index: Int) -> UnsafeMutableRawPointer?? {
            let (pointer, length) = peer.urls.string(index)
            guard let methods = peer.methods else {
                let node = peer.library.treeMatch(peer.functions.pointee.tree, pointer, Int32(length), entry.pointer)
                return node.map { $0.pointee.data }
            }
            entry.pointer.pointee.path = pointer
            entry.pointer.pointee.path_len = Int32(length)
            entry.pointer.pointee.request_method = methods[index]
            return peer.library.treeMatchRoute(peer.functions.pointee.tree, entry.pointer).map { $0.pointee.data }
        }

        mutating func answer(_ index: Int) -> Answer {
            let found = find(index)
            let values = entry.values()
            entry.clear()
            guard let found else { return Answer(route: nil, parameters: [], failure: nil) }
            guard let data = found else {
                return Answer(route: nil, parameters: [], failure: "r3 matched a node without data")
            }
            let route = Int(bitPattern: data) - 1
            return Answer(route: route, parameters: PeerSupport.name(values: values, of: peer.patterns[route]), failure: nil)
        }
    }
}
