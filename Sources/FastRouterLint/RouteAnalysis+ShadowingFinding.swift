import FastRouter

/// The words of a shadowed-route finding: what the route loses, to which routes, why they come
/// first, and which of its methods still reach it.
extension RouteAnalysis {
    /// The finding for a shadowed route: what it loses, to which routes, and why they come first.
    func finding(_ shadowing: Shadowing, of entryIndex: Int) -> LintFinding {
        let entry = entries[entryIndex]
        let clauses = shadowing.winners.map { winner, methods in
            let other = entries[winner.entry]
            let scope = methods.isEmpty ? "" : " for \(Self.list(methods))"
            return "'\(name(other))'\(label(other)) matches every URL it matches and comes first\(scope) "
                + "(\(precedenceReason(winner, over: shadowing.loser)))"
        }.joined(separator: "; ")
        let subject = "route '\(name(entry))'\(label(entry))"
        let kind: LintFinding.Kind
        let message: String
        switch shadowing.extent {
        case .whole:
            kind = .shadowedRoute
            message = "\(subject) is never the first candidate: \(clauses)"
        case .everyMethod:
            kind = .unreachableMethods
            message = "\(subject) is never the first candidate for any of its methods: \(clauses)"
        case .someMethods:
            kind = .partlyShadowedRoute
            // "Only" when the methods it keeps are shown to reach it.
            let kept = stillReached(entryIndex, hidden: shadowing.methods)
            message = "\(subject) is shadowed for \(Self.list(shadowing.methods))\(kept.isEmpty ? "" : " only"): \(clauses)\(kept)"
        }
        return LintFinding(kind: kind, severity: .warning, message: message, route: entry.description,
                           relatedRoute: entries[shadowing.winners[0].winner.entry].description,
                           exampleURL: shadowing.example, methods: shadowing.methods)
    }

    /// `; POST still reaches it` (`every other method` for a route for any method): the methods
    /// the route of entry `index` keeps, each shown by a sample URL it answers first. Nothing
    /// when one could not be shown: several routes together may hide a method, which the
    /// analysis does not claim, so it does not claim the opposite either.
    private func stillReached(_ index: Int, hidden: [HTTPMethod]) -> String {
        let entry = entries[index]
        let scratch = MatchScratch()
        let hidden = Set(hidden)
        // For a route for any method: the methods routes name, and one they do not name, which
        // only routes for any method accept.
        let kept = entry.acceptsAnyMethod
            ? allowOrder(methodRank.keys).filter { !hidden.contains($0) } + [unnamedMethod()]
            : entry.methods.filter { !hidden.contains($0) }
        guard !kept.isEmpty, kept.allSatisfy({ firstChoiceExample(for: index, methods: [$0], scratch: scratch) != nil }) else {
            return ""
        }
        if entry.acceptsAnyMethod { return "; every other method still reaches it" }
        return "; \(Self.list(kept)) still reach\(kept.count == 1 ? "es" : "") it"
    }

    /// Why `winner` comes before `loser`, in words: the field of their precedence that decides.
    func precedenceReason(_ winner: Expansion, over loser: Expansion) -> String {
        switch PrecedenceKey.decision(winner.precedence, loser.precedence)?.field {
        case .priority?:
            return "higher priority, \(winner.precedence.priority) > \(loser.precedence.priority)"
        case .host?:
            return "more specific host"
        case .path?:
            return "more specific segments"
        case .head?:
            return "it names HEAD"
        case .registration?, .expansion?, nil:
            return "registered earlier"
        }
    }
}
