import FastRouter

/// What the analysis reports: shadowed routes (wholly or for some methods) and ambiguous pairs,
/// each checked by a lookup, and why one route of a pair comes first (``PrecedenceKey``,
/// docs/SEMANTICS.md §3.1).
extension RouteAnalysis {
    /// For each route in registration order its method-case warnings, how it is shadowed and
    /// whether its HEAD requests go elsewhere; then every ambiguous pair. Each is checked by a lookup.
    func findings() -> [LintFinding] {
        var findings: [LintFinding] = []
        let shadowings = entries.indices.map { shadowing(of: $0) }
        // Pairs of a shadowed route and a route hiding it: what else they do to each other
        // (ambiguity, HEAD requests the shadowed one takes) follows from that finding.
        var shadowPairs = Set<[Int]>()
        for (entryIndex, shadowing) in shadowings.enumerated() {
            for (winner, _) in shadowing?.winners ?? [] {
                shadowPairs.insert([min(entryIndex, winner.entry), max(entryIndex, winner.entry)])
            }
        }
        for (entryIndex, entry) in entries.enumerated() {
            findings += methodCaseFindings(entry)
            if let shadowing = shadowings[entryIndex] { findings.append(finding(shadowing, of: entryIndex)) }
            if let head = headServedElsewhere(entryIndex, excluding: shadowPairs) { findings.append(head) }
        }
        for (first, second, methods, example) in ambiguousPairs() where !shadowPairs.contains([first, second]) {
            let earlier = entries[first]
            let later = entries[second]
            let common = methods.isEmpty ? "" : " for \(Self.list(methods))"
            findings.append(LintFinding(
                kind: .ambiguousRoutes, severity: .warning,
                message: "routes '\(name(earlier))'\(label(earlier)) and '\(name(later))'\(label(later)) "
                    + "have equal precedence and match some URLs in common\(common): only registration order puts "
                    + "'\(name(earlier))' first",
                route: later.description, relatedRoute: earlier.description, exampleURL: example, methods: methods))
        }
        return findings
    }

    /// ` (priority P)` for a route with a priority other than 0, else nothing.
    func label(_ entry: Entry) -> String {
        var parts: [String] = []
        if entry.description.priority != 0 { parts.append("priority \(entry.description.priority)") }
        return parts.isEmpty ? "" : " (" + parts.joined(separator: ", ") + ")"
    }

    /// Expansions that may be ambiguous: equal precedence but for registration, and equal
    /// literals (as the matcher compares them) where both have one.
    private struct TieKey: Hashable {
        var precedence: PrecedenceKey<[UInt8]>
        var literals: [[UInt8]]
    }

    /// Pairs of routes (earlier, later) with expansions of equal precedence matching a common URL
    /// and a method in common, with the methods they share (empty: both accept any method).
    func ambiguousPairs() -> [(Int, Int, [HTTPMethod], String?)] {
        var pairs: [(Int, Int, [HTTPMethod], String?)] = []
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
                        // Routes of one path for different methods never meet in a lookup with a method.
                        guard !seen.contains(key), let methods = commonMethods(a, b),
                              hostsOverlap(a.pattern.host, b.pattern.host), mayOverlap(first, second) else { continue }
                        guard let url = exampleURL(for: first, alsoIn: second) else { continue }
                        let order = candidateIDs(url, method: methods.first)
                        guard order.contains(a.description.id), order.contains(b.description.id) else { continue }
                        seen.insert(key)
                        pairs.append((key[0], key[1], allowOrder(methods), url))
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

    /// Whether `lhs` comes before `rhs` by priority, host or segments: not by registration
    /// alone, so that it also comes first for a HEAD request that prefers the route naming HEAD
    /// (docs/SEMANTICS.md §3.7).
    func precedesBeforeRegistration(_ lhs: Expansion, _ rhs: Expansion) -> Bool {
        guard let decision = PrecedenceKey.decision(lhs.precedence, rhs.precedence), decision.lhsFirst else { return false }
        switch decision.field {
        case .priority, .host, .path: return true
        case .head, .registration, .expansion: return false
        }
    }
}
