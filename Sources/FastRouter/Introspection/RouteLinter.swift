/// A problem found in a route table: a line or pattern that cannot be registered, a duplicate,
/// a route that can never be the first candidate, or two routes only registration order tells apart.
public struct LintFinding: Sendable, Equatable, CustomStringConvertible {
    /// What kind of problem it is.
    public enum Kind: String, Sendable, CaseIterable {
        /// A routes-file line that is not `[METHOD] pattern [priority]`.
        case invalidLine
        /// A pattern the pattern language rejects (``LintFinding/offset`` says where).
        case invalidPattern
        /// A route the router rejects as a duplicate of an earlier one.
        case duplicateRoute
        /// A route that is never the first candidate: a higher-precedence route matches every URL it matches.
        case shadowedRoute
        /// Two routes of equal precedence that match a common URL: only registration order decides.
        case ambiguousRoutes
    }

    /// How bad it is: errors stop a table from loading; warnings are routes that load but do not work as written.
    public enum Severity: String, Sendable, Comparable {
        /// The table loads, but a route does not work as written.
        case warning
        /// The route or line cannot be loaded.
        case error

        /// Warnings order before errors.
        public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs == .warning && rhs == .error }
    }

    /// What kind of problem it is.
    public var kind: Kind
    /// Error or warning.
    public var severity: Severity
    /// A one-line explanation naming the routes involved.
    public var message: String
    /// The route the finding is about (`nil` for a line that holds no route).
    public var route: RouteDescription?
    /// The other route involved: the one that shadows, the earlier duplicate, the other of an ambiguous pair.
    public var relatedRoute: RouteDescription?
    /// For a routes file: the 1-based line of ``route`` (or of the invalid line).
    public var line: Int?
    /// For a routes file: the line of ``relatedRoute``.
    public var relatedLine: Int?
    /// For an invalid pattern: the byte offset of the offending construct.
    public var offset: Int?
    /// A URL showing the problem, checked against the router: for a shadowed route, one it matches
    /// where another route comes first; for an ambiguous pair, one both match.
    public var exampleURL: String?

    /// The message, prefixed with the severity.
    public var description: String { "\(severity.rawValue): \(message)" }
}

