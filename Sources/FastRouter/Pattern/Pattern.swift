/// A pattern after parsing: its table, its host rule and every expansion of its optional groups.
package struct Pattern: Equatable, Sendable {
    /// Lower-cased scheme, or `nil` for the global table.
    package var scheme: String?
    /// Host rule; always `.any` for the global table and for custom schemes.
    package var host: HostRule
    /// Expansions of the optional groups in the order docs/SEMANTICS.md §3.6 fixes: groups in written order,
    /// "present" before "absent". A pattern without groups has exactly one.
    package var variants: [[Segment]]
    /// The compiled program of each distinct regex source used in the pattern, keyed by source.
    package var regexes: [String: CompiledRegex] = [:]
}

/// Which hosts a web-scheme route accepts. Ordered by specificity: exact > suffix > any.
package enum HostRule: Hashable, Sendable {
    /// Any host (`*`, empty, or no host given).
    case any
    /// Subdomains of a domain at any depth (`*.example.com`), stored lower-cased with the dot: `.example.com`.
    case suffix(String)
    /// Exactly this host, lower-cased.
    case exact(String)

    /// 2 for exact, 1 for a suffix, 0 for any: higher is more specific.
    package var rank: UInt8 {
        switch self {
        case .any: return 0
        case .suffix: return 1
        case .exact: return 2
        }
    }
}

/// One segment of an expanded pattern; each matches exactly one URL segment, except a wildcard,
/// which matches the rest of the path.
package enum Segment: Equatable, Sendable {
    /// Text compared with the decoded URL segment; bytes are already percent-decoded.
    case literal([UInt8])
    /// `:name` or `{name}`: any non-empty segment.
    case parameter(name: String)
    /// `{name:constraint}`: a segment the constraint accepts as a whole.
    case constrained(name: String, Constraint)
    /// `*` or `*name` (name `"*"` when unnamed): zero or more trailing segments.
    case wildcard(name: String)
    /// Placeholders inside one segment with text around them: `{name}.{ext}`, `v{major:int}.{minor:int}`.
    /// Ranks between a literal and a whole-segment placeholder.
    case partial([PartialPiece])
}

/// One piece of a partial segment.
package enum PartialPiece: Hashable, Sendable {
    /// Literal text, decoded, compared byte-exactly (ASCII case-insensitively with that option).
    case text([UInt8])
    /// A placeholder matching one or more bytes, optionally constrained.
    case parameter(name: String, constraint: Constraint?)
}

/// A constraint on a placeholder: a built-in byte scanner, or a PCRE2 regex source.
package enum Constraint: Hashable, Sendable {
    case int, uint, float, uuid, alpha, alnum, hex
    /// A PCRE2 pattern (the text between `:` and the closing `}`), matched anchored at both ends.
    case regex(String)

    /// The built-in constraint with this name, or `nil` when the text is a regex.
    init?(builtinName: String) {
        switch builtinName {
        case "int": self = .int
        case "uint": self = .uint
        case "float": self = .float
        case "uuid": self = .uuid
        case "alpha": self = .alpha
        case "alnum": self = .alnum
        case "hex": self = .hex
        default: return nil
        }
    }

    /// The text written in the pattern after `:`.
    package var source: String {
        switch self {
        case .int: return "int"
        case .uint: return "uint"
        case .float: return "float"
        case .uuid: return "uuid"
        case .alpha: return "alpha"
        case .alnum: return "alnum"
        case .hex: return "hex"
        case .regex(let source): return source
        }
    }
}
