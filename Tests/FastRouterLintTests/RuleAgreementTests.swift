import Testing
@testable import FastRouter
@testable import FastRouterLint

/// Lookups and the linter state the order of docs/SEMANTICS.md §3.1 once, through
/// ``PrecedenceKey``: what the linter concludes must be what the router does.
@Suite struct RuleAgreementTests {
    // MARK: Candidate order (§3.1)

    /// Routes where every field of the order decides somewhere: priorities, exact, suffix and any
    /// hosts, each kind of segment at each place, wildcards matching nothing, registration order
    /// between equal ranks, and expansions of one route matching the same URL.
    static let routes: [(pattern: String, priority: Int32)] = [
        ("/a/b/c", 0), ("/a/:x/c", 0), ("/:x/b/c", 0), ("/a/*rest", 0), ("/a/{x:alpha}/c", 0), ("/a/b/{f}.{e}", 0),
        ("/a(/b)(/{n:int})", 0), ("/a/:x(/:y)", 0), ("/a/:x/:y", 1), ("/*all", 0), ("/a/b/c", -1),
        ("/q/:x", 0), ("/q/{y:[a-z]+}", 0), ("/q/{z:alpha}", 0), ("/q(/{w:int})", 0), ("/q/*rest", 0), ("/e(/{x:int})(/{y:uint})", 0),
        ("/p/{x:[a-z.]+}", 0), ("/p/{a}.{b}", 0),
        ("https://example.com/a/:x", 0), ("https://*.example.com/a/:x", 0), ("https://*/a/b", 0),
        ("https://www.example.com/a/*rest", 0), ("https://*.example.com/a/b", 2), ("https://*/a/*rest", 0),
        ("myapp://h/:x", 0), ("myapp://{s:alpha}/x", 0), ("myapp://H/x", 0), ("myapp://h/*rest", 0),
        ("myapp://:host(/:x)", 0),
    ]

    static let urls = [
        "/", "/a", "/a/b", "/a/b/c", "/a/b/c.d", "/a/b/7", "/a/zz/c", "/a/x/y", "/zz/b/c", "/a/b/c/d",
        "/q", "/q/abc", "/q/ABC", "/q/12", "/q/a/b", "/e/1", "/e/1/2", "/e/-1", "/p/a.b", "/p/ab",
        "https://www.example.com/a/b", "https://example.com/a/b", "https://x.y.example.com/a/q",
        "https://other.com/a/b", "https://example.com/a/b/c", "http://example.com/a/b/c",
        "myapp://h/x", "myapp://H/x", "myapp://h/y", "myapp://h", "myapp://zz/x", "myapp://h/x/y",
    ]