/// Checks route tables: the logic behind `Router.lint()` and `fastrouter-bench lint FILE`.
///
/// ```swift
/// let findings = RouteLinter.lint(routesFileContents: "/users/:id\n/users/{id:int}\n/users/:name\n")
/// print(RouteLinter.format(findings, fileName: "routes.txt"))
/// // routes.txt:3: error: duplicate route: '/users/:name' has the same table, host, priority and segments as '/users/:id' (line 1)
/// ```
public enum RouteLinter {
    /// Checks a routes file: one route per line, `[METHOD] pattern [priority]`; blank lines and
    /// lines starting with `#` are skipped.
    ///
    /// Each route is registered in a router with `options`, so what fails to load is reported
    /// exactly as the router would reject it. Lines with the same pattern and priority but
    /// different methods are one route (the benchmark's reading of a routes file); the same line
    /// twice is a duplicate. Then the loaded table is checked as ``Router/lint()`` does. Routes
    /// get their line number as id.
    ///
    /// - Parameters:
    ///   - routesFileContents: the file's text.
    ///   - options: the router options the table is meant for (case folding changes what shadows what).
    /// - Returns: every finding, in line order.
    /// - Complexity: O(n²) in the number of routes with the same length in one table, plus one lookup per finding.
    public static func lint(routesFileContents: String, options: RouterOptions = RouterOptions()) -> [LintFinding] {
        let router = Router<Void>(options: options)
        var findings: [LintFinding] = []
        // "priority pattern" → its first line and the methods seen for it.
        var loaded: [String: (line: Int, methods: Set<String>)] = [:]
        // Shape of each registered expansion → its line, to name the route a duplicate collides with.
        var shapes: [String: Int] = [:]
        let lines = routesFileContents.split(separator: "\n", omittingEmptySubsequences: false)
        for (index, rawLine) in lines.enumerated() {
            let lineNumber = index + 1
            let text = rawLine.trimmingASCIIWhitespace()
            if text.isEmpty || text.hasPrefix("#") { continue }
            var fields = text.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
            var method: String?
            if fields.count >= 2, isMethod(fields[0]) { method = fields.removeFirst() }
            guard fields.count == 1 || fields.count == 2 else {
                findings.append(LintFinding(kind: .invalidLine, severity: .error,
                                            message: "expected '[METHOD] pattern [priority]', got '\(text)'", line: lineNumber))
                continue
            }
            var priority: Int32 = 0
            if fields.count == 2 {
                guard let value = Int32(fields[1]) else {
                    findings.append(LintFinding(kind: .invalidLine, severity: .error,
                                                message: "priority '\(fields[1])' is not a 32-bit integer", line: lineNumber))
                    continue
                }
                priority = value
            }
            let pattern = fields[0]
            let description = RouteDescription(pattern: pattern, priority: priority, id: UInt64(lineNumber),
                                               scheme: Self.scheme(of: pattern))
            let key = "\(priority) \(pattern)"
            if let earlier = loaded[key] {
                if let method, !earlier.methods.isEmpty, !earlier.methods.contains(method) {
                    loaded[key]?.methods.insert(method)
                    continue
                }
                findings.append(LintFinding(
                    kind: .duplicateRoute, severity: .error,
                    message: "duplicate route: '\(pattern)' is already on line \(earlier.line)",
                    route: description,
                    relatedRoute: RouteDescription(pattern: pattern, priority: priority, id: UInt64(earlier.line),
                                                   scheme: description.scheme),
                    line: lineNumber, relatedLine: earlier.line))
                continue
            }
            do {
                try router.add(pattern, priority: priority, id: UInt64(lineNumber))
                loaded[key] = (lineNumber, method.map { [$0] } ?? [])
                for shape in shapeKeys(pattern, priority: priority, core: router.core) { shapes[shape] = shapes[shape] ?? lineNumber }
            } catch where error.code == .duplicateRoute {
                let keys = shapeKeys(pattern, priority: priority, core: router.core)
                var message = "duplicate route: '\(pattern)' has the same table, host, priority and segments as "
                var earlier: RouteDescription?
                if Set(keys).count < keys.count {
                    message += "another of its own expansions"
                    earlier = description
                } else if let line = keys.lazy.compactMap({ shapes[$0] }).first,
                          let route = router.routes.first(where: { $0.id == UInt64(line) }) {
                    message += "'\(route.pattern)' (line \(line))"
                    earlier = route
                } else {
                    message += "an earlier route"
                }
                findings.append(LintFinding(kind: .duplicateRoute, severity: .error, message: message, route: description,
                                            relatedRoute: earlier, line: lineNumber, relatedLine: earlier.map { Int($0.id) }))
            } catch {
                findings.append(LintFinding(kind: .invalidPattern, severity: .error,
                                            message: "'\(pattern)' at offset \(error.offset): \(error.message)",
                                            route: description, line: lineNumber, offset: error.offset))
            }
        }
        findings += RouteAnalysis(core: router.core).findings().map { finding in
            var finding = finding
            finding.line = finding.route.map { Int($0.id) }
            finding.relatedLine = finding.relatedRoute.map { Int($0.id) }
            return finding
        }
        return findings.sorted { ($0.line ?? 0, $0.relatedLine ?? 0) < ($1.line ?? 0, $1.relatedLine ?? 0) }
    }

    /// Formats findings one per line, compiler style (`FILE:LINE: warning: …`), with example
    /// URLs indented below, then a summary line.
    ///
    /// - Parameters:
    ///   - findings: what ``lint(routesFileContents:options:)`` or ``Router/lint()`` returned.
    ///   - fileName: prefixes each line when given.
    /// - Returns: the report; "no problems found" when `findings` is empty.
    public static func format(_ findings: [LintFinding], fileName: String? = nil) -> String {
        var output = ""
        for finding in findings {
            var location = fileName.map { $0 + ":" } ?? ""
            if let line = finding.line { location += "\(line):" }
            output += (location.isEmpty ? "" : location + " ") + finding.description + "\n"
            if let example = finding.exampleURL { output += "    e.g. \(example)\n" }
        }
        let errors = findings.filter { $0.severity == .error }.count
        let warnings = findings.count - errors
        if findings.isEmpty {
            output += "no problems found\n"
        } else {
            output += "\(errors) error\(errors == 1 ? "" : "s"), \(warnings) warning\(warnings == 1 ? "" : "s")\n"
        }
        return output
    }

