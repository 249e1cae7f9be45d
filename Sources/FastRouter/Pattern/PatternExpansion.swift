/// A path as written, before its optional groups are expanded: segments and groups in order,
/// each with the byte offset where it starts in the pattern (for error messages).
enum PathNode: Equatable {
    /// One segment, starting at `offset` (its first byte, after the `/`).
    case segment(Segment, offset: Int)
    /// An optional group `( … )` whose `(` is at `offset`.
    case group([PathNode], offset: Int)

    /// True for an optional group.
    var isGroup: Bool {
        if case .group = self { return true }
        return false
    }
}

/// Turns optional groups into the list of concrete segment sequences a pattern stands for.
///
/// Order (docs/SEMANTICS.md §3.6): groups in written order, each "present" before "absent", the earlier group
/// varying slowest. `/a(/b)(/:c)` gives `[a,b,c]`, `[a,b]`, `[a,c]`, `[a]`; a nested group only
/// varies while its parent is present, so `/a(/b(/c))` gives `[a,b,c]`, `[a,b]`, `[a]`.
enum PatternExpansion {
    /// Most optional groups one pattern may hold; 2⁸ = 256 variants at most.
    static let maxGroups = 8

    /// Expands `nodes` into every variant and checks that a wildcard ends each one it appears in.
    ///
    /// - Parameter nodes: The parsed path, holding at most ``maxGroups`` groups.
    /// - Returns: The variants in the order of docs/SEMANTICS.md §3.6; `[[]]` for the root route.
    /// - Throws: ``RouterError/Code/invalidPattern`` at the first wildcard that some variant
    ///   follows with another segment (`/*/a`, `/a(/*)(/b)`).
    /// - Complexity: O(2^groups × segments), allocating the variants.
    static func variants(of nodes: [PathNode]) throws(RouterError) -> [[Segment]] {
        if !nodes.contains(where: \.isGroup) {
            // Most patterns have no group: one variant, the segments as written. The parser has
            // already refused a segment after a wildcard of the same level.
            var segments: [Segment] = []
            segments.reserveCapacity(nodes.count)
            for case .segment(let segment, _) in nodes { segments.append(segment) }
            return [segments]
        }
        let placed = expand(nodes)
        for variant in placed {
            for (index, entry) in variant.enumerated() where index < variant.count - 1 {
                if case .wildcard = entry.segment {
                    throw RouterError(.invalidPattern, offset: entry.offset,
                                      "a wildcard must be the last segment (in every optional-group variant)")
                }
            }
        }
        return placed.map { variant in variant.map(\.segment) }
    }

    /// A segment and where it was written, kept until the wildcard check has run.
    private struct Placed {
        var segment: Segment
        var offset: Int
    }

    /// Expansion proper: each group multiplies the variants built so far by its own variants, then
    /// by its absence, so earlier groups vary slowest and "present" comes first.
    private static func expand(_ nodes: [PathNode]) -> [[Placed]] {
        var variants: [[Placed]] = [[]]
        for node in nodes {
            switch node {
            case .segment(let segment, let offset):
                for index in variants.indices {
                    variants[index].append(Placed(segment: segment, offset: offset))
                }
            case .group(let children, _):
                let inner = expand(children)
                var next: [[Placed]] = []
                next.reserveCapacity(variants.count * (inner.count + 1))
                for prefix in variants {
                    for suffix in inner { next.append(prefix + suffix) }
                    next.append(prefix)
                }
                variants = next
            }
        }
        return variants
    }
}
