extension Router {
    /// For every registered route, in registration order, a URL it answers first, or `nil` when
    /// no URL built from sample values reaches it first (a route shadowed by others, or one whose
    /// constraints accept none of the samples).
    ///
    /// Placeholders get sample values (`1`, `42`, `a`, `abc`, a UUID, …) that their constraints
    /// accept, a wildcard one segment, a web route accepting any host `example.com` (a suffix rule
    /// `www` before its suffix). Each URL is checked with a real lookup: the route is its best
    /// candidate. Meant for tests, documentation and load generation from a route list.
    ///
    /// ```swift
    /// let router = Router<String>()
    /// try router.add("/users/{id:int}", value: "user")
    /// router.exampleURLs().first?.url   // "/users/1"
    /// ```
    /// - Complexity: O(routes × samples) lookups; takes the writer lock briefly at the start.
    public func exampleURLs() -> [(route: RouteDescription, url: String?)] {
        let analysis = RouteAnalysis(core: core)
        return analysis.entries.indices.map { (analysis.entries[$0].description, analysis.firstChoiceExample(for: $0)) }
    }
}

extension RouteAnalysis {
    /// A URL for which the route of entry `index` is the best candidate, trying each expansion
    /// with the samples in turn; `nil` when none is.
    func firstChoiceExample(for index: Int) -> String? {
        let entry = entries[index]
        for position in entry.expansions {
            let expansion = expansions[position]
            // A wildcard given a segment first: a zero-segment URL is often some other route's.
            for wildcardValue in expansion.wildcard ? [true, false] : [false] {
                for rotation in 0..<Self.witnesses.count {
                    guard let url = exampleURL(for: expansion, alsoIn: nil, rotation: rotation,
                                               wildcardValue: wildcardValue) else { continue }
                    if candidateIDs(url).first == entry.description.id { return url }
                    // Without placeholders every rotation builds the same URL.
                    if expansion.ranks.allSatisfy({ $0 == SegmentRank.literal.rawValue || $0 == SegmentRank.end.rawValue
                        || $0 == SegmentRank.wildcard.rawValue }) && !wildcardValue { break }
                }
            }
        }
        return nil
    }
}
