/// A human-readable listing of a router's tables, for debugging and `fr_router_dump`.
extension RouterCore {
    /// Every table with its routes (methods, pattern, priority, id), then its tree, one node (one
    /// segment) per line.
    ///
    /// ```
    /// table global (2 routes)
    ///   /users/:id  priority 0  id 1
    ///   ...
    ///   tree:
    ///     "users"
    ///       :param
    ///         -> id 1  priority 0  /users/:id
    /// ```
    ///
    /// Routes and trie come from one snapshot (one hold of the writer lock), so a concurrent
    /// add or remove shows in both parts or in neither.
    package func dump() -> String {
        withStableSnapshot { records, tables in
            let patterns = Dictionary(records.map { (UInt64($0.sequence), $0.pattern) }, uniquingKeysWith: { first, _ in first })
            var output = ""
            var roots = tables.all.map { (name: $0.scheme.map { String(decoding: $0, as: UTF8.self) } ?? "global", root: $0.root) }
            roots.sort { $0.name == "global" ? true : ($1.name == "global" ? false : $0.name < $1.name) }
            for (name, root) in roots {
                let inTable = records.filter { ($0.scheme ?? "global") == name && ($0.scheme != nil || name == "global") }
                output += "table \(name) (\(inTable.count) route\(inTable.count == 1 ? "" : "s"))\n"
                for record in inTable {
                    output += "  \(RouteDescription.methodPrefix(record.methods))\(record.pattern)  priority \(record.priority)  id \(record.id)\n"
                }
                output += "  tree:\n"
                dumpNode(root, label: "", indent: 4, patterns: patterns, into: &output)
            }
            return output
        }
    }

    /// One line per node: how it is reached (`"literal"`, `{constraint}`, `:param`), then a line
    /// per route ending there, then its children (literal ones in index or chunk order). Depth
    /// first with a stack of its own, not recursion: a path may be thousands of nodes deep.
    private func dumpNode(_ root: Node, label: String, indent: Int, patterns: [UInt64: String], into output: inout String) {
        var stack: [(node: Node, label: String, indent: Int)] = [(root, label, indent)]
        while let (node, label, indent) = stack.popLast() {
            dumpLines(node, label: label, indent: indent, patterns: patterns, into: &output)
            var children: [(node: Node, label: String, indent: Int)] = []
            for child in node.literalList { children.append((child, "", indent + 2)) }
            for edge in node.edgeList { children.append((edge.child, edgeLabel(edge) + " ", indent + 2)) }
            if node.hasParameter { children.append((node.parameterChild, ":param ", indent + 2)) }
            stack += children.reversed()
        }
    }

    /// The node's own line and its routes' lines.
    private func dumpLines(_ node: Node, label: String, indent: Int, patterns: [UInt64: String], into output: inout String) {
        let pad = String(repeating: " ", count: indent)
        let text = String(decoding: node.labelBytes.map { $0 == 0 ? UInt8(ascii: "/") : $0 }, as: UTF8.self)
        let line = label + (text.isEmpty ? "" : "\"\(text)\"")
        if !line.isEmpty { output += "\(pad)\(line)\n" }
        func describe(_ terminals: [Terminal], _ mark: String) {
            for terminal in terminals {
                let shape = terminal.shape.pointee
                var host = ""
                if let rule = shape.host {
                    host = "  host " + (shape.hostRank == 1 ? "*" : "")
                        + String(decoding: UnsafeBufferPointer(start: rule, count: shape.hostLength), as: UTF8.self)
                }
                let methods = shape.anyMethod ? ""
                    : "  methods " + self.methods.methods(in: MethodSet(mask: shape.methods, isAny: false))
                        .map(\.rawValue).joined(separator: ",")
                output += "\(pad)  \(mark)-> id \(terminal.routeID(payloads: holdsPayloads))  priority \(shape.priority)\(host)\(methods)  "
                    + "\(patterns[terminal.sequence] ?? "")\n"
            }
        }
        describe(node.terminalList, "")
        describe(node.wildcardList, "* ")
    }

    /// How an edge shows: a partial segment's template, `{regex}` or `{constraint}`.
    private func edgeLabel(_ edge: Edge) -> String {
        if edge.code == BuiltinCode.partial.rawValue {
            let template = Unmanaged<PartialTemplate>.fromOpaque(edge.matcher!).takeUnretainedValue()
            return (0..<template.pieceCount).map { index in
                let piece = template.pieces[index]
                if let text = piece.text {
                    return String(decoding: UnsafeBufferPointer(start: text, count: piece.textLength), as: UTF8.self)
                }
                return "{}"
            }.joined()
        } else if let regex = edge.matcher {
            return "{" + Unmanaged<CompiledRegex>.fromOpaque(regex).takeUnretainedValue().source + "}"
        }
        return "{\(BuiltinCode(rawValue: edge.code).map { "\($0)" } ?? "?")}"
    }
}
