import FastRouter

/// Finds shadowed routes and ambiguous pairs in a router's tables by comparing every pair of
/// expansions that can match URLs of the same length in the same table.
///
/// Shadowing needs language inclusion: every URL route R matches, route S matches too (host rule,
/// then segment by segment: a placeholder covers any segment, a constraint covers the literals it
/// accepts and the constraints it contains, a wildcard covers the rest) and S precedes R by the
/// order lookups use (``PrecedenceKey``, docs/SEMANTICS.md §3.1). With methods it holds method
/// by method: S hides R for the methods S accepts (§3.7). Constraint containment is decided for
/// built-ins; a regex contains only itself. Unsure means "not contained", so a reported route
/// is shadowed. Each finding is then checked with a real lookup of an example URL.
struct RouteAnalysis {
    /// One expansion of one route, as the analysis reads it.
    struct Expansion {
        var entry: Int
        var index: Int
        /// The segments before a trailing wildcard.
        var segments: [Segment]
        var wildcard: Bool
        /// Where the expansion stands in the order of candidates.
        var precedence: PrecedenceKey<[UInt8]>
    }

    /// One registered route, parsed. A class: expansions refer to it and it is never copied.
    final class Entry {
        /// The route as introspection shows it, methods included.
        let description: RouteDescription
        /// Registration order: tells apart routes that share an id (``MatchScratch/routeSequence``).
        let sequence: UInt64
        /// The parsed pattern.
        let pattern: Pattern
        /// The route's expansions (indexes into ``RouteAnalysis/expansions``).
        var expansions: [Int] = []
        /// The methods it accepts, for membership tests; empty for any method.
        let methodSet: Set<HTTPMethod>

        init(description: RouteDescription, sequence: UInt64, pattern: Pattern) {
            self.description = description
            self.sequence = sequence
            self.pattern = pattern
            methodSet = Set(description.methods)
        }

        /// The methods it accepts in `Allow` order; empty for any method.
        var methods: [HTTPMethod] { description.methods }
        /// Whether it accepts every method (it was registered without methods).
        var acceptsAnyMethod: Bool { methodSet.isEmpty }

        /// Whether it accepts `method` itself (a route for any method accepts every one),
        /// docs/SEMANTICS.md §3.7. The HEAD fallback (a HEAD request also takes the routes
        /// accepting GET) is not counted here: where it matters, ``RouteAnalysis/takes(_:_:)``
        /// adds it with the order it comes with.
        func accepts(_ method: HTTPMethod) -> Bool { acceptsAnyMethod || methodSet.contains(method) }
    }

    /// A trie of a table's expansions by segment, to find the ones that may contain a given
    /// expansion without comparing it with every other: literals by (folded) text, every other
    /// segment by its shape (``DuplicateKey/Shape``: names left out).
    final class ContainmentNode {
        var literals: [[UInt8]: ContainmentNode] = [:]
        var others: [(segment: Segment, pattern: Pattern, node: ContainmentNode)] = []
        var otherIndex: [DuplicateKey.Shape: Int] = [:]
        /// Expansions without a wildcard that end here.
        var terminals: [Int] = []
        /// Expansions whose wildcard starts here.
        var wildcards: [Int] = []
    }

    let core: RouterCore
    let foldLiterals: Bool
    var entries: [Entry] = []
    /// The entry of each stored route (``Entry/record``), to name the route a lookup returns.
    var entryOfSequence: [UInt64: Int] = [:]
    /// Where each method the routes name stands in `Allow` order (``RouteAnalysis/allowOrder(_:)``).
    var methodRank: [HTTPMethod: Int] = [:]
    /// Expansions by table of the routes that accept both GET and HEAD, in registration order:
    /// the ones that can take a GET route's HEAD requests while it keeps its GET requests
    /// (``headServedElsewhere(_:excluding:)``).
    var getAndHeadExpansions: [String?: [Int]] = [:]
    var expansions: [Expansion] = []
    /// Expansions by table (lower-cased scheme, `nil` for the global table), in registration order.
    var tables: [String?: [Int]] = [:]
    /// The containment trie of each table.
    var indexes: [String?: ContainmentNode] = [:]
    let regexScratch = RegexScratch()

    init(core: RouterCore) {
        self.core = core
        foldLiterals = core.options.caseInsensitivePaths
        for record in core.routes {
            guard let pattern = try? core.parsedPattern(record.pattern) else { continue }
            let description = RouteDescription(pattern: record.pattern, priority: record.priority, id: record.id,
                                               scheme: record.scheme, methods: record.methods)
            let entry = Entry(description: description, sequence: record.sequence, pattern: pattern)
            let foldsFirst = foldLiterals || (pattern.scheme.map { !core.options.webSchemes.contains($0) } ?? false)
            for (index, variant) in pattern.variants.enumerated() {
                var segments = variant
                var wildcard = false
                if case .wildcard? = segments.last {
                    segments.removeLast()
                    wildcard = true
                }
                let position = expansions.count
                entry.expansions.append(position)
                tables[pattern.scheme, default: []].append(position)
                let root = indexes[pattern.scheme] ?? ContainmentNode()
                indexes[pattern.scheme] = root
                var node = root
                for (depth, segment) in segments.enumerated() {
                    if case .literal(let bytes) = segment {
                        let key = foldLiterals || (depth == 0 && foldsFirst) ? bytes.map(ASCII.lowercased) : bytes
                        let child = node.literals[key] ?? ContainmentNode()
                        node.literals[key] = child
                        node = child
                    } else {
                        let shape = DuplicateKey.Shape(segment)
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
                let precedence = PrecedenceKey(pattern, expansion: index, priority: record.priority,
                                               sequence: record.sequence)
                expansions.append(Expansion(entry: entries.count, index: index, segments: segments,
                                            wildcard: wildcard, precedence: precedence))
            }
            entryOfSequence[entry.sequence] = entries.count
            entries.append(entry)
            if entry.accepts(.get) && entry.accepts(.head) {
                getAndHeadExpansions[pattern.scheme, default: []] += entry.expansions
            }
            for method in record.methods where methodRank[method] == nil {
                methodRank[method] = Self.standardMethods.firstIndex(of: method) ?? (Self.standardMethods.count + methodRank.count)
            }
        }
    }

    /// The expansions whose segments could contain those of `inner` (hosts not compared yet), in registration order.
    func containerCandidates(of inner: Expansion, table: String?) -> [Int] {
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
                let key = foldLiterals || (depth == 0 && foldsFirst) ? bytes.map(ASCII.lowercased) : bytes
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
}
