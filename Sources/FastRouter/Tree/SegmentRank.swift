/// Specificity of one pattern segment, as compared segment by segment from the left (docs/SEMANTICS.md §3.1).
/// Higher is more specific. `end` is where a route stops while the URL stops too: it beats a
/// wildcard that matches zero segments and never competes with anything else.
package enum SegmentRank: UInt8 {
    case wildcard = 0
    case end = 1
    case parameter = 2
    case constraint = 3
    case partial = 4
    case literal = 5

    /// The rank of a parsed segment (a wildcard's is that of the path's tail).
    package init(_ segment: Segment) {
        switch segment {
        case .literal: self = .literal
        case .partial: self = .partial
        case .constrained: self = .constraint
        case .parameter: self = .parameter
        case .wildcard: self = .wildcard
        }
    }
}

/// Codes of the built-in constraints as stored in an ``Edge``.
enum BuiltinCode: UInt8 {
    case int = 1, uint, float, uuid, alpha, alnum, hex, regex
    /// A partial segment; the edge's matcher is its ``PartialTemplate``.
    case partial

    /// The code stored in an edge for a constraint.
    static func of(_ constraint: Constraint) -> BuiltinCode {
        switch constraint {
        case .int: return .int
        case .uint: return .uint
        case .float: return .float
        case .uuid: return .uuid
        case .alpha: return .alpha
        case .alnum: return .alnum
        case .hex: return .hex
        case .regex: return .regex
        }
    }

    /// Runs the built-in scanner `code` over a decoded segment.
    @inline(__always)
    static func scan(_ code: UInt8, _ segment: UnsafeBufferPointer<UInt8>) -> Bool {
        switch BuiltinCode(rawValue: code) {
        case .int: return Constraint.int.matchesBuiltin(segment)
        case .uint: return Constraint.uint.matchesBuiltin(segment)
        case .float: return Constraint.float.matchesBuiltin(segment)
        case .uuid: return Constraint.uuid.matchesBuiltin(segment)
        case .alpha: return Constraint.alpha.matchesBuiltin(segment)
        case .alnum: return Constraint.alnum.matchesBuiltin(segment)
        case .hex: return Constraint.hex.matchesBuiltin(segment)
        case .regex, .partial, .none: return false
        }
    }
}
