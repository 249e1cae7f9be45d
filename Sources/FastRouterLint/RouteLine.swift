import FastRouter

/// One line of a routes file, the format `fastrouter-bench --routes` and ``RouteLinter`` read:
/// `[METHOD] pattern [priority]`, fields separated by spaces or tabs, the method in upper case
/// (and otherwise ignored), the priority a 32-bit integer (0 when absent).
package struct RouteLine {
    /// What is wrong with a line, as a message naming it.
    package struct Problem: Error {
        package var message: String
    }

    package var method: String?
    package var pattern: String
    package var priority: Int32

    /// Reads a line that is neither blank nor a comment, already trimmed.
    package init(_ text: String) throws(Problem) {
        var fields = text.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        if fields.count >= 2, Self.isMethod(fields[0]) { method = fields.removeFirst() }
        guard fields.count == 1 || fields.count == 2 else {
            throw Problem(message: "expected '[METHOD] pattern [priority]', got '\(text)'")
        }
        pattern = fields[0]
        priority = 0
        if fields.count == 2 {
            guard let value = Int32(fields[1]) else { throw Problem(message: Self.priorityProblem(fields[0], fields[1])) }
            priority = value
        }
    }

    /// Whether a field is a method: upper-case letters only.
    package static func isMethod(_ field: String) -> Bool {
        !field.isEmpty && field.utf8.allSatisfy { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") }
    }

    /// Why `second` cannot be the priority of a line whose first field is `first`: a line such
    /// as `get /a` is a method not written in upper case, not a bad priority.
    private static func priorityProblem(_ first: String, _ second: String) -> String {
        let looksLikePattern = second.hasPrefix("/") || second.hasPrefix("(") || second.contains("://")
        if looksLikePattern && !isMethod(first) {
            return "expected '[METHOD] pattern [priority]', got '\(first) \(second)': a method is written in upper case (GET), a priority is an integer"
        }
        return "priority '\(second)' is not a 32-bit integer"
    }
}