    /// The duplicate-relevant shape of each expansion of `pattern`: table, host, priority and
    /// segments without parameter names (what SPEC §3.6 calls a duplicate).
    private static func shapeKeys(_ pattern: String, priority: Int32, core: RouterCore) -> [String] {
        guard let parsed = try? core.parsedPattern(pattern) else { return [] }
        return parsed.variants.map { segments in
            "\(parsed.scheme ?? "")|\(parsed.host)|\(priority)|" + segments.map(RouteAnalysis.shapeDescription).joined(separator: "|")
        }
    }

    private static func isMethod(_ field: String) -> Bool {
        !field.isEmpty && field.utf8.allSatisfy { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") }
    }

    /// The lower-cased scheme written before `://`, or `nil`.
    static func scheme(of pattern: String) -> String? {
        guard let range = pattern.range(of: "://") else { return nil }
        let scheme = pattern[..<range.lowerBound]
        guard let first = scheme.utf8.first, GeneratedURLBytes.isAlpha(first),
              scheme.utf8.allSatisfy({ GeneratedURLBytes.isSchemeCharacter($0) }) else { return nil }
        return scheme.lowercased()
    }
}

extension Substring {
    fileprivate func trimmingASCIIWhitespace() -> Substring {
        var text = self
        while let first = text.first, first == " " || first == "\t" || first == "\r" { text.removeFirst() }
        while let last = text.last, last == " " || last == "\t" || last == "\r" { text.removeLast() }
        return text
    }
}

// MARK: - Analysis

/// Finds shadowed routes and ambiguous pairs in a router's tables by comparing every pair of
/// expansions that can match URLs of the same length in the same table.
///
/// Shadowing needs language inclusion: every URL route R matches, route S matches too (host rule,
/// then segment by segment: a placeholder covers any segment, a constraint covers the literals it
/// accepts and the constraints it contains, a wildcard covers the rest) and S precedes R by the
/// order of SPEC §3.1. Constraint containment is decided for built-ins; a regex contains only
/// itself. Unsure means "not contained", so a reported route is shadowed. Each finding is then
/// checked with a real lookup of an example URL.
struct RouteAnalysis {
    /// One expansion of one route, as the analysis reads it.
    struct Expansion {
        var entry: Int
        var index: Int
        /// The segments before a trailing wildcard.
        var segments: [Segment]
        var wildcard: Bool
        var ranks: [UInt8]
    }

    /// One registered route, parsed. A class: expansions refer to it and it is never copied.
    final class Entry {
        let description: RouteDescription
        let sequence: UInt64
        /// The stored route (``RouteRecord/index``).
        let record: UInt32
        let pattern: Pattern
        var expansions: [Int] = []

        init(description: RouteDescription, sequence: UInt64, record: UInt32, pattern: Pattern) {
            self.description = description
            self.sequence = sequence
            self.record = record
            self.pattern = pattern
        }
    }

    /// A trie of a table's expansions by segment, to find the ones that may contain a given
    /// expansion without comparing it with every other: literals by (folded) text, every other
    /// segment by its shape (names left out).
    final class ContainmentNode {
        var literals: [[UInt8]: ContainmentNode] = [:]
        var others: [(segment: Segment, pattern: Pattern, node: ContainmentNode)] = []
        var otherIndex: [String: Int] = [:]
        /// Expansions without a wildcard that end here.
        var terminals: [Int] = []
        /// Expansions whose wildcard starts here.
        var wildcards: [Int] = []
    }

    let core: RouterCore
    let foldLiterals: Bool
    var entries: [Entry] = []
    var expansions: [Expansion] = []
    /// Expansions by table name, in registration order.
    var tables: [String: [Int]] = [:]
    /// The containment trie of each table.
    var indexes: [String: ContainmentNode] = [:]
    private let regexScratch = RegexScratch()

