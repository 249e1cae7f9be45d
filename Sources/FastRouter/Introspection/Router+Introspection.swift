/// A registered route as introspection shows it.
public struct RouteDescription: Sendable, Hashable, CustomStringConvertible {
    /// The pattern as registered.
    public var pattern: String
    /// Its priority.
    public var priority: Int32
    /// Its id.
    public var id: UInt64
    /// The lower-cased scheme of its table, or `nil` for the global table.
    public var scheme: String?
    /// The HTTP methods it accepts, standard ones first in RFC 9110 order; empty for any method.
    public var methods: [HTTPMethod]

    /// Describes a route; `methods` empty for any method.
    public init(pattern: String, priority: Int32, id: UInt64, scheme: String?, methods: [HTTPMethod] = []) {
        self.pattern = pattern
        self.priority = priority
        self.id = id
        self.scheme = scheme
        self.methods = methods
    }

    /// The table's name: the scheme, or `global`.
    public var table: String { scheme ?? "global" }

    /// `[METHODS ]pattern  priority P  id I  table T`, as in ``Router/dump()``: the methods
    /// comma-separated before the pattern, as a routes file writes them, when there are any.
    public var description: String {
        "\(RouteDescription.methodPrefix(methods))\(pattern)  priority \(priority)  id \(id)  table \(table)"
    }

    /// `GET,POST ` for those methods, nothing for any method.
    static func methodPrefix(_ methods: [HTTPMethod]) -> String {
        methods.isEmpty ? "" : methods.map(\.rawValue).joined(separator: ",") + " "
    }
}

extension Router {
    /// Every registered route, in registration order (a pattern with optional groups once).
    ///
    /// - Complexity: O(routes); takes the writer lock briefly, so it waits for a running add or remove.
    public var routes: [RouteDescription] {
        core.routes.map {
            RouteDescription(pattern: $0.pattern, priority: $0.priority, id: $0.id, scheme: $0.scheme, methods: $0.methods)
        }
    }

    /// A readable listing of every table: its routes, then its trie one node per line.
    ///
    /// For debugging: the format may change. The C ABI's `fr_router_dump` writes the same text.
    public func dump() -> String { core.dump() }

    /// Builds the URL of a route from parameter values (reverse routing).
    ///
    /// ```swift
    /// let id = try router.add("myapp://users/{id:int}(/posts)", value: "user")
    /// try router.url(for: id, parameters: ["id": "42", "tab": "new"])   // "myapp://users/42?tab=new"
    /// ```
    ///
    /// Each placeholder takes the first value of its name; the expansion of the optional groups
    /// that uses the most given names is built (an empty value for a placeholder inside an
    /// optional group counts as not given); values are checked against their constraints and
    /// percent-encoded; the other pairs become the query, in order. The URL is matched back and
    /// must give the route the same values. A global route gives a path, a custom-scheme route
    /// `scheme://…`, a web route with an exact host an absolute URL; a web route accepting several
    /// hosts gives an absolute URL on `host`, or its path when `host` is `nil`.
    ///
    /// - Parameters:
    ///   - id: the route id (the first route registered with it when several share it).
    ///   - parameters: (name, value) pairs, values not encoded.
    ///   - host: for a web route, the host (`host` or `host:port`) to build on; it must satisfy the route's host rule.
    /// - Throws: ``RouterError`` `.notFound` for an unknown id; `.invalidArgument` for a missing,
    ///   empty or constraint-violating value of a required placeholder, a name or value holding
    ///   NUL, an unusable host, or values that cannot round-trip.
    /// - Complexity: O(pattern and value length), plus compiling the route's regexes and one lookup.
    public func url(for id: UInt64, parameters: KeyValuePairs<String, String> = [:], host: String? = nil) throws(RouterError) -> String {
        try core.url(for: id, parameters: parameters.map { ($0.key, $0.value) }, host: host)
    }

    /// Builds the URL of a route from (name, value) pairs, e.g. a match's ``Match/parameters``.
    ///
    /// The same as the `KeyValuePairs` form; `Array(match.parameters)` rebuilds a matched URL.
    public func url(for id: UInt64, parameters: [(name: String, value: String)], host: String? = nil) throws(RouterError) -> String {
        try core.url(for: id, parameters: parameters, host: host)
    }
}
