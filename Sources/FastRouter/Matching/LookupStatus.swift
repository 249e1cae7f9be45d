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
}
