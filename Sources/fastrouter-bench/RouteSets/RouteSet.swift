/// One (name, value) pair a lookup is expected to capture, or did capture.
struct Parameter: Equatable, Sendable, Codable, CustomStringConvertible {
    var name: String
    var value: String

    var description: String { "\(name)=\(value)" }
}

/// A route to register: a pattern in FastRouter's language, its priority and its methods.
struct RouteSpec: Sendable, Equatable {
    var pattern: String
    var priority: Int32 = 0
    /// The HTTP methods the route accepts (case-sensitive tokens); empty for any method (every
    /// set looked up without a method registers its routes so).
    var methods: [String] = []
}

/// A request URL and what a correct router answers for it.
struct Request: Sendable {
    /// The URL exactly as it is handed to every router.
    var url: String
    /// Index into ``RouteSet/routes`` of the route that must answer.
    var route: Int
    /// Every pair FastRouter must capture, in order (path parameters, the wildcard, then the
    /// query pairs), or `nil` when the set does not know them (user-supplied URL files).
    var parameters: [Parameter]?
    /// How many leading pairs of ``parameters`` come from the path; the rest are query pairs,
    /// which peers do not parse.
    var pathParameterCount: Int
    /// The request's HTTP method, or `nil` for a lookup without one.
    var method: String? = nil
}

/// A set's routes and requests as a server sees them: each route under its own methods, each
/// request looked up with its method (docs/SEMANTICS.md §3.7). The set itself merges equal paths
/// and ignores methods; this is the same list read with them.
struct MethodVariant: Sendable {
    /// One route per line of the source list, with its methods (`GET /a` and `POST /a` are two).
    var routes: [RouteSpec]
    /// The set's request URLs in the same order, each with its method; `route` indexes
    /// ``routes``.
    var requests: [Request]
}

/// A named workload: the routes a router is built from and the requests looked up in it.
struct RouteSet: Sendable {
    /// What a set stands for; decides which comparisons and targets apply to it.
    enum Kind: String, Sendable, Codable {
        /// A real API's route list (GitHub, Google+, Parse).
        case api
        /// Static paths only.
        case staticFiles = "static"
        /// An API set rewritten with constrained placeholders, compared with its plain original.
        case constrained
        /// App deep links and universal links: schemes, hosts, constraints, groups, queries.
        case deepLink = "deep-link"
        /// Generated at a given size to show how lookups and memory scale.
        case scale
        /// Read from `--routes` / `--urls`.
        case custom
    }

    var name: String
    var summary: String
    var kind: Kind
    var routes: [RouteSpec]
    var requests: [Request]
    /// For a constrained variant, the set with plain placeholders it is compared with.
    var plainCounterpart: String? = nil
    /// How the set was produced (source list, generator and seed), for the report.
    var origin: String
    /// The same list with its methods, when it has them (the route lists; `--routes` files
    /// with methods): measured as the set's "with methods" rows.
    var methodVariant: MethodVariant? = nil
}

extension RouteSet {
    /// Whether any request URL carries a scheme (`myapp://`, `https://`).
    var hasSchemes: Bool { requests.contains { $0.url.contains("://") } }

    /// Whether the requests are looked up with their methods: true for a set made by
    /// ``withMethods()``, and the routers then call their method APIs.
    var looksUpMethods: Bool { requests.contains { $0.method != nil } }

    /// The set the "with methods" rows measure: ``methodVariant``'s routes and requests under
    /// this set's name, or `nil` when the set has no methods.
    func withMethods() -> RouteSet? {
        guard let methodVariant else { return nil }
        return RouteSet(name: name, summary: summary, kind: kind, routes: methodVariant.routes,
                        requests: methodVariant.requests, origin: "\(origin), read with its methods")
    }
}
