import FastRouter

/// HEAD requests that do not reach the GET route of their URL. With the HEAD fallback on, the
/// routes accepting GET serve HEAD only when no route matching the URL accepts HEAD
/// (docs/SEMANTICS.md §3.7), whatever their precedence: a broader route that accepts HEAD (one
/// for any method, a catch-all) takes the HEAD requests of a more specific GET route, so HEAD and
/// GET of one URL reach different routes.
extension RouteAnalysis {
    /// The warning for the route of `entryIndex` when it accepts GET but not HEAD and, for some
    /// URL it answers GET for first, a HEAD request goes to a route that accepts GET and HEAD
    /// (a route for HEAD alone is taken for a deliberate HEAD handler). `nil` otherwise, always
    /// without the fallback, and for a route it would pair with `excluded` (entry indexes, lower
    /// first): there the route shadows the other for GET, and that finding says HEAD still
    /// reaches the other.
    func headServedElsewhere(_ entryIndex: Int, excluding excluded: Set<[Int]>) -> LintFinding? {
        let entry = entries[entryIndex]
        guard core.options.headFallback, !entry.acceptsAnyMethod, entry.accepts(.get), !entry.accepts(.head) else {
            return nil
        }
        for position in entry.expansions {
            let expansion = expansions[position]
            for rivalIndex in getAndHeadExpansions[entry.pattern.scheme] ?? [] {
                let rival = expansions[rivalIndex]
                let other = entries[rival.entry]
                guard other.description.id != entry.description.id, hostsOverlap(entry.pattern.host, other.pattern.host), mayOverlap(expansion, rival),
                      let url = exampleURL(for: expansion, alsoIn: rival),
                      candidateIDs(url, method: .get).first == entry.description.id,
                      let head = candidates(url, method: .head).first, head.id != entry.description.id,
                      let servedIndex = entryOfRecord[head.record] else { continue }
                let served = entries[servedIndex]
                guard served.accepts(.get), !excluded.contains([min(entryIndex, servedIndex), max(entryIndex, servedIndex)]) else {
                    continue
                }
                return LintFinding(
                    kind: .headServedElsewhere, severity: .warning,
                    message: "HEAD requests for some URLs of route '\(name(entry))'\(label(entry)) go to "
                        + "'\(name(served))'\(label(served)): it accepts HEAD, and a GET route serves HEAD only when "
                        + "no route for the URL accepts HEAD (add HEAD to the route's methods)",
                    route: entry.description, relatedRoute: served.description, exampleURL: url, methods: [.head])
            }
        }
        return nil
    }
}
