/// Rules shared by the peers: what they can be offered and how their answers are named.
enum PeerSupport {
    /// Parses every route of `set` for a path-only router, or says why it cannot take the set.
    /// Request URLs must be plain paths too: peers neither parse schemes and queries nor decode.
    static func pathPatterns(of set: RouteSet) -> Result<[PathPattern], Inexpressible> {
        var patterns: [PathPattern] = []
        patterns.reserveCapacity(set.routes.count)
        for spec in set.routes {
            switch PathPattern.parse(spec) {
            case .success(let pattern): patterns.append(pattern)
            case .failure(let reason): return .failure(reason)
            }
        }
        if let request = set.requests.first(where: { request in
            !request.url.hasPrefix("/") || request.url.contains(where: { $0 == "?" || $0 == "#" || $0 == "%" })
        }) {
            return .failure(Inexpressible("URL \(request.url) is not a plain path"))
        }
        return .success(patterns)
    }

    /// Names captured values after the route's placeholders and wildcard, in pattern order.
    static func name(values: [String], of pattern: PathPattern) -> [Parameter] {
        var names: [String] = []
        for segment in pattern.segments {
            switch segment {
            case .literal: continue
            case .placeholder(let name), .constrained(let name, _), .wildcard(let name): names.append(name)
            }
        }
        return zip(names, values).map { Parameter(name: $0, value: $1) }
    }

    /// The order a first-match router needs to give FastRouter's answers where no backtracking
    /// is involved: more specific routes first (literal, then constrained, then placeholder, then
    /// wildcard, compared segment by segment), registration order among equals.
    static func specificityOrder(_ patterns: [PathPattern]) -> [Int] {
        func rank(_ segment: PathPattern.Segment) -> Int {
            switch segment {
            case .literal: return 0
            case .constrained: return 1
            case .placeholder: return 2
            case .wildcard: return 3
            }
        }
        return patterns.indices.sorted { left, right in
            let a = patterns[left].segments.map(rank), b = patterns[right].segments.map(rank)
            for (x, y) in zip(a, b) where x != y { return x < y }
            if a.count != b.count { return a.count < b.count }
            return left < right
        }
    }
}
