/// One expansion of a route, resolved for the tree: its ``DuplicateKey`` and the steps of its
/// path (docs/ARCHITECTURE.md, "The lookup tree").
struct RouteVariant {
    /// What makes it a duplicate: its table, host rule, priority and path.
    var key: DuplicateKey
    /// The path as the tree spells it: one step per segment, then the end.
    var steps: [PathStep]
    var expansion: Int

    /// The variant of `key` whose regexes and partial templates are `resolved` (by segment
    /// position, unretained; empty when the path has neither).
    init(key: DuplicateKey, resolved: [UnsafeRawPointer?], expansion: Int) {
        self.key = key
        self.expansion = expansion
        var steps: [PathStep] = []
        steps.reserveCapacity(key.segments.count + 1)
        for (index, shape) in key.segments.enumerated() {
            switch shape {
            case .literal(let bytes):
                // A decoded '/' stays inside its segment: the tree spells it as NUL, which no
                // valid URL holds (docs/SEMANTICS.md §3.2), so it never reads as a separator.
                // Most segments have none, and share the key's bytes.
                steps.append(.literal(bytes.contains(UInt8(ascii: "/")) ? bytes.map { $0 == UInt8(ascii: "/") ? 0 : $0 } : bytes))
            case .parameter:
                steps.append(.parameter)
            case .constrained(let constraint):
                let pointer: UnsafeRawPointer? = if case .regex = constraint { resolved[index] } else { nil }
                steps.append(.edge(code: BuiltinCode.of(constraint).rawValue, matcher: pointer))
            case .partial:
                steps.append(.edge(code: BuiltinCode.partial.rawValue, matcher: resolved[index]))
            case .wildcard:
                steps.append(.wildcard)
            }
        }
        if !Self.endsWithWildcard(key) { steps.append(.end) }
        self.steps = steps
    }

    /// Whether the key's last segment is a wildcard (a pattern match: `==` on the shape would
    /// go through its Equatable witness).
    private static func endsWithWildcard(_ key: DuplicateKey) -> Bool {
        if case .wildcard? = key.segments.last { return true }
        return false
    }

    /// ``SegmentRank`` of each segment, then of the tail.
    var ranks: [UInt8] {
        var ranks = key.segments.map { shape -> UInt8 in
            switch shape {
            case .literal: return SegmentRank.literal.rawValue
            case .partial: return SegmentRank.partial.rawValue
            case .constrained: return SegmentRank.constraint.rawValue
            case .parameter: return SegmentRank.parameter.rawValue
            case .wildcard: return SegmentRank.wildcard.rawValue
            }
        }
        if !Self.endsWithWildcard(key) { ranks.append(SegmentRank.end.rawValue) }
        return ranks
    }

    var endsWithWildcard: Bool { Self.endsWithWildcard(key) }

    /// The lower-cased host rule as stored: the host, or the suffix with its dot; empty for any.
    var hostBytes: [UInt8] {
        switch key.host {
        case .any: return []
        case .exact(let host), .suffix(let host): return Array(host.utf8)
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
