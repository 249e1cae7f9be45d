import FastRouter

/// What the analysis reports: shadowed routes and ambiguous pairs, each checked by a lookup,
/// and why one route of a pair comes first (``PrecedenceKey``, docs/SEMANTICS.md §3.1).
extension RouteAnalysis {
    /// Every shadowed route, then every ambiguous pair, each checked by a lookup.
    func findings() -> [LintFinding] {
        var findings: [LintFinding] = []
        var shadowPairs = Set<[Int]>()
        for (entryIndex, entry) in entries.enumerated() {
            guard let shadowing = shadowing(of: entryIndex) else { continue }
            let other = entries[shadowing.winner.entry]
            shadowPairs.insert([min(entryIndex, shadowing.winner.entry), max(entryIndex, shadowing.winner.entry)])
            let reason = precedenceReason(shadowing.winner, over: shadowing.loser)
            findings.append(LintFinding(
                kind: .shadowedRoute, severity: .warning,
                message: "route '\(entry.description.pattern)'\(label(entry)) is never the first candidate: "
                    + "'\(other.description.pattern)'\(label(other)) matches every URL it matches and comes first (\(reason))",
                route: entry.description, relatedRoute: other.description, exampleURL: shadowing.example))
        }
        for (first, second, example) in ambiguousPairs() where !shadowPairs.contains([first, second]) {
            let earlier = entries[first]
            let later = entries[second]
            findings.append(LintFinding(
                kind: .ambiguousRoutes, severity: .warning,
                message: "routes '\(earlier.description.pattern)'\(label(earlier)) and '\(later.description.pattern)'\(label(later)) "
                    + "have equal precedence and match some URLs in common: only registration order puts "
                    + "'\(earlier.description.pattern)' first",
                route: later.description, relatedRoute: earlier.description, exampleURL: example))
        }
        return findings
    }

    private func label(_ entry: Entry) -> String {
        var parts: [String] = []
        if entry.description.priority != 0 { parts.append("priority \(entry.description.priority)") }
        return parts.isEmpty ? "" : " (" + parts.joined(separator: ", ") + ")"
    }

    /// Why `winner` comes before `loser`, in words: the field of their precedence that decides.
    private func precedenceReason(_ winner: Expansion, over loser: Expansion) -> String {
        switch PrecedenceKey.decision(winner.precedence, loser.precedence)?.field {
        case .priority?:
            return "higher priority, \(winner.precedence.priority) > \(loser.precedence.priority)"
        case .host?:
            return "more specific host"
        case .path?:
            return "more specific segments"
        case .registration?, .expansion?, nil:
            return "registered earlier"
        }
    }

    /// A route other than `entryIndex` that hides it completely: the first pair of expansions
    /// (winner, loser) found and an example URL, confirmed by a lookup when one can be built.
    func shadowing(of entryIndex: Int) -> (winner: Expansion, loser: Expansion, example: String?)? {
        let entry = entries[entryIndex]
        let own = entry.expansions.map { expansions[$0] }
        var first: (winner: Expansion, loser: Expansion)?
        for expansion in own {
            let found = containerCandidates(of: expansion, table: entry.pattern.scheme).first { candidateIndex in
                let candidate = expansions[candidateIndex]
                let other = entries[candidate.entry]
                guard candidate.entry != entryIndex, other.description.id != entry.description.id,
                      includes(candidate, expansion) else { return false }
                // It must come before every expansion of this route that could match the same URL.
                return own.allSatisfy { sibling in
                    !(sibling.index == expansion.index || mayOverlap(sibling, expansion)) || precedes(candidate, sibling)
                }
            }
            guard let found else { return nil }
            if first == nil { first = (expansions[found], expansion) }
        }
        guard let first else { return nil }
        guard let url = exampleURL(for: first.loser, alsoIn: nil) else { return (first.winner, first.loser, nil) }
        let order = candidateIDs(url)
        guard order.contains(entry.description.id) else { return (first.winner, first.loser, nil) }
        // The router puts this route first for the example: trust the router and report nothing.
        guard order.first != entry.description.id else { return nil }
        return (first.winner, first.loser, url)
    }

    /// Expansions that may be ambiguous: equal precedence but for registration, and equal
    /// literals (as the matcher compares them) where both have one.
    private struct TieKey: Hashable {
        var precedence: PrecedenceKey<[UInt8]>
        var literals: [[UInt8]]
    }

    /// Pairs of routes (earlier, later) with expansions of equal precedence matching a common URL.
    func ambiguousPairs() -> [(Int, Int, String?)] {
        var pairs: [(Int, Int, String?)] = []
        var seen = Set<[Int]>()
        for (_, members) in tables.sorted(by: { ($0.key ?? "") < ($1.key ?? "") }) {
            // A tie needs equal precedence up to registration; a common URL needs equal
            // literals where both have one.
            var byTie: [TieKey: [Int]] = [:]
            for member in members {
                let expansion = expansions[member]
                let entry = entries[expansion.entry]
                let folds = foldLiterals || isCustomScheme(entry.pattern)
                let literals = expansion.segments.enumerated().map { position, segment -> [UInt8] in
                    guard case .literal(let bytes) = segment else { return [] }
                    return foldLiterals || (folds && position == 0) ? bytes.map(ASCII.lowercased) : bytes
                }
                byTie[TieKey(precedence: expansion.precedence.ignoringRegistration, literals: literals),
                      default: []].append(member)
            }
            for (_, group) in byTie.sorted(by: { $0.value[0] < $1.value[0] }) where group.count > 1 {
                for (position, firstIndex) in group.enumerated() {
                    for secondIndex in group[(position + 1)...] {
                        let first = expansions[firstIndex]
                        let second = expansions[secondIndex]
                        let a = entries[first.entry]
                        let b = entries[second.entry]
                        guard first.entry != second.entry, a.description.id != b.description.id else { continue }
                        let key = [min(first.entry, second.entry), max(first.entry, second.entry)]
                        guard !seen.contains(key), hostsOverlap(a.pattern.host, b.pattern.host),
                              mayOverlap(first, second) else { continue }
                        guard let url = exampleURL(for: first, alsoIn: second) else { continue }
                        let order = candidateIDs(url)
                        guard order.contains(a.description.id), order.contains(b.description.id) else { continue }
                        seen.insert(key)
                        pairs.append((key[0], key[1], url))
                    }
                }
            }
        }
        return pairs.sorted { ($0.1, $0.0) < ($1.1, $1.0) }
    }

    // MARK: Order

    /// The order of docs/SEMANTICS.md §3.1 between two expansions of one table that match the same URL.
    func precedes(_ lhs: Expansion, _ rhs: Expansion) -> Bool {
        lhs.precedence < rhs.precedence
    }
}
