import FastRouter

/// A problem found in a route table: a line or pattern that cannot be registered, a duplicate,
/// a route that can never be the first candidate, or two routes only registration order tells apart.
public struct LintFinding: Sendable, Equatable, CustomStringConvertible {
    /// What kind of problem it is.
    public enum Kind: String, Sendable, CaseIterable {
        /// A routes-file line that is not `[METHOD] pattern [priority]`.
        case invalidLine
        /// A pattern the pattern language rejects (``LintFinding/offset`` says where).
        case invalidPattern
        /// A route the router rejects as a duplicate of an earlier one.
        case duplicateRoute
        /// A route that is never the first candidate: a higher-precedence route matches every URL it matches.
        case shadowedRoute
        /// Two routes of equal precedence that match a common URL: only registration order decides.
        case ambiguousRoutes
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
    /// where another route comes first; for an ambiguous pair, one both match.
    public var exampleURL: String?

    /// The message, prefixed with the severity.
    public var description: String { "\(severity.rawValue): \(message)" }
}
