/// One expansion of a route, resolved for the tree: its ``DuplicateKey`` and the steps of its
/// path (docs/ARCHITECTURE.md, "The lookup tree").
struct RouteVariant {
    /// What makes it a duplicate: its table, host rule, priority and path.
    var key: DuplicateKey
    /// The regexes and partial templates of its segments, by position (unretained; empty when
    /// the path has neither).
    var resolved: [UnsafeRawPointer?]
    var expansion: Int

    /// The variant of `key` whose regexes and partial templates are `resolved`.
    init(key: DuplicateKey, resolved: [UnsafeRawPointer?], expansion: Int) {
        self.key = key
        self.resolved = resolved
        self.expansion = expansion
    }

    /// How many steps the path has: one per segment, then the end unless a wildcard ends it.
    var stepCount: Int { key.segments.count + (endsWithWildcard ? 0 : 1) }

    /// Step `index` of the path as the tree spells it. Read from the key where it lies: a
    /// variant is made for every add, and a list of its steps would be one more allocation.
    func step(at index: Int) -> PathStep {
        guard index < key.segments.count else { return .end }
        switch key.segments[index] {
        case .literal(let bytes):
            // A decoded '/' stays inside its segment: the tree spells it as NUL, which no valid
            // URL holds (docs/SEMANTICS.md §3.2), so it never reads as a separator. Most
            // segments have none, and share the key's bytes.
            return .literal(bytes.contains(UInt8(ascii: "/")) ? bytes.map { $0 == UInt8(ascii: "/") ? 0 : $0 } : bytes)
        case .parameter:
            return .parameter
        case .constrained(let constraint):
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
        key.segments.allSatisfy { shape in
            if case .literal = shape { return true }
            return false
        }
    }

    /// Whether the key's last segment is a wildcard (a pattern match: `==` on the shape would
    /// go through its Equatable witness).
    private static func endsWithWildcard(_ key: DuplicateKey) -> Bool {
        if case .wildcard? = key.segments.last { return true }
        return false
    }

    /// Writes the ``SegmentRank`` of each segment, then of the tail, into `ranks` (emptied first:
    /// the caller's buffer, reused from variant to variant).
    func writeRanks(into ranks: inout [UInt8]) {
        ranks.removeAll(keepingCapacity: true)
        for shape in key.segments {
            switch shape {
            case .literal: ranks.append(SegmentRank.literal.rawValue)
            case .partial: ranks.append(SegmentRank.partial.rawValue)
            case .constrained: ranks.append(SegmentRank.constraint.rawValue)
            case .parameter: ranks.append(SegmentRank.parameter.rawValue)
            case .wildcard: ranks.append(SegmentRank.wildcard.rawValue)
            }
        }
        if !endsWithWildcard { ranks.append(SegmentRank.end.rawValue) }
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
