/// A human-readable listing of a router's tables, for debugging and `fr_router_dump`.
extension RouterCore {
    /// Every table with its routes (pattern, priority, id), then its trie, one node per line.
    ///
    /// ```
    /// table global (2 routes)
    ///   /users/:id  priority 0  id 1
    ///   ...
    ///   trie:
    ///     users
    ///       :param  -> id 1 /users/:id
    /// ```
    ///
    /// Routes and trie come from one snapshot (one hold of the writer lock), so a concurrent
    /// add or remove shows in both parts or in neither.
    package func dump() -> String {
        withStableSnapshot { records, side in
            let patterns = Dictionary(records.map { (UInt64($0.sequence), $0.pattern) }, uniquingKeysWith: { first, _ in first })
            var output = ""
            var tables: [(name: String, root: UInt32)] = [("global", TableSide.globalRoot)]
            for index in 0..<side.schemes.count {
                let entry = side.schemes[index]
                let name = String(decoding: UnsafeBufferPointer(start: side.keys.base + Int(entry.keyOffset),
                                                                count: Int(entry.keyLength)), as: UTF8.self)
                tables.append((name, entry.root))
            }
            tables.sort { $0.name == "global" ? true : ($1.name == "global" ? false : $0.name < $1.name) }
            for (name, root) in tables {
                let inTable = records.filter { ($0.scheme ?? "global") == name && ($0.scheme != nil || name == "global") }
                output += "table \(name) (\(inTable.count) route\(inTable.count == 1 ? "" : "s"))\n"
                for record in inTable {
                    output += "  \(record.pattern)  priority \(record.priority)  id \(record.id)\n"
                }
                output += "  trie:\n"
                dumpNode(side, root, indent: 4, patterns: patterns, into: &output)
            }
            return output
        }
    }

    private func dumpNode(_ side: TableSide, _ index: UInt32, indent: Int, patterns: [UInt64: String],
                          into output: inout String) {
        let node = side.nodes[Int(index)]
        let pad = String(repeating: " ", count: indent)
        func describeVariants(_ head: UInt32, _ label: String) {
            var variant = head
            while variant != 0 {
                let entry = side.variants[Int(variant)]
                var host = ""
                if entry.hostLength > 0 {
                    let bytes = UnsafeBufferPointer(start: side.keys.base + Int(entry.hostOffset), count: Int(entry.hostLength))
                    host = "  host " + (entry.hostRank == 1 ? "*" : "") + String(decoding: bytes, as: UTF8.self)
                }
                output += "\(pad)\(label)-> id \(entry.routeID)  priority \(entry.priority)\(host)  "
                    + "\(patterns[entry.sequence] ?? "")\n"
                variant = entry.next
            }
        }
        describeVariants(node.firstTerminal, "")
        describeVariants(node.firstWildcard, "* ")
        var children: [(String, UInt32)] = []
        for slot in 0..<side.literalSlots.count {
            let entry = side.literalSlots[slot]
            guard entry.child != 0, side.nodes[Int(entry.child)].parent == index else { continue }
            let child = side.nodes[Int(entry.child)]
            let key = UnsafeBufferPointer(start: side.keys.base + Int(child.keyOffset), count: Int(child.keyLength))
            children.append((String(decoding: key, as: UTF8.self), entry.child))
        }
        children.sort { $0.0 < $1.0 }
        var edge = node.firstConstraintEdge
        while edge != 0 {
            let entry = side.constraintEdges[Int(edge)]
            let label: String
            if entry.code == BuiltinCode.partial.rawValue {
                let template = Unmanaged<PartialTemplate>.fromOpaque(entry.regex!).takeUnretainedValue()
                label = (0..<template.pieceCount).map { index in
                    let piece = template.pieces[index]
                    if let text = piece.text {
                        return String(decoding: UnsafeBufferPointer(start: text, count: piece.textLength), as: UTF8.self)
                    }
                    return "{}"
                }.joined()
            } else if let regex = entry.regex {
                label = "{" + Unmanaged<CompiledRegex>.fromOpaque(regex).takeUnretainedValue().source + "}"
            } else {
                label = "{\(BuiltinCode(rawValue: entry.code).map { "\($0)" } ?? "?")}"
            }
            children.append((label, entry.child))
            edge = entry.next
        }
        if node.parameterChild != 0 { children.append((":param", node.parameterChild)) }
        for (label, child) in children {
            output += "\(pad)\(label)\n"
            dumpNode(side, child, indent: indent + 2, patterns: patterns, into: &output)
        }
    }
}
