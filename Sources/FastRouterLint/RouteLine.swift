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

/// Which route each line of a routes file names, for ``RouteLinter`` and the benchmark alike. Two
/// lines name one route when their patterns have the same ``DuplicateKey`` for every expansion:
/// same table, host, priority and segment shapes, parameter names aside (docs/SEMANTICS.md §3.6).
/// A line naming an earlier line's route with a method that route has not had yet adds the
/// method (`GET /users/:id`, then `PUT /users/:name`); naming it otherwise is a duplicate.
package struct RouteLineIndex {
    /// What a line names.
    package enum Reading: Equatable {
        /// A route no recorded line names, or a pattern that does not parse.
        case newRoute
        /// Another method of the route first named on line `line`.
        case anotherMethod(line: Int)
        /// The route first named on line `line`, with `pattern`, again.
        case duplicate(line: Int, pattern: String)
    }

    private let core: RouterCore
    /// The keys of each recorded route → its first line, its pattern and the methods seen for it.
    private var routes: [[DuplicateKey]: (line: Int, pattern: String, methods: Set<String>)] = [:]

    /// An empty index for routes registered in `core` (its options decide how patterns parse).
    package init(core: RouterCore) {
        self.core = core
    }

    /// What `line` names, and its keys (`nil` when its pattern does not parse). A new method is
    /// recorded for its route; a new route is recorded by ``record(_:keys:number:)``.
    package mutating func read(_ line: RouteLine) -> (reading: Reading, keys: [DuplicateKey]?) {
        guard let parsed = try? core.parsedPattern(line.pattern) else { return (.newRoute, nil) }
        let keys = DuplicateKey.keys(of: parsed, priority: line.priority)
        guard let earlier = routes[keys] else { return (.newRoute, keys) }
        if let method = line.method, !earlier.methods.isEmpty, !earlier.methods.contains(method) {
            routes[keys]?.methods.insert(method)
            return (.anotherMethod(line: earlier.line), keys)
        }
        return (.duplicate(line: earlier.line, pattern: earlier.pattern), keys)
    }

    /// Records the route of `line` (number `number`), read as new with `keys`.
    package mutating func record(_ line: RouteLine, keys: [DuplicateKey]?, number: Int) {
        guard let keys, routes[keys] == nil else { return }
        routes[keys] = (number, line.pattern, line.method.map { [$0] } ?? [])
    }
}