    /// For every URL the router's candidates, best first, are the expansions the linter's model
    /// says match it, ordered by their ``PrecedenceKey``s: the scheme's table, then the global one.
    @Test func lintAndLookupAgreeOnCandidateOrder() throws {
        for options in [RouterOptions(), RouterOptions(caseInsensitivePaths: true)] {
            let router = Router<Int>(options: options)
            for (index, route) in Self.routes.enumerated() {
                try router.add(route.pattern, priority: route.priority, id: UInt64(index), value: index)
            }
            let analysis = RouteAnalysis(core: router.core)
            var decided = Set<String>()
            for url in Self.urls {
                let expected = try router.matches(url).map(\.routeID)
                let ordered = lintOrder(analysis, url)
                #expect(ordered.map { analysis.entries[$0.entry].description.id } == expected,
                        "\(url) (case-insensitive: \(options.caseInsensitivePaths))")
                for (first, second) in zip(ordered, ordered.dropFirst()) {
                    if let field = PrecedenceKey.decision(first.precedence, second.precedence)?.field {
                        decided.insert("\(field)")
                    }
                }
            }
            // The routes are there to make every field decide between neighbours somewhere.
            #expect(decided == ["priority", "host", "path", "registration", "expansion"])
        }
    }

    /// Random tables of one depth class, every URL of a small pool: the same agreement.
    @Test func lintAndLookupAgreeOnRandomTables() throws {
        let shapes = ["a", "b", ":p", "{p:int}", "{p:alpha}", "{p}.{q}", "{p:[a-b.]+}", "*w", "(/a)", "(/:p)"]
        let pool = ["a", "b", "1", "22", "x.y", "a.b", "ab1", "-3", "ab"]
        var urls: [String] = ["/"]
        var level = [""]
        for _ in 0..<3 {
            level = level.flatMap { prefix in pool.map { prefix + "/" + $0 } }
            urls += level
        }
        var compared = 0
        for seed in 0..<40 {
            var random = AgreementSeed(UInt64(seed) &+ 101)
            let router = Router<Int>()
            for index in 0..<12 {
                var pattern = ""
                for position in 0..<(1 + Int(random.next() % 3)) {
                    let shape = shapes[Int(random.next() % UInt64(shapes.count))]
                    pattern += shape.hasPrefix("(") ? shape : "/" + shape.replacingOccurrences(of: "p", with: "p\(position)")
                        .replacingOccurrences(of: "q", with: "q\(position)")
                }
                let priority = Int32(random.next() % 3) - 1
                _ = try? router.add(pattern, priority: priority, id: UInt64(index), value: index)
            }
            let analysis = RouteAnalysis(core: router.core)
            for url in urls {
                let expected = try router.matches(url).map(\.routeID)
                let ordered = lintOrder(analysis, url).map { analysis.entries[$0.entry].description.id }
                #expect(ordered == expected, "seed \(seed): \(url)")
                compared += expected.count > 1 ? 1 : 0
            }
        }
        #expect(compared > 1000)
    }

    /// The expansions matching `url` by the linter's reading of the routes (host rule, then each
    /// segment as the matcher compares it), in the order of their precedence keys: the URL's
    /// scheme table first, then the global table.
    private func lintOrder(_ analysis: RouteAnalysis, _ url: String) -> [RouteAnalysis.Expansion] {
        var scheme: String?
        var host: String?
        var path = Substring(url)
        if let separator = url.firstRange(of: "://") {
            scheme = url[..<separator.lowerBound].lowercased()
            path = url[separator.upperBound...]
            if analysis.core.options.webSchemes.contains(scheme!) {
                let slash = path.firstIndex(of: "/") ?? path.endIndex
                host = path[..<slash].lowercased()
                path = path[slash...]
            }
        }
        let segments = path.split(separator: "/").map { Array($0.utf8) }
        var tables: [String?] = []
        if let scheme { tables.append(scheme) }
        if scheme == nil || analysis.core.options.globalFallback { tables.append(nil) }
        var ordered: [RouteAnalysis.Expansion] = []
        for table in tables {
            ordered += (analysis.tables[table] ?? []).map { analysis.expansions[$0] }
                .filter { matches($0, analysis, host: host, segments: segments) }
                .sorted { $0.precedence < $1.precedence }
        }
        return ordered
    }

    private func matches(_ expansion: RouteAnalysis.Expansion, _ analysis: RouteAnalysis, host: String?,
                         segments: [[UInt8]]) -> Bool {
        let pattern = analysis.entries[expansion.entry].pattern
        if pattern.host != .any {
            guard let host, analysis.hostIncludes(pattern.host, .exact(host)) else { return false }
        }
        if expansion.wildcard {
            guard segments.count >= expansion.segments.count else { return false }
        } else {
            guard segments.count == expansion.segments.count else { return false }
        }
        for (position, segment) in expansion.segments.enumerated()
        where !analysis.accepts(segment, pattern, segments[position], position: position) {
            return false
        }
        return true
    }
}

/// A small deterministic generator (SplitMix64).
struct AgreementSeed {
    var state: UInt64
    init(_ seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