    init(core: RouterCore) {
        self.core = core
        foldLiterals = core.options.caseInsensitivePaths
        for record in core.routes {
            guard let pattern = try? core.parsedPattern(record.pattern) else { continue }
            let description = RouteDescription(pattern: record.pattern, priority: record.priority, id: record.id,
                                               scheme: record.scheme)
            let entry = Entry(description: description, sequence: record.sequence, record: record.index, pattern: pattern)
            let foldsFirst = foldLiterals || (pattern.scheme.map { !core.options.webSchemes.contains($0) } ?? false)
            for (index, variant) in pattern.variants.enumerated() {
                var segments = variant
                var wildcard = false
                if case .wildcard? = segments.last {
                    segments.removeLast()
                    wildcard = true
                }
                let ranks = segments.map(Self.rank) + [wildcard ? SegmentRank.wildcard.rawValue : SegmentRank.end.rawValue]
                let position = expansions.count
                entry.expansions.append(position)
                tables[description.table, default: []].append(position)
                let root = indexes[description.table] ?? ContainmentNode()
                indexes[description.table] = root
                var node = root
                for (depth, segment) in segments.enumerated() {
                    if case .literal(let bytes) = segment {
                        let key = foldLiterals || (depth == 0 && foldsFirst) ? bytes.map(GeneratedURLBytes.lowercased) : bytes
                        let child = node.literals[key] ?? ContainmentNode()
                        node.literals[key] = child
                        node = child
                    } else {
                        let shape = Self.shapeDescription(segment)
                        if let existing = node.otherIndex[shape] {
                            node = node.others[existing].node
                        } else {
                            let child = ContainmentNode()
                            node.otherIndex[shape] = node.others.count
                            node.others.append((segment, pattern, child))
                            node = child
                        }
                    }
                }
                if wildcard { node.wildcards.append(position) } else { node.terminals.append(position) }
                expansions.append(Expansion(entry: entries.count, index: index, segments: segments,
                                            wildcard: wildcard, ranks: ranks))
            }
            entries.append(entry)
        }
    }

    /// The expansions whose segments could contain those of `inner` (hosts not compared yet), in registration order.
    func containerCandidates(of inner: Expansion, table: String) -> [Int] {
        guard let root = indexes[table] else { return [] }
        let innerPattern = entries[inner.entry].pattern
        let foldsFirst = foldLiterals || isCustomScheme(innerPattern)
        var result: [Int] = []
        func walk(_ node: ContainmentNode, _ depth: Int) {
            result += node.wildcards
            guard depth < inner.segments.count else {
                if !inner.wildcard { result += node.terminals }
                return
            }
            let segment = inner.segments[depth]
            if case .literal(let bytes) = segment {
                let key = foldLiterals || (depth == 0 && foldsFirst) ? bytes.map(GeneratedURLBytes.lowercased) : bytes
                if let child = node.literals[key] { walk(child, depth + 1) }
            }
            for other in node.others
            where segmentIncludes(other.segment, other.pattern, segment, innerPattern, position: depth) {
                walk(other.node, depth + 1)
            }
        }
        walk(root, 0)
        return result.sorted()
    }

    /// A segment without its names: what decides which URL segments it matches.
    static func shapeDescription(_ segment: Segment) -> String {
        switch segment {
        case .literal(let bytes): return "L" + bytes.map { String($0) }.joined(separator: ",")
        case .parameter: return "P"
        case .constrained(_, let constraint): return "C" + constraint.source
        case .wildcard: return "W"
        case .partial(let pieces):
            return "T" + pieces.map { piece -> String in
                switch piece {
                case .text(let bytes): return "t" + bytes.map { String($0) }.joined(separator: ",")
                case .parameter(_, let constraint): return "p" + (constraint?.source ?? "")
                }
            }.joined(separator: ";")
        }
    }

    static func rank(_ segment: Segment) -> UInt8 {
        switch segment {
        case .literal: return SegmentRank.literal.rawValue
        case .partial: return SegmentRank.partial.rawValue
        case .constrained: return SegmentRank.constraint.rawValue
        case .parameter: return SegmentRank.parameter.rawValue
        case .wildcard: return SegmentRank.wildcard.rawValue
        }
    }

