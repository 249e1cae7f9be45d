/// One expansion of a route, resolved for the tree: its table and segments as parsed, and the
/// steps of its path (docs/ARCHITECTURE.md, "The lookup tree"). Its ``DuplicateKey`` is those
/// without the names, with its host rule and priority, and the tree is an index of such keys:
/// the table picks the root, the segments the node, and the host rule and priority (in its
/// terminal's shape) the terminal (see ``TreeEditor/add(_:_:)``).
struct RouteVariant {
    /// Lower-cased scheme, `nil` for the global table.
    var table: String?
    /// The expansion's segments as parsed (the pattern's own array, shared).
    var segments: [Segment]
    /// The regexes and partial templates of its segments, by position (unretained; empty when
    /// the path has neither).
    var resolved: [UnsafeRawPointer?]
    var expansion: Int

    /// Expansion number `expansion` of `pattern`, whose regexes and partial templates are
    /// `resolved`.
    init(_ pattern: borrowing Pattern, expansion: Int, resolved: [UnsafeRawPointer?]) {
        self.init(table: pattern.scheme, segments: pattern.variants[expansion], resolved: resolved, expansion: expansion)
    }

    /// A variant of these parts (`segments`: the pattern's list of the expansion, shared).
    init(table: String?, segments: consuming [Segment], resolved: consuming [UnsafeRawPointer?], expansion: Int) {
        self.table = table
        self.segments = segments
        self.resolved = resolved
        self.expansion = expansion
    }

    /// How many steps the path has: one per segment, then the end unless a wildcard ends it.
    var stepCount: Int { segments.count + (endsWithWildcard ? 0 : 1) }

    /// Step `index` of the path as the tree spells it. Read from the segments where they lie: a
    /// variant is made for every add, and a list of its steps would be one more allocation.
    @inline(__always)
    func step(at index: Int) -> PathStep {
        guard index < segments.count else { return .end }
        switch segments[index] {
        case .literal(let bytes):
            // A decoded '/' stays inside its segment: the tree spells it as NUL, which no valid
            // URL holds (docs/SEMANTICS.md §3.2), so it never reads as a separator. Most
            // segments have none, and share the pattern's bytes.
            return .literal(bytes.contains(UInt8(ascii: "/")) ? bytes.map { $0 == UInt8(ascii: "/") ? 0 : $0 } : bytes)
        case .parameter:
            return .parameter
        case .constrained(_, let constraint):
            let pointer: UnsafeRawPointer? = if case .regex = constraint { resolved[index] } else { nil }
            return .edge(code: BuiltinCode.of(constraint).rawValue, matcher: pointer)
        case .partial:
            return .edge(code: BuiltinCode.partial.rawValue, matcher: resolved[index])
        case .wildcard:
            return .wildcard
        }
    }

    /// Whether the path has only literal segments (and its end).
    var isStatic: Bool {
        segments.allSatisfy { segment in
            if case .literal = segment { return true }
            return false
        }
    }

    /// Whether the last segment is a wildcard (a pattern match: `==` on the segment would go
    /// through its Equatable witness).
    var endsWithWildcard: Bool {
        if case .wildcard? = segments.last { return true }
        return false
    }

    /// The ``SegmentRank`` of a segment.
    static func rank(of segment: Segment) -> SegmentRank {
        switch segment {
        case .literal: return .literal
        case .partial: return .partial
        case .constrained: return .constraint
        case .parameter: return .parameter
        case .wildcard: return .wildcard
        }
    }
}

/// One step of a path through the tree.
enum PathStep {
    /// A literal segment's bytes, without its `/` (a decoded `/` spelled NUL).
    case literal([UInt8])
    /// A plain placeholder: one whole segment.
    case parameter
    /// A segment a built-in constraint, regex or partial template must accept.
    case edge(code: UInt8, matcher: UnsafeRawPointer?)
    /// The rest of the path.
    case wildcard
    /// The URL ends here.
    case end
}

extension HostRule {
    /// Calls `body` with the rule as a terminal's shape stores it, lower-cased: the host, or
    /// the suffix with its dot; empty for any host.
    func withStoredBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        switch self {
        case .any: return body(UnsafeBufferPointer(start: nil, count: 0))
        case .exact(let host), .suffix(let host): return withUTF8(host, body)
        }
    }
}
