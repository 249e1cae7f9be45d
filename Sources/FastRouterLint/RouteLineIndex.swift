import FastRouter

/// Which route each line of a routes file names, for a reader that merges the lines of one path
/// into one route, as the benchmark does for lookups without a method. Two lines name one route
/// when their patterns have the same ``DuplicateKey`` for every expansion: same table, host,
/// priority and segment shapes, parameter names aside (docs/SEMANTICS.md §3.6). A line naming an
/// earlier line's route with methods that route has not had yet adds them (`GET /users/:id`, then
/// `PUT,PATCH /users/:name`); naming it with a method it has, or for any method, is a duplicate,
/// as registering both lines would be (§3.7: duplicates need overlapping methods).
/// ``RouteLinter`` registers every line as a route of its own instead.
package struct RouteLineIndex {
    /// What a line names.
    package enum Reading: Equatable {
        /// A route no recorded line names, or a pattern that does not parse.
        case newRoute
        /// Other methods of the route first named on line `line`.
        case anotherMethod(line: Int)
        /// The route first named on line `line`, with `pattern`, again.
        case duplicate(line: Int, pattern: String)
    }

    private let core: RouterCore
    /// The keys of each recorded route → its first line, its pattern and the methods seen for it
    /// (empty: any method).
    private var routes: [[DuplicateKey]: (line: Int, pattern: String, methods: Set<HTTPMethod>)] = [:]

    /// An empty index for routes registered in `core` (its options decide how patterns parse).
    package init(core: RouterCore) {
        self.core = core
    }

    /// What `line` names, and its keys (`nil` when its pattern does not parse). New methods are
    /// recorded for their route; a new route is recorded by ``record(_:keys:number:)``.
    package mutating func read(_ line: RouteLine) -> (reading: Reading, keys: [DuplicateKey]?) {
        guard let parsed = try? core.parsedPattern(line.pattern) else { return (.newRoute, nil) }
        let keys = DuplicateKey.keys(of: parsed, priority: line.priority)
        guard let earlier = routes[keys] else { return (.newRoute, keys) }
        let methods = Set(line.methods)
        if !methods.isEmpty, !earlier.methods.isEmpty, methods.isDisjoint(with: earlier.methods) {
            routes[keys]?.methods.formUnion(methods)
            return (.anotherMethod(line: earlier.line), keys)
        }
        return (.duplicate(line: earlier.line, pattern: earlier.pattern), keys)
    }

    /// Records the route of `line` (number `number`), read as new with `keys`.
    package mutating func record(_ line: RouteLine, keys: [DuplicateKey]?, number: Int) {
        guard let keys, routes[keys] == nil else { return }
        routes[keys] = (number, line.pattern, Set(line.methods))
    }
}
