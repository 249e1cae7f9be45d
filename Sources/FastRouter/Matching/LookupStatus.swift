/// How one lookup or one decline ended: the core's answer, which the Swift API turns into
/// values and errors and the C boundary into `FR_*` statuses.
@usableFromInline
package enum LookupStatus: Sendable {
    /// A route matched; its data is current in the scratch.
    case found
    /// No route (or no further candidate) matches.
    case noMatch
    /// The URL is malformed or over a limit (docs/SEMANTICS.md §3.4).
    case invalidURL
    /// Routes match the URL but none accepts the request's method (docs/SEMANTICS.md §3.7); the
    /// allowed methods are in the scratch.
    case methodNotAllowed
    /// The request's method is not an HTTP token.
    case invalidMethod
}
