/// A failure reported by the router: a status code, the byte offset of the offending
/// construct (patterns) and a one-line message a user can act on.
///
/// The same codes are the `FR_*` statuses of the C ABI, and ``RouterError/Code/message``
/// is the text `fr_strerror` returns, so Swift and C users see one vocabulary.
public struct RouterError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The kind of failure. Raw values are the C ABI's `FR_E*` status codes.
    public enum Code: Int32, Sendable, CaseIterable {
        /// An argument is invalid: NULL, a reserved route id, a missing value.
        case invalidArgument = -1
        /// The pattern does not follow the pattern language.
        case invalidPattern = -2
        /// A regex constraint does not compile.
        case invalidRegex = -3
        /// The same route (table, host, priority, segment shapes) is already registered.
        case duplicateRoute = -4
        /// The URL is malformed or over a limit.
        case invalidURL = -5
        /// No route, parameter or value by that name or id.
        case notFound = -6
        /// Room ran out: a caller's buffer is too small, or the process's table of parameter
        /// names is full. Never an allocation failure, which ends the process (docs/SEMANTICS.md
        /// §4, "Out of memory").
        case outOfMemory = -7

        /// The static description `fr_strerror` returns for this code.
        public var message: String {
            switch self {
            case .invalidArgument: return "invalid argument"
            case .invalidPattern: return "invalid pattern"
            case .invalidRegex: return "invalid regex constraint"
            case .duplicateRoute: return "duplicate route"
            case .invalidURL: return "invalid URL"
            case .notFound: return "not found"
            case .outOfMemory: return "out of memory"
            }
        }
    }

    /// What went wrong.
    public var code: Code
    /// Byte offset of the first byte of the offending construct in the pattern (0 when not applicable).
    public var offset: Int
    /// A one-line explanation.
    public var message: String

    /// Creates an error.
    public init(_ code: Code, offset: Int = 0, _ message: String) {
        self.code = code
        self.offset = offset
        self.message = message
    }

    /// One line: what went wrong, where (byte offset) and the detail, e.g.
    /// `invalid pattern at offset 3: unbalanced '{': missing '}'`.
    public var description: String {
        "\(code.message) at offset \(offset): \(message)"
    }
}