    // MARK: Findings

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

    /// Why `winner` comes before `loser`, in words.
    private func precedenceReason(_ winner: Expansion, over loser: Expansion) -> String {
        let left = entries[winner.entry]
        let right = entries[loser.entry]
        if left.description.priority != right.description.priority {
            return "higher priority, \(left.description.priority) > \(right.description.priority)"
        }
        if left.pattern.host.rank != right.pattern.host.rank { return "more specific host" }
        if winner.ranks != loser.ranks { return "more specific segments" }
        return "registered earlier"
    }

    /// A route other than `entryIndex` that hides it completely: the first pair of expansions
    /// (winner, loser) found and an example URL, confirmed by a lookup when one can be built.
    func shadowing(of entryIndex: Int) -> (winner: Expansion, loser: Expansion, example: String?)? {
        let entry = entries[entryIndex]
        let own = entry.expansions.map { expansions[$0] }
        var first: (winner: Expansion, loser: Expansion)?
        for expansion in own {
            let found = containerCandidates(of: expansion, table: entry.description.table).first { candidateIndex in
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

    private struct ShapeKey: Hashable {
        var ranks: [UInt8]
        var hostRank: UInt8
        var priority: Int32
        var literals: [[UInt8]]
    }

    /// Pairs of routes (earlier, later) with expansions of equal precedence matching a common URL.
    func ambiguousPairs() -> [(Int, Int, String?)] {
        var pairs: [(Int, Int, String?)] = []
        var seen = Set<[Int]>()
        for (_, members) in tables.sorted(by: { $0.key < $1.key }) {
            // Equal precedence needs equal ranks, host ranks and priorities; a common URL needs
            // equal literals where both have one.
            var byShape: [ShapeKey: [Int]] = [:]
            for member in members {
                let expansion = expansions[member]
                let entry = entries[expansion.entry]
                let folds = foldLiterals || isCustomScheme(entry.pattern)
                let literals = expansion.segments.enumerated().map { position, segment -> [UInt8] in
                    guard case .literal(let bytes) = segment else { return [] }
                    return foldLiterals || (folds && position == 0) ? bytes.map(GeneratedURLBytes.lowercased) : bytes
                }
                let key = ShapeKey(ranks: expansion.ranks, hostRank: entry.pattern.host.rank,
                                   priority: entry.description.priority, literals: literals)
                byShape[key, default: []].append(member)
            }
            for (_, group) in byShape.sorted(by: { $0.value[0] < $1.value[0] }) where group.count > 1 {
                for (position, firstIndex) in group.enumerated() {
                    for secondIndex in group[(position + 1)...] {
                        let first = expansions[firstIndex]
                        let second = expansions[secondIndex]
                        let a = entries[first.entry]
                        let b = entries[second.entry]
                        guard first.entry != second.entry, a.description.id != b.description.id,
                              a.description.priority == b.description.priority else { continue }
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

    /// SPEC §3.1's order between two expansions of one table that match the same URL.
    func precedes(_ lhs: Expansion, _ rhs: Expansion) -> Bool {
        let left = entries[lhs.entry]
        let right = entries[rhs.entry]
        if left.description.priority != right.description.priority {
            return left.description.priority > right.description.priority
        }
        if left.pattern.host.rank != right.pattern.host.rank { return left.pattern.host.rank > right.pattern.host.rank }
        for (leftRank, rightRank) in zip(lhs.ranks, rhs.ranks) where leftRank != rightRank {
            return leftRank > rightRank
        }
        if left.sequence != right.sequence { return left.sequence < right.sequence }
        return lhs.index < rhs.index
    }

    // MARK: Inclusion and overlap

    /// Whether every URL `inner` matches is matched by `outer` (a "no" may be a "don't know").
    func includes(_ outer: Expansion, _ inner: Expansion) -> Bool {
        let outerPattern = entries[outer.entry].pattern
        let innerPattern = entries[inner.entry].pattern
        guard hostIncludes(outerPattern.host, innerPattern.host) else { return false }
        if outer.wildcard {
            guard inner.segments.count >= outer.segments.count else { return false }
        } else {
            guard !inner.wildcard, inner.segments.count == outer.segments.count else { return false }
        }
        for (position, segment) in outer.segments.enumerated()
        where !segmentIncludes(segment, outerPattern, inner.segments[position], innerPattern, position: position) {
            return false
        }
        return true
    }

    /// Whether some URL might match both (a "yes" may be a "don't know").
    func mayOverlap(_ lhs: Expansion, _ rhs: Expansion) -> Bool {
        if !lhs.wildcard && !rhs.wildcard && lhs.segments.count != rhs.segments.count { return false }
        if !lhs.wildcard && lhs.segments.count < rhs.segments.count { return false }
        if !rhs.wildcard && rhs.segments.count < lhs.segments.count { return false }
        let leftPattern = entries[lhs.entry].pattern
        let rightPattern = entries[rhs.entry].pattern
        for (position, (left, right)) in zip(lhs.segments, rhs.segments).enumerated() {
            if case .literal(let bytes) = left, !accepts(right, rightPattern, bytes, position: position) { return false }
            if case .literal(let bytes) = right, !accepts(left, leftPattern, bytes, position: position) { return false }
        }
        return true
    }

    private func hostIncludes(_ outer: HostRule, _ inner: HostRule) -> Bool {
        switch (outer, inner) {
        case (.any, _): return true
        case (.suffix(let suffix), .exact(let host)), (.suffix(let suffix), .suffix(let host)): return host.hasSuffix(suffix)
        case (.exact(let a), .exact(let b)): return a == b
        default: return false
        }
    }

    private func hostsOverlap(_ lhs: HostRule, _ rhs: HostRule) -> Bool {
        hostIncludes(lhs, rhs) || hostIncludes(rhs, lhs)
    }

    private func segmentIncludes(_ outer: Segment, _ outerPattern: Pattern, _ inner: Segment, _ innerPattern: Pattern,
                                 position: Int) -> Bool {
        let folded = foldLiterals || (position == 0 && isCustomScheme(outerPattern))
        switch (outer, inner) {
        case (.parameter, _):
            return true
        case (.literal(let a), .literal(let b)):
            return LiteralText.equal(a, b, folded: folded)
        case (.constrained(_, let constraint), .literal(let bytes)):
            // A folded literal also matches its other spellings: only a case-closed constraint covers them all.
            if folded && bytes.contains(where: { GeneratedURLBytes.isAlpha($0) }) && !constraint.isCaseClosed { return false }
            return accepts(outer, outerPattern, bytes, position: position)
        case (.constrained(_, let outerConstraint), .constrained(_, let innerConstraint)):
            return innerConstraint.isContained(in: outerConstraint)
        case (.partial, .literal(let bytes)):
            if folded && bytes.contains(where: { GeneratedURLBytes.isAlpha($0) }) { return false }
            return accepts(outer, outerPattern, bytes, position: position)
        case (.partial(let a), .partial(let b)):
            return a.shape == b.shape
        default:
            return false
        }
    }

    private func isCustomScheme(_ pattern: Pattern) -> Bool {
        pattern.scheme.map { !core.options.webSchemes.contains($0) } ?? false
    }

    /// Whether `segment` of `pattern` matches the decoded URL segment `bytes`.
    func accepts(_ segment: Segment, _ pattern: Pattern, _ bytes: [UInt8], position: Int) -> Bool {
        guard !bytes.isEmpty else { return false }
        switch segment {
        case .literal(let literal):
            return LiteralText.equal(literal, bytes, folded: foldLiterals || (position == 0 && isCustomScheme(pattern)))
        case .parameter, .wildcard:
            return true
        case .constrained(_, let constraint):
            return accepts(constraint, pattern, bytes[...])
        case .partial(let pieces):
            return partialAccepts(pieces[...], pattern, bytes[...])
        }
    }

    private func accepts(_ constraint: Constraint, _ pattern: Pattern, _ bytes: ArraySlice<UInt8>) -> Bool {
        bytes.withUnsafeBufferPointer { buffer in
            if case .regex(let source) = constraint {
                return pattern.regexes[source]?.match(buffer, scratch: regexScratch) == .matched
            }
            return constraint.matchesBuiltin(buffer)
        }
    }

    /// Whether the pieces of a partial segment can split `bytes` (any split: acceptance does not
    /// depend on which one the matcher captures).
    private func partialAccepts(_ pieces: ArraySlice<PartialPiece>, _ pattern: Pattern, _ bytes: ArraySlice<UInt8>) -> Bool {
        guard let piece = pieces.first else { return bytes.isEmpty }
        switch piece {
        case .text(let text):
            guard bytes.count >= text.count,
                  LiteralText.equal(text, Array(bytes.prefix(text.count)), folded: foldLiterals) else { return false }
            return partialAccepts(pieces.dropFirst(), pattern, bytes.dropFirst(text.count))
        case .parameter(_, let constraint):
            var end = bytes.endIndex
            while end > bytes.startIndex {
                let value = bytes[bytes.startIndex..<end]
                if constraint.map({ accepts($0, pattern, value) }) ?? true,
                   partialAccepts(pieces.dropFirst(), pattern, bytes[end...]) {
                    return true
                }
                end -= 1
            }
            return false
        }
    }

    // MARK: Examples

    /// Sample segment values tried for placeholders and constraints: numbers, words, a UUID,
    /// punctuation, and the shapes regex constraints often ask for (a 40-digit hex SHA, a date,
    /// a version).
    static let witnesses: [[UInt8]] = [
        "1", "42", "0", "-1", "1.5", "a", "x", "abc", "A", "ff", "a1", "new", "me", "index", "json",
        "3f2b8c1e-9a4d-4e6f-8b7a-1c2d3e4f5a6b", "_", "a-b", "a.b", "a_b", "x.json", "a b", "é",
        "6dcb09b5b57875f334f61aebed695e2e4193db5e", "2024-01-31", "v1",
    ].map { Array($0.utf8) }

    /// `values` starting at position `rotation` (modulo their count), then the ones before it.
    static func rotated(_ values: [[UInt8]], by rotation: Int) -> [[UInt8]] {
        let start = rotation % values.count
        return Array(values[start...] + values[..<start])
    }

    /// A URL `expansion` matches, also matched by `other` when given (`nil` when none is found).
    /// `rotation` starts the placeholders' sample values further down ``witnesses``, for another
    /// URL of the same expansion; `wildcardValue` gives a trailing wildcard one segment.
    func exampleURL(for expansion: Expansion, alsoIn other: Expansion?, rotation: Int = 0,
                    wildcardValue: Bool = false) -> String? {
        let pattern = entries[expansion.entry].pattern
        let otherPattern = other.map { entries[$0.entry].pattern }
        if let other, !other.wildcard, !expansion.wildcard, other.segments.count != expansion.segments.count { return nil }
        var segments: [[UInt8]] = []
        for (position, segment) in expansion.segments.enumerated() {
            var candidates = samples(segment, pattern, rotation: rotation)
            var otherSegment: Segment?
            if let other, position < other.segments.count {
                otherSegment = other.segments[position]
                candidates += samples(other.segments[position], otherPattern!)
            }
            guard let value = candidates.first(where: { candidate in
                accepts(segment, pattern, candidate, position: position)
                    && otherSegment.map { accepts($0, otherPattern!, candidate, position: position) } ?? true
            }) else { return nil }
            segments.append(value)
        }
        if let other, other.segments.count > expansion.segments.count {
            // `expansion` ends in a wildcard that must cover the rest of `other`'s segments.
            for position in expansion.segments.count..<other.segments.count {
                guard let value = samples(other.segments[position], otherPattern!)
                    .first(where: { accepts(other.segments[position], otherPattern!, $0, position: position) }) else { return nil }
                segments.append(value)
            }
        }
        if wildcardValue && expansion.wildcard && other == nil {
            segments.append(Self.rotated(Self.witnesses, by: rotation).first { !$0.contains(UInt8(ascii: " ")) } ?? Array("a".utf8))
        }
        let custom = isCustomScheme(pattern)
        let path = segments.enumerated().map { offset, bytes in
            "/" + URLEncoding.encodeSegment(bytes, inAuthority: custom && offset == 0)
        }.joined()
        guard let scheme = pattern.scheme else { return path.isEmpty ? "/" : path }
        if custom { return "\(scheme)://" + path.dropFirst() }
        // A host both routes accept: an exact one, a subdomain of the longer suffix, or any.
        let rules = [pattern.host] + (otherPattern.map { [$0.host] } ?? [])
        let hosts = rules.compactMap { rule -> String? in
            switch rule {
            case .exact(let exact): return exact
            case .suffix(let suffix): return "www" + suffix
            case .any: return nil
            }
        }.sorted { $0.count > $1.count } + ["example.com"]
        guard let host = hosts.first(where: { host in rules.allSatisfy { hostIncludes($0, .exact(host)) } }) else {
            return nil
        }
        return "\(scheme)://\(host)" + (path.isEmpty ? "/" : path)
    }

    /// Values worth trying for `segment`: the literal itself, or built from the witnesses
    /// (starting `rotation` places down the list).
    private func samples(_ segment: Segment, _ pattern: Pattern, rotation: Int = 0) -> [[UInt8]] {
        switch segment {
        case .literal(let bytes): return [bytes]
        case .parameter, .constrained, .wildcard: return Self.rotated(Self.witnesses, by: rotation)
        case .partial(let pieces):
            return Self.rotated(Self.witnesses, by: rotation).map { preferred in
                pieces.flatMap { piece -> [UInt8] in
                    switch piece {
                    case .text(let text): return text
                    case .parameter(_, nil): return preferred
                    case .parameter(_, let constraint?):
                        if accepts(constraint, pattern, preferred[...]) { return preferred }
                        return Self.witnesses.first { accepts(constraint, pattern, $0[...]) } ?? preferred
                    }
                }
            }
        }
    }

    /// The route ids of every candidate for `url`, best first.
    func candidateIDs(_ url: String) -> [UInt64] {
        let scratch = MatchScratch()
        // The scratch points into the URL's bytes, which for a small string live only inside the
        // closure: every decline must run in there too (as Router.matches does).
        return withUTF8(url) { bytes in
            var ids: [UInt64] = []
            var status = core.match(url: bytes, into: scratch)
            while status == 0 {
                ids.append(scratch.routeID)
                status = scratch.next()
            }
            scratch.clearResult()
            return ids
        }
    }
}

/// Literal comparison as the matcher does it.
enum LiteralText {
    static func equal(_ lhs: [UInt8], _ rhs: [UInt8], folded: Bool) -> Bool {
        guard lhs.count == rhs.count else { return false }
        guard folded else { return lhs == rhs }
        return zip(lhs, rhs).allSatisfy { GeneratedURLBytes.lowercased($0) == GeneratedURLBytes.lowercased($1) }
    }
}

extension Constraint {
    /// Whether the constraint accepts a segment exactly when it accepts its other ASCII spellings.
    var isCaseClosed: Bool {
        switch self {
        case .regex: return false
        default: return true
        }
    }

    /// Whether every segment `self` accepts, `outer` accepts too (known for built-ins; a regex contains only itself).
    func isContained(in outer: Constraint) -> Bool {
        if self == outer { return true }
        switch (self, outer) {
        case (.int, .float), (.uint, .float), (.uint, .alnum), (.uint, .hex), (.alpha, .alnum), (.hex, .alnum):
            return true
        default:
            return false
        }
    }
}

extension Array where Element == PartialPiece {
    /// The pieces without placeholder names: what decides what the segment matches.
    var shape: [PartialPiece] {
        map { piece in
            if case .parameter(_, let constraint) = piece { return .parameter(name: "", constraint: constraint) }
            return piece
        }
    }
}

extension RouterCore {
    /// The lint report of this router's tables, formatted as ``RouteLinter/format(_:fileName:)``
    /// does: the text `fr_router_lint` writes.
    func lintReport() -> String {
        RouteLinter.format(RouteAnalysis(core: self).findings())
    }
}
