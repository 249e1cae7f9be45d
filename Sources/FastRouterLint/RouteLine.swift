import FastRouter

/// One line of a routes file, the format `fastrouter-bench --routes` and ``RouteLinter`` read:
/// `[METHOD,…] pattern [priority]`, fields separated by spaces or tabs. The first field is a
/// comma-separated method list when the line has one (`GET`, `GET,HEAD`; `*` for any method, as
/// when the field is left out); the priority is a 32-bit integer (0 when absent).
package struct RouteLine {
    /// What is wrong with a line, as a message naming it.
    package struct Problem: Error {
        /// The one-line explanation.
        package var message: String
        /// ``LintFinding/Kind-swift.enum/invalidLine``, or
        /// ``LintFinding/Kind-swift.enum/invalidMethod`` for a method list that does not parse.
        package var kind: LintFinding.Kind = .invalidLine
    }

    /// The methods the route accepts, in written order, each once; empty for any method.
    package var methods: [HTTPMethod]
    /// The pattern, as written.
    package var pattern: String
    /// The priority, 0 when the line gives none.
    package var priority: Int32

    /// The form a line takes, for messages.
    static let format = "[METHOD,…] pattern [priority]"

    /// Reads a line that is neither blank nor a comment, already trimmed.
    package init(_ text: String) throws(Problem) {
        var fields = Self.fields(of: text)[...]
        let methodField = Self.startsWithMethods(Array(fields)) ? fields.removeFirst() : nil
        guard fields.count == 1 || fields.count == 2 else {
            throw Problem(message: "expected '\(Self.format)', got '\(text)'")
        }
        pattern = fields[fields.startIndex]
        methods = try methodField.map { field throws(Problem) in try MethodField.methods(in: field) } ?? []
        priority = 0
        if fields.count == 2 {
            guard let value = Int32(fields[fields.startIndex + 1]) else {
                throw Problem(message: "priority '\(fields[fields.startIndex + 1])' is not a 32-bit integer")
            }
            priority = value
        }
    }

    /// Whether a field is one method: an RFC 9110 token (URL files put one before a URL).
    package static func isMethod(_ field: String) -> Bool {
        HTTPMethod(rawValue: field) != nil
    }

    /// The line's fields. A method list written with spaces around its commas (`GET, POST /a`)
    /// stays one field: a comma never ends a pattern or a priority, so it joins its neighbours,
    /// but for a pattern after a trailing comma (`GET, /a`: an empty method name).
    private static func fields(of text: String) -> [String] {
        var fields: [String] = []
        for field in text.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init) {
            if let last = fields.last, (last.hasSuffix(",") && !looksLikePattern(field)) || field.hasPrefix(",") {
                fields[fields.count - 1] = last + field
            } else {
                fields.append(field)
            }
        }
        return fields
    }

    /// Whether the first of `fields` is a method list rather than the pattern. A pattern starts
    /// with `/` or `(` or holds `://`, so anything else before a second field is taken for
    /// methods when a pattern follows it or it reads as a method list: `GÉT /a` is then a bad
    /// method, while `users/:id 1` stays a (bad) pattern with a priority.
    private static func startsWithMethods(_ fields: [String]) -> Bool {
        guard fields.count >= 2, !looksLikePattern(fields[0]) else { return false }
        return fields.count >= 3 || looksLikePattern(fields[1]) || MethodField.readsAsList(fields[0])
    }

    /// Whether a field starts the way a pattern must.
    private static func looksLikePattern(_ field: String) -> Bool {
        field.hasPrefix("/") || field.hasPrefix("(") || field.contains("://")
    }
}
