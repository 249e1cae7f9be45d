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
    /// per route ending there, then its children (literal ones in index or chunk order).
    private func dumpNode(_ node: Node, label: String, indent: Int, patterns: [UInt64: String], into output: inout String) {
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
                output += "\(pad)  \(mark)-> id \(terminal.routeID)  priority \(terminal.priority)\(host)\(methods)  "
                    + "\(patterns[terminal.sequence] ?? "")\n"
            }
        }
        describe(node.terminalList, "")
        describe(node.wildcardList, "* ")
        for child in node.literalList {
            dumpNode(child, label: "", indent: indent + 2, patterns: patterns, into: &output)
        }
        for edge in node.edgeList {
            let label: String
            if edge.code == BuiltinCode.partial.rawValue {
                let template = Unmanaged<PartialTemplate>.fromOpaque(edge.matcher!).takeUnretainedValue()
                label = (0..<template.pieceCount).map { index in
                    let piece = template.pieces[index]
                    if let text = piece.text {
                        return String(decoding: UnsafeBufferPointer(start: text, count: piece.textLength), as: UTF8.self)
                    }
                    return "{}"
                }.joined()
            } else if let regex = edge.matcher {
                label = "{" + Unmanaged<CompiledRegex>.fromOpaque(regex).takeUnretainedValue().source + "}"
            } else {
                label = "{\(BuiltinCode(rawValue: edge.code).map { "\($0)" } ?? "?")}"
            }
            dumpNode(edge.child, label: label + " ", indent: indent + 2, patterns: patterns, into: &output)
        }
        if node.hasParameter {
            dumpNode(node.parameterChild, label: ":param ", indent: indent + 2, patterns: patterns, into: &output)
        }
    }
}
