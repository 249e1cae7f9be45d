import Testing
@testable import FastRouter
@testable import FastRouterLint

/// Lookups and the linter state the rules of docs/SEMANTICS.md §3.1 and §3.6 once, through
/// ``PrecedenceKey`` and ``DuplicateKey``: what the linter concludes must be what the router does.
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
        let urls = Self.paths(of: pool, upTo: 3)
        var compared = 0
        for seed in 0..<40 {
            var random = SplitMix64(UInt64(seed) &+ 101)
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

    /// HEAD requests (docs/SEMANTICS.md §3.7): the routes accepting HEAD or GET, ordered by
    /// ``PrecedenceKey/decision(_:_:namingHead:)`` (the route naming HEAD first at a tie of
    /// shape), are the router's candidates; without the fallback, the routes accepting HEAD in
    /// the plain order.
    @Test func lintAndLookupAgreeOnHeadRequests() throws {
        let shapes = ["a", ":p", "{p:int}", "{p:alpha}", "{p:hex}", "*w"]
        let methodSets: [[HTTPMethod]] = [[.get], [.head], [.get, .head], [], [.post], [.head, .post]]
        let pool = ["a", "1", "ab", "f0"]
        let urls = Self.paths(of: pool, upTo: 2)
        var decidedByHead = 0
        for seed in 0..<60 {
            for headFallback in [true, false] {
                var random = SplitMix64(UInt64(seed) &+ 303)
                let router = Router<Int>(options: RouterOptions(headFallback: headFallback))
                for index in 0..<10 {
                    let pattern = (0..<(1 + Int(random.next() % 2))).map { position in
                        "/" + shapes[Int(random.next() % UInt64(shapes.count))].replacingOccurrences(of: "p", with: "p\(position)")
                    }.joined()
                    let methods = methodSets[Int(random.next() % UInt64(methodSets.count))]
                    _ = try? router.add(pattern, methods: methods, priority: Int32(random.next() % 2), id: UInt64(index), value: index)
                }
                let analysis = RouteAnalysis(core: router.core)
                for url in urls {
                    let expected = try router.matches(url, method: .head).map(\.routeID)
                    let ordered = lintOrder(analysis, url, head: headFallback ? .fallback : .own)
                    #expect(ordered.map { analysis.entries[$0.entry].description.id } == expected,
                            "seed \(seed), fallback \(headFallback): HEAD \(url)")
                    for (first, second) in zip(ordered, ordered.dropFirst()) where headFallback {
                        let naming = (analysis.entries[first.entry].accepts(.head), analysis.entries[second.entry].accepts(.head))
                        if PrecedenceKey.decision(first.precedence, second.precedence, namingHead: naming)?.field == .head {
                            decidedByHead += 1
                        }
                    }
                }
            }
        }
        #expect(decidedByHead > 20, "neighbours put in order by the route naming HEAD: \(decidedByHead)")
    }

    /// How ``lintOrder(_:_:head:)`` reads a HEAD request: not one (every route), with the
    /// fallback (routes accepting HEAD or GET, the route naming HEAD first at a tie of shape) or
    /// without it (routes accepting HEAD).
    private enum HeadRequest { case none, fallback, own }

    /// The expansions matching `url` by the linter's reading of the routes (host rule, then each
    /// segment as the matcher compares it), in the order of their precedence keys: the URL's
    /// scheme table first, then the global table.
    /// `/` and every path of one to `depth` segments taken from `pool`.
    private static func paths(of pool: [String], upTo depth: Int) -> [String] {
        var urls = ["/"]
        var level = [""]
        for _ in 0..<depth {
            level = level.flatMap { prefix in pool.map { prefix + "/" + $0 } }
            urls += level
        }
        return urls
    }

    private func lintOrder(_ analysis: RouteAnalysis, _ url: String, head: HeadRequest = .none) -> [RouteAnalysis.Expansion] {
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
            let namesHead = { (expansion: RouteAnalysis.Expansion) in analysis.entries[expansion.entry].accepts(.head) }
            let takes = { (expansion: RouteAnalysis.Expansion) -> Bool in
                switch head {
                case .none: true
                case .own: namesHead(expansion)
                case .fallback: namesHead(expansion) || analysis.entries[expansion.entry].accepts(.get)
                }
            }
            ordered += (analysis.tables[table] ?? []).map { analysis.expansions[$0] }
                .filter { takes($0) && matches($0, analysis, host: host, segments: segments) }
                .sorted { lhs, rhs in
                    let naming = head == .fallback ? (namesHead(lhs), namesHead(rhs)) : nil
                    return PrecedenceKey.decision(lhs.precedence, rhs.precedence, namingHead: naming)?.lhsFirst ?? false
                }
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

    // MARK: Duplicates (§3.6)

    /// Registration, the linter and the routes-file reader call the same pairs duplicates: the
    /// pairs whose ``DuplicateKey``s meet.
    @Test func registrationLintAndTheRoutesFileReaderAgreeOnDuplicates() throws {
        let pairs: [(String, String)] = [
            ("/users/:id", "/users/:name"), ("/users/{id:int}", "/users/{id:uint}"), ("/users/:id", "/users/{id:int}"),
            ("/f/{a}.{b}", "/f/{c}.{d}"), ("/f/{a}.json", "/f/{a}.xml"), ("/A", "/a"), ("/a(/b)", "/a"),
            ("/a(/b)", "/a/c"), ("https://a.com/x", "https://b.com/x"), ("https://*.a.com/x", "https://*.a.com/x"),
            ("https://a.com/x", "https://*.a.com/x"), ("myapp://x/*rest", "myapp://x/*"), ("MYAPP://x", "myapp://x"),
            ("/x 1", "/x"), ("/x 1", "/x 1"),
        ]
        for options in [RouterOptions(), RouterOptions(caseInsensitivePaths: true)] {
            let core = RouterCore(options: options)
            for (first, second) in pairs {
                let lines = try [RouteLine(first), RouteLine(second)]
                let keys = try lines.map { DuplicateKey.keys(of: try core.parsedPattern($0.pattern), priority: $0.priority) }
                let collide = !Set(keys[0]).isDisjoint(with: keys[1])
                // Registration.
                let router = Router<Void>(options: options)
                try router.add(lines[0].pattern, priority: lines[0].priority)
                var refused = false
                do { try router.add(lines[1].pattern, priority: lines[1].priority) } catch { refused = error.code == .duplicateRoute }
                #expect(refused == collide, "registration: \(first), \(second)")
                // The linter.
                let findings = RouteLinter.lint(routesFileContents: first + "\n" + second + "\n", options: options)
                #expect(findings.contains { $0.kind == .duplicateRoute } == collide, "lint: \(first), \(second)")
                // The reader: the same route named twice is a duplicate, with another method it is that route.
                var index = RouteLineIndex(core: core)
                let (reading, firstKeys) = index.read(lines[0])
                #expect(reading == .newRoute)
                index.record(lines[0], keys: firstKeys, number: 1)
                let sameKeys = keys[0] == keys[1]
                let again = index.read(lines[1]).reading
                #expect(again == (sameKeys ? .duplicate(line: 1, pattern: lines[0].pattern) : .newRoute), "\(first), \(second)")
                var methods = RouteLineIndex(core: core)
                let get = try RouteLine("GET " + first)
                methods.record(get, keys: methods.read(get).keys, number: 1)
                let put = try RouteLine("PUT " + second)
                #expect(methods.read(put).reading == (sameKeys ? .anotherMethod(line: 1) : .newRoute), "\(first), \(second)")
            }
        }
    }

    /// The linter registers each line for its methods: lines of one path (whatever the names)
    /// are duplicates only when their methods overlap (§3.7).
    @Test func linesOfOnePathAreDuplicatesOnlyForACommonMethod() {
        let file = """
            GET  /users/:id
            PUT  /users/:name
            POST /users/{id:int}
            POST /users/{n:int}
            GET  /users/{n:int}
            """
        let findings = RouteLinter.lint(routesFileContents: file)
        #expect(findings.map(\.line) == [4])
        #expect(findings.first?.message
                == "duplicate route: 'POST /users/{n:int}' has the same table, host, priority and segments as 'POST /users/{id:int}' (line 3), and both accept POST")
        #expect(findings.first?.relatedRoute?.pattern == "/users/{id:int}")
    }
}
