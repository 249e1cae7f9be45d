/// How one lookup or one decline ended: the core's answer, which the Swift API turns into
/// values and errors and the C boundary into `FR_*` statuses.
///
/// Its raw values are the C API's status numbers (`FR_OK`, `FR_NOMATCH`, `FR_EURL`,
/// `FR_NOMETHOD`, `FR_EINVAL` in include/fastrouter.h), so that the C entry points can return a
/// lookup's answer as it comes (see ``matchStatus(_:_:_:)``); the C boundary's tests check
/// that each equals its constant.
@usableFromInline
package enum LookupStatus: Int32, Sendable {
    /// A route matched; its data is current in the scratch.
    case found = 0
    /// No route (or no further candidate) matches.
    case noMatch = 1
    /// The URL is malformed or over a limit (docs/SEMANTICS.md §3.4).
    case invalidURL = -5
    /// Routes match the URL but none accepts the request's method (docs/SEMANTICS.md §3.7); the
    /// allowed methods are in the scratch.
    case methodNotAllowed = 2
    /// The request's method is not an HTTP token.
    case invalidMethod = -1
}
