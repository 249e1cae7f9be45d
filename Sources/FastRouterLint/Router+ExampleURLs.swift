import FastRouter

extension Router {
    /// For every registered route, in registration order, a URL it answers first, or `nil` when
    /// no URL built from sample values reaches it first (a route shadowed by others, or one whose
    /// constraints accept none of the samples).
    ///
    /// Placeholders get sample values (`1`, `42`, `a`, `abc`, a UUID, …) that their constraints
    /// accept, a wildcard one segment, a web route accepting any host `example.com` (a suffix rule
    /// `www` before its suffix). Each URL is checked with a real lookup: the route itself, not just
    /// one with the same id, is its best candidate. Meant for tests, documentation and load
    /// generation from a route list.
    ///
    /// ```swift
    /// let router = Router<String>()
    /// try router.add("/users/{id:int}", value: "user")
    /// router.exampleURLs()[0].url   // "/users/1"
    /// ```
    /// - Returns: one (route, URL or `nil`) pair per registered route, in registration order.
    /// - Complexity: up to (expansions × samples × 2) lookups per route, each URL tried once;
    ///   takes the writer lock briefly at the start.
    public func exampleURLs() -> [(route: RouteDescription, url: String?)] {
        let analysis = RouteAnalysis(core: core)
        let scratch = MatchScratch()
        return analysis.entries.indices.map {
            (analysis.entries[$0].description, analysis.firstChoiceExample(for: $0, scratch: scratch))
        }
    }
}

extension RouteAnalysis {
    /// A URL for which the route of entry `index` is the best candidate, trying each expansion
    /// with the samples in turn; `nil` when none is. `scratch` serves every lookup.
    func firstChoiceExample(for index: Int, scratch: MatchScratch) -> String? {
        let entry = entries[index]
        var tried = Set<String>()
        for position in entry.expansions {
            let expansion = expansions[position]
            // Without placeholders every rotation of the samples builds the same URL.
            let literalOnly = expansion.precedence.ranks.allSatisfy {
                $0 == SegmentRank.literal.rawValue || $0 == SegmentRank.end.rawValue || $0 == SegmentRank.wildcard.rawValue
            }
            // A wildcard given a segment first: a zero-segment URL is often some other route's.
            for wildcardValue in expansion.wildcard ? [true, false] : [false] {
                let rotations = literalOnly && !wildcardValue ? 1 : Self.witnesses.count
                for rotation in 0..<rotations {
                    guard let url = exampleURL(for: expansion, alsoIn: nil, rotation: rotation,
                                               wildcardValue: wildcardValue),
                          tried.insert(url).inserted else { continue }
                    if bestRecord(url, scratch: scratch) == entry.record { return url }
                }
            }
        }
        return nil
    }

    /// The stored route that answers `url` first, or `nil` when none does.
    private func bestRecord(_ url: String, scratch: MatchScratch) -> UInt32? {
        // The scratch's results point into the URL's bytes: read them inside the closure.
        withUTF8(url) { bytes in
            let record = core.match(url: bytes, into: scratch) == .found ? scratch.routeRecord : nil
            scratch.clearResult()
            scratch.slot.drop()
            return record
        }
    }
}
