import FastRouter

/// HEAD requests that do not reach the GET route of their URL. With the HEAD fallback on, a HEAD
/// request takes the routes accepting HEAD or GET in the order of docs/SEMANTICS.md §3.1, and
/// between routes of the same shape the one naming HEAD comes first (§3.7). So a route R that
/// accepts GET but not HEAD, and answers GET first for a URL, loses that URL's HEAD requests only
/// to a route S that ranks above it for HEAD: S names HEAD and either comes first by priority,
/// host or segments (then S does not accept GET, or it would answer GET too: a HEAD handler, left
/// alone) or ties with R but for registration, R first (same priority, host rank and segment
/// ranks; not a duplicate, for example two constraints of one rank or two suffix hosts). The
/// latter, with S accepting GET as well, splits a URL's GET and HEAD requests between two routes
/// that both serve GET: that is what this reports.
extension RouteAnalysis {
    /// The warning for the route of `entryIndex` when it accepts GET but not HEAD and, for some
    /// URL it answers GET for first, a HEAD request goes to a route that accepts GET and HEAD
    /// (a route for HEAD without GET is taken for a deliberate HEAD handler). `nil` otherwise,
    /// always without the fallback, and for a route it would pair with `excluded` (entry indexes,
    /// lower first): there one route shadows the other, which that finding says.
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
                // Only a tie of shape can give HEAD to one GET route and GET to another (above).
                guard rival.precedence.ignoringRegistration == expansion.precedence.ignoringRegistration,
                      other.description.id != entry.description.id, hostsOverlap(entry.pattern.host, other.pattern.host), mayOverlap(expansion, rival),
                      let url = exampleURL(for: expansion, alsoIn: rival),
                      candidateIDs(url, method: .get).first == entry.description.id,
                      let head = candidates(url, method: .head).first, head.id != entry.description.id,
                      let servedIndex = entryOfSequence[head.sequence] else { continue }
                let served = entries[servedIndex]
                guard served.accepts(.get), !excluded.contains([min(entryIndex, servedIndex), max(entryIndex, servedIndex)]) else {
                    continue
                }
                return LintFinding(
                    kind: .headServedElsewhere, severity: .warning,
                    message: "HEAD requests for some URLs of route '\(name(entry))'\(label(entry)) go to "
                        + "'\(name(served))'\(label(served)): it has equal precedence and names HEAD, which comes "
                        + "first for HEAD, while registration order gives GET to '\(name(entry))' "
                        + "(add HEAD to the route's methods)",
                    route: entry.description, relatedRoute: served.description, exampleURL: url, methods: [.head])
            }
        }
        return nil
    }
}
