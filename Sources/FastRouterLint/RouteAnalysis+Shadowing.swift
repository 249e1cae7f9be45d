import FastRouter

/// Which routes hide a route, method by method (docs/SEMANTICS.md §3.1 and §3.7): a lookup with a
/// method keeps the candidates that accept it in the usual order, so a route is hidden for a
/// method when, for every URL it matches, a route that comes first matches that URL and accepts
/// the method. With the HEAD fallback a HEAD request also takes the routes accepting GET, after
/// a route naming HEAD of the same shape: a GET route hides a route's HEAD requests when it comes
/// first by priority, host or segments, not by registration alone.
extension RouteAnalysis {
    /// How a route is hidden from lookups, and by which routes.
    struct Shadowing {
        /// How much of the route is hidden.
        enum Extent {
            /// Every method, by one route that accepts them all (or a route for any method by
            /// routes for any method): ``LintFinding/Kind-swift.enum/shadowedRoute``.
            case whole
            /// Every method of a route with methods, though no one route takes them all:
            /// ``LintFinding/Kind-swift.enum/unreachableMethods``.
            case everyMethod
            /// Some of its methods: ``LintFinding/Kind-swift.enum/partlyShadowedRoute``.
            case someMethods
        }

        /// How much of the route is hidden.
        var extent: Extent
        /// The expansion of the hidden route the example URL is built from (its first).
        var loser: Expansion
        /// The routes that come first, each with the hidden methods it takes, in `Allow` order.
        /// For ``Extent/whole``, one winner with all of the route's methods (none for a route
        /// for any method).
        var winners: [(winner: Expansion, methods: [HTTPMethod])]
        /// A URL showing it, checked by lookups; `nil` when none could be built and checked.
        var example: String?

        /// The hidden methods, in `Allow` order (empty: every method of a route for any method).
        var methods: [HTTPMethod] { winners.flatMap(\.methods) }
    }

    /// How the route of `entryIndex` is hidden, or `nil` when some method reaches it first for
    /// some URL (as far as the analysis can tell: a "reachable" may be a "don't know"). Confirmed
    /// by a lookup of an example URL when one can be built.
    func shadowing(of entryIndex: Int) -> Shadowing? {
        let entry = entries[entryIndex]
        let own = entry.expansions.map { expansions[$0] }
        // For each expansion, the expansions of other routes that match every URL it matches and
        // come first; a route sharing the id does not count (a chain of one handler).
        var covers: [[Cover]] = []
        for expansion in own {
            let found = containerCandidates(of: expansion, table: entry.pattern.scheme).map { expansions[$0] }.compactMap { candidate -> Cover? in
                let other = entries[candidate.entry]
                guard candidate.entry != entryIndex, other.description.id != entry.description.id,
                      includes(candidate, expansion) else { return nil }
                // It must come before every expansion of this route that could match the same URL.
                let overlapping = own.filter { $0.index == expansion.index || mayOverlap($0, expansion) }
                guard overlapping.allSatisfy({ precedes(candidate, $0) }) else { return nil }
                return Cover(expansion: candidate,
                             beforeRegistration: overlapping.allSatisfy { precedesBeforeRegistration(candidate, $0) })
            }
            guard !found.isEmpty else { return nil }
            covers.append(found)
        }
        let takesAll = { (cover: Cover) in
            entry.acceptsAnyMethod ? entries[cover.expansion.entry].acceptsAnyMethod
                : entry.methods.allSatisfy { self.takes(cover, $0) }
        }
        if covers.allSatisfy({ $0.contains(where: takesAll) }), let winner = covers[0].first(where: takesAll) {
            return confirmed(Shadowing(extent: .whole, loser: own[0], winners: [(winner.expansion, entry.methods)]), of: entry)
        }
        // Method by method. A route for any method can lose only methods that better routes
        // name (and HEAD, which GET routes take): a set of methods never covers every method,
        // only a route for any method does.
        let named = entry.acceptsAnyMethod ? namedByCovers(covers) : entry.methods
        var winners: [(winner: Expansion, methods: [HTTPMethod])] = []
        for method in named {
            let takes = { (cover: Cover) in self.takes(cover, method) }
            guard covers.allSatisfy({ $0.contains(where: takes) }), let winner = covers[0].first(where: takes)?.expansion else { continue }
            if let known = winners.firstIndex(where: { $0.winner.entry == winner.entry }) {
                winners[known].methods.append(method)
            } else {
                winners.append((winner, [method]))
            }
        }
        guard !winners.isEmpty else { return nil }
        let hidden = winners.reduce(0) { $0 + $1.methods.count }
        let extent: Shadowing.Extent = !entry.acceptsAnyMethod && hidden == entry.methods.count ? .everyMethod : .someMethods
        return confirmed(Shadowing(extent: extent, loser: own[0], winners: winners), of: entry)
    }

    /// An expansion of another route that matches every URL a route's expansion matches and
    /// comes before it (and its overlapping siblings).
    struct Cover {
        var expansion: Expansion
        /// Whether it comes first by priority, host or segments, not by registration alone: only
        /// then does it keep its place for a HEAD request it takes as a GET route (§3.7).
        var beforeRegistration: Bool
    }

    /// Whether `cover` takes the requests with `method` of the route it covers, which accepts
    /// `method`: when it accepts `method` too, or, for HEAD with the fallback on, when it
    /// accepts GET and comes first by more than registration (the covered route names HEAD, so
    /// between routes of one shape it would come first, docs/SEMANTICS.md §3.7).
    func takes(_ cover: Cover, _ method: HTTPMethod) -> Bool {
        let other = entries[cover.expansion.entry]
        if other.accepts(method) { return true }
        return method == .head && core.options.headFallback && other.accepts(.get) && cover.beforeRegistration
    }

    /// The methods routes in `covers` name, in `Allow` order, with HEAD when one names GET and
    /// GET routes serve HEAD: what a route for any method can lose to them.
    private func namedByCovers(_ covers: [[Cover]]) -> [HTTPMethod] {
        var names = Set(covers.joined().flatMap { entries[$0.expansion.entry].methods })
        if core.options.headFallback && names.contains(.get) { names.insert(.head) }
        return allowOrder(names)
    }

    /// `shadowing` with an example URL when lookups show it: for each hidden method (without a
    /// method when every method of a route for any method is hidden), the route is a candidate
    /// but not the first. `nil` when a lookup puts the route first: the router is right.
    private func confirmed(_ shadowing: Shadowing, of entry: Entry) -> Shadowing? {
        guard let url = exampleURL(for: shadowing.loser, alsoIn: nil) else { return shadowing }
        let lookups: [HTTPMethod?] = shadowing.methods.isEmpty ? [nil] : shadowing.methods
        var shown = true
        for method in lookups {
            let order = candidateIDs(url, method: method)
            guard order.contains(entry.description.id) else {
                shown = false
                continue
            }
            // The router puts this route first for the example: trust the router and report nothing.
            guard order.first != entry.description.id else { return nil }
        }
        var shadowing = shadowing
        if shown { shadowing.example = url }
        return shadowing
    }
}
