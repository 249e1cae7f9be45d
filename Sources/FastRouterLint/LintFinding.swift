import FastRouter

/// A problem found in a route table: a line, method list or pattern that cannot be registered, a
/// duplicate, a route that can never be the first candidate (for some or all of its methods), two
/// routes only registration order tells apart, or a method that is likely a mistake.
public struct LintFinding: Sendable, Equatable, CustomStringConvertible {
    /// What kind of problem it is.
    public enum Kind: String, Sendable, CaseIterable {
        /// A routes-file line that is not `[METHOD,…] pattern [priority]`.
        case invalidLine
        /// A routes-file method list that does not parse (an empty item, a name that is not an
        /// HTTP token, `*` next to other methods), or a method name beyond the router's 64.
        case invalidMethod
        /// A pattern the pattern language rejects (``LintFinding/offset`` says where).
        case invalidPattern
        /// A route the router rejects as a duplicate of an earlier one: the same path (table,
        /// host, priority, segment shapes) and a method in common.
        case duplicateRoute
        /// A route that is never the first candidate: a higher-precedence route that accepts its
        /// methods matches every URL it matches.
        case shadowedRoute
        /// A route that is never the first candidate for some of its methods (better routes that
        /// accept them match every URL it matches) but still is for others.
        case partlyShadowedRoute
        /// A route with methods that is never the first candidate for any of them, though no one
        /// route takes them all: each method goes to a better route.
        case unreachableMethods
        /// Two routes of equal precedence that match a common URL and accept a common method:
        /// only registration order decides.
        case ambiguousRoutes
        /// A method that differs from a standard one only by case (`get`, `Post`): methods are
        /// case-sensitive, so requests with the standard method do not reach the route through it.
        case methodCase
        /// A route that accepts GET but not HEAD, for URLs where another route that accepts GET
        /// and HEAD has equal precedence but for registration: GET requests go to the earlier
        /// route, HEAD requests to the one naming HEAD (docs/SEMANTICS.md §3.7).
        case headServedElsewhere
    }

    /// How bad it is: errors stop a table from loading; warnings are routes that load but do not work as written.
    public enum Severity: String, Sendable, Comparable {
        /// The table loads, but a route does not work as written.
        case warning
        /// The route or line cannot be loaded.
        case error

        /// Warnings order before errors.
        public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs == .warning && rhs == .error }
    }

    /// What kind of problem it is.
    public var kind: Kind
    /// Error or warning.
    public var severity: Severity
    /// A one-line explanation naming the routes involved.
    public var message: String
    /// The route the finding is about (`nil` for a line that holds no route).
    public var route: RouteDescription?
    /// The other route involved: the one that shadows, the earlier duplicate, the other of an ambiguous pair.
    public var relatedRoute: RouteDescription?
    /// For a routes file: the 1-based line of ``route`` (or of the invalid line).
    public var line: Int?
    /// For a routes file: the line of ``relatedRoute``.
    public var relatedLine: Int?
    /// For an invalid pattern: the byte offset of the offending construct.
    public var offset: Int?
    /// A URL showing the problem, checked against the router: for a shadowed route, one it matches
    /// where another route comes first; for an ambiguous pair, one both match; for a HEAD
    /// request served elsewhere, one whose HEAD and GET requests reach different routes.
    public var exampleURL: String?
    /// The methods the finding is about, in `Allow` order: those a route is shadowed for, those
    /// an ambiguous pair shares, the method spelled in another case, `[HEAD]` for a HEAD request
    /// served elsewhere. Empty when it holds for every method (routes for any method).
    public var methods: [HTTPMethod] = []

    /// The message, prefixed with the severity.
    public var description: String { "\(severity.rawValue): \(message)" }
}
