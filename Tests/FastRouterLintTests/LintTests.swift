import Foundation
import Testing
@testable import FastRouter
@testable import FastRouterLint

@Suite struct LintTests {
    private func router(_ routes: [(String, Int32)], options: RouterOptions = RouterOptions()) throws -> Router<Int> {
        let router = Router<Int>(options: options)
        for (index, (pattern, priority)) in routes.enumerated() {
            try router.add(pattern, priority: priority, id: UInt64(index + 1), value: index + 1)
        }
        return router
    }

    // MARK: Shadowed routes

    @Test func higherPriorityPlaceholderShadowsALiteral() throws {
        let findings = try router([("/users/:id", 1), ("/users/me", 0)]).lint()
        #expect(findings.count == 1)
        let finding = try #require(findings.first)
        #expect(finding.kind == .shadowedRoute)
        #expect(finding.severity == .warning)
        #expect(finding.route?.pattern == "/users/me")
        #expect(finding.relatedRoute?.pattern == "/users/:id")
        #expect(finding.exampleURL == "/users/me")
        #expect(finding.message.contains("higher priority, 1 > 0"))
    }

    @Test func specificityAloneShadowsNothing() throws {
        #expect(try router([("/users/:id", 0), ("/users/me", 0), ("/users/{id:int}", 0), ("/users/*rest", 0)]).lint().isEmpty)
    }

    @Test func broaderConstraintRegisteredEarlierShadowsANarrowerOne() throws {
        let findings = try router([("/x/{a:float}", 0), ("/x/{b:int}", 0), ("/y/{a:alnum}", 0), ("/y/{b:alpha}", 0)]).lint()
        #expect(findings.map(\.kind) == [.shadowedRoute, .shadowedRoute])
        #expect(findings.map { $0.route?.pattern } == ["/x/{b:int}", "/y/{b:alpha}"])
        #expect(findings[0].message.contains("registered earlier"))
        #expect(findings[0].exampleURL == "/x/1")
        #expect(findings[1].exampleURL == "/y/a")
    }

    @Test func prioritizedWildcardShadowsEverythingBelowIt() throws {
        let findings = try router([("/files/*path", 5), ("/files/{name}.{ext}", 0), ("/files/a/b", 0), ("/files", 0),
                                   ("/other", 0)]).lint()
        #expect(findings.map { $0.route?.pattern } == ["/files/{name}.{ext}", "/files/a/b", "/files"])
        #expect(findings.allSatisfy { $0.relatedRoute?.pattern == "/files/*path" })
    }

    @Test func aGroupedRouteShadowsOnlyWhenEveryExpansionIsHidden() throws {
        let partly = try router([("/a/b", 2), ("/a(/b)", 0)]).lint()
        #expect(partly.isEmpty)
        let fully = try router([("/a/b", 2), ("/a", 2), ("/a(/b)", 0)]).lint()
        #expect(fully.map { $0.route?.pattern } == ["/a(/b)"])
    }

    @Test func caseInsensitiveLiteralsShadowTheirOtherSpellings() throws {
        var options = RouterOptions()
        options.caseInsensitivePaths = true
        let findings = try router([("/About", 0), ("/about", 0), ("/x/{v:[a-z]+}", 0), ("/x/abc", -1)], options: options).lint()
        // A folded literal also matches "ABC", which the regex refuses: "/x/abc" is not hidden.
        #expect(findings.map { $0.route?.pattern } == ["/about"])
        #expect(try router([("/About", 0), ("/about", 0)]).lint().isEmpty)
    }

    @Test func hostsAreComparedBeforePaths() throws {
        #expect(try router([("https://*/p/:id", 0), ("https://example.com/p/:id", 0), ("https://*.example.com/p/:id", 0)])
            .lint().isEmpty)
        let findings = try router([("https://*/p/:id", 1), ("https://shop.example.com/p/:id", 0),
                                   ("https://*.example.com/p/1", 0), ("http://shop.example.com/p/1", 0)]).lint()
        #expect(findings.map { $0.route?.pattern } == ["https://shop.example.com/p/:id", "https://*.example.com/p/1"])
        #expect(findings.first?.exampleURL == "https://shop.example.com/p/1")
    }

    @Test func tablesDoNotShadowEachOther() throws {
        #expect(try router([("myapp://users/:id", 9), ("/users/:id", 0), ("MYAPP://users/me", 0)]).lint().map(\.route?.pattern)
                == ["MYAPP://users/me"])
    }

    @Test func customSchemeHostSegmentFolds() throws {
        let findings = try router([("myapp://{section:alpha}/x", 1), ("myapp://Home/x", 0)]).lint()
        #expect(findings.map { $0.route?.pattern } == ["myapp://Home/x"])
    }

    @Test func routesSharingAnIDAreNotReportedAgainstEachOther() throws {
        let router = Router<Int>()
        try router.add("/a/:x", priority: 1, id: 7, value: 1)
        try router.add("/a/b", id: 7, value: 2)
        #expect(router.lint().isEmpty)
    }

    @Test func unionsOfRoutesAreNotClaimed() throws {
        // Every segment is an int or alpha, but "a1" still reaches the alnum route.
        #expect(try router([("/x/{a:int}", 1), ("/x/{b:alpha}", 1), ("/x/{c:alnum}", 0)]).lint().isEmpty)
    }

    // MARK: Ambiguous pairs

    @Test func overlappingConstraintsOfEqualRankAreAmbiguous() throws {
        let findings = try router([("/x/{a:int}", 0), ("/x/{b:hex}", 0), ("/x/{c:uuid}", 0)]).lint()
        #expect(findings.count == 1)
        let finding = try #require(findings.first)
        #expect(finding.kind == .ambiguousRoutes)
        #expect(finding.route?.pattern == "/x/{b:hex}")
        #expect(finding.relatedRoute?.pattern == "/x/{a:int}")
        #expect(finding.exampleURL == "/x/1")
    }

    @Test func regexAndPartialSegmentsAreProbedForACommonURL() throws {
        let findings = try router([("/t/{a:[0-9]+}", 0), ("/t/{b:\\d{1,3}}", 0), ("/f/{name}.json", 0), ("/f/{a}.{b}", 0),
                                   ("/g/{a:[a-z]+}", 0), ("/g/{b:[0-9]+}", 0)]).lint()
        #expect(findings.map(\.kind) == [.ambiguousRoutes, .ambiguousRoutes])
        #expect(findings.map(\.exampleURL) == ["/t/1", "/f/1.json"])
    }

    @Test func disjointLiteralsAndHostsAreNotAmbiguous() throws {
        #expect(try router([("https://a.com/x/:id", 0), ("https://b.com/x/:id", 0), ("/p/{a:int}/x", 0),
                            ("/p/{b:hex}/y", 0)]).lint().isEmpty)
    }

    // MARK: Soundness against the router

    /// Random tables: every route reported as shadowed is first for none of the URLs it matches,
    /// and both routes of an ambiguous pair match its example.
    @Test func shadowedRoutesAreNeverFirst() throws {
        var checked = (shadowed: 0, ambiguous: 0)
        for seed in 0..<60 { try checkRandomTable(seed: seed, &checked) }
        // The tables are small and dense: the check must have had findings to check.
        #expect(checked.shadowed >= 20)
        #expect(checked.ambiguous >= 5)
    }

    private func checkRandomTable(seed: Int, _ checked: inout (shadowed: Int, ambiguous: Int)) throws {
        var random = SplitMix64(UInt64(seed) &+ 17)
        let shapes = ["a", "b", ":P", "{P:int}", "{P:alpha}", "{P}.{Q}", "{P:[a-b]+}"]
        let pool = ["a", "b", "1", "22", "x.y", "a.b", "ab1", "-3", "ab"]
        let router = Router<Int>()
        var patterns: [Int: [String]] = [:]
        for index in 0..<10 {
            let depth = 1 + Int(random.next() % 3)
            var segments = (0..<depth).map { _ in shapes[Int(random.next() % UInt64(shapes.count))] }
            if random.next() % 5 == 0 { segments[depth - 1] = "*w" }
            var used = 0
            let pattern = "/" + segments.map { segment -> String in
                used += 1
                return segment.replacingOccurrences(of: "P", with: "p\(used)").replacingOccurrences(of: "Q", with: "q\(used)")
            }.joined(separator: "/")
            do {
                try router.add(pattern, priority: Int32(random.next() % 2), id: UInt64(index), value: index)
                patterns[index] = segments
            } catch {
                continue
            }
        }
        for finding in router.lint() {
            let route = try #require(finding.route)
            if finding.kind == .ambiguousRoutes {
                let example = try #require(finding.exampleURL)
                let ids = try router.matches(example).map(\.routeID)
                #expect(ids.contains(route.id) && ids.contains(finding.relatedRoute!.id))
                checked.ambiguous += 1
                continue
            }
            checked.shadowed += 1
            let depth = patterns[Int(route.id)]!.count
            var urls: [String] = [""]
            for _ in 0..<(depth + 1) { urls = urls.flatMap { prefix in pool.map { prefix + "/" + $0 } } + urls }
            for url in Set(urls) where !url.isEmpty {
                let ids = try router.matches(url).map(\.routeID)
                guard ids.contains(route.id) else { continue }
                #expect(ids.first != route.id, "\(route.pattern) is first for \(url): \(finding.message)")
            }
        }
    }

    // MARK: Routes files

    @Test func routesFileFindingsNameTheirLines() {
        let file = """
            # users
            GET  /users/:id
            POST /users/:id
            GET  /users/:name
            /users/me 0
            /users/me
            /x/{a:int} 1
            /x/42
            /bad/{id:nope(}
            /ok/{id} high
            /too many fields here
            users/relative
            """
        let findings = RouteLinter.lint(routesFileContents: file)
        #expect(findings.map(\.line) == [4, 6, 8, 9, 10, 11, 12])
        #expect(findings.map(\.kind) == [.duplicateRoute, .duplicateRoute, .shadowedRoute, .invalidPattern, .invalidLine,
                                         .invalidLine, .invalidPattern])
        #expect(findings[0].relatedLine == 2)
        #expect(findings[0].message
                == "duplicate route: 'GET /users/:name' has the same table, host, priority and segments as 'GET /users/:id' (line 2), and both accept GET")
        #expect(findings[1].message == "duplicate route: '/users/me' is already on line 5")
        #expect(findings[2].relatedLine == 7)
        #expect(findings[6].offset == 0)
        #expect(findings.filter { $0.severity == .error }.count == 6)
    }

    @Test func routesFilesWithCRLFOrCRLineEndsReadLineByLine() {
        for ending in ["\r\n", "\r", "\n"] {
            let file = ["/a", "/b 5", "/c x", "/a"].joined(separator: ending) + ending
            let findings = RouteLinter.lint(routesFileContents: file)
            #expect(findings.map(\.line) == [3, 4], "line ending \(Array(ending.utf8))")
            #expect(findings.map(\.kind) == [.invalidLine, .duplicateRoute])
        }
    }

    @Test func aLowerCaseMethodIsAMethodNotABadPriority() {
        // Methods are case-sensitive tokens: `get` registers (and draws a warning, see
        // MethodLintTests); `high` after a pattern is a priority that does not parse.
        let findings = RouteLinter.lint(routesFileContents: "get /users\n/users high\n")
        #expect(findings.map(\.kind) == [.methodCase, .invalidLine])
        #expect(findings[1].message == "priority 'high' is not a 32-bit integer")
    }

    @Test func groupedRouteCollidingWithItselfIsReported() {
        let findings = RouteLinter.lint(routesFileContents: "/a(/:x)(/:y)\n")
        #expect(findings.map(\.kind) == [.duplicateRoute])
        #expect(findings.first?.message.hasSuffix("another of its own expansions") == true)
    }

    @Test func formatReadsLikeACompiler() {
        let findings = RouteLinter.lint(routesFileContents: "/users/:id 1\n/users/me\n")
        #expect(RouteLinter.format(findings, fileName: "routes.txt") == """
            routes.txt:2: warning: route '/users/me' is never the first candidate: '/users/:id' (priority 1) matches every URL it matches and comes first (higher priority, 1 > 0)
                e.g. /users/me
            0 errors, 1 warning

            """)
        #expect(RouteLinter.format([], fileName: "routes.txt") == "no problems found\n")
    }

    @Test func lintOptionsChangeWhatShadowsWhat() {
        let file = "/About\n/about\n"
        #expect(RouteLinter.lint(routesFileContents: file).isEmpty)
        #expect(RouteLinter.lint(routesFileContents: file, options: RouterOptions(caseInsensitivePaths: true)).map(\.line) == [2])
    }

    @Test func shippedRouteSetsHaveNoErrors() throws {
        let github = """
            GET /repos/:owner/:repo
            GET /repos/:owner/:repo/issues
            GET /users/:user
            GET /user
            """
        #expect(RouteLinter.lint(routesFileContents: github).isEmpty)
    }

    @Test func lintReportIsWhatAnExportWouldWrite() throws {
        let router = try router([("/users/:id", 1), ("/users/me", 0)])
        #expect(router.core.lintReport() == RouteLinter.format(router.lint()))
        #expect(router.core.lintReport().hasSuffix("0 errors, 1 warning\n"))
        #expect(Router<Void>().core.lintReport() == "no problems found\n")
    }

    // MARK: Introspection

    @Test func routesListEveryTableAndDumpShowsThem() throws {
        let router = Router<Int>()
        try router.add("/a", id: 1, value: 1)
        try router.add("MyApp://b/:c", priority: 3, id: 2, value: 2)
        try router.add("https://example.com/d(/e)", id: 3, value: 3)
        #expect(router.routes == [
            RouteDescription(pattern: "/a", priority: 0, id: 1, scheme: nil),
            RouteDescription(pattern: "MyApp://b/:c", priority: 3, id: 2, scheme: "myapp"),
            RouteDescription(pattern: "https://example.com/d(/e)", priority: 0, id: 3, scheme: "https"),
        ])
        #expect(router.routes.map(\.table) == ["global", "myapp", "https"])
        #expect(router.routes[1].description == "MyApp://b/:c  priority 3  id 2  table myapp")
        let dump = router.dump()
        #expect(dump.contains("table global (1 route)"))
        #expect(dump.contains("table myapp (1 route)"))
        #expect(dump.contains("MyApp://b/:c  priority 3  id 2"))
    }

    /// Review (AddressSanitizer: stack-use-after-scope): the linter's candidate walk declined
    /// candidates after leaving `withUTF8`, while the scratch still pointed into a small URL
    /// string's temporary bytes. A declined wildcard candidate copies those bytes, so this walk
    /// reads them; under `make test-asan` the old code fails here.
    @Test func linterDeclinesCandidatesWhileTheURLIsAlive() throws {
        let router = Router<Int>()
        try router.add("/a/*rest", id: 1, value: 1)
        try router.add("/a/:b/:c", id: 2, value: 2)
        try router.add("/a/b/*rest", id: 3, value: 3)
        try router.add("/a/b/c", id: 4, value: 4)
        let analysis = RouteAnalysis(core: router.core)
        for url in ["/a/b/c", "/a//b/c/", "/a/b/%63"] {
            #expect(analysis.candidateIDs(url) == (try router.matches(url).map(\.routeID)), "\(url)")
        }
        #expect(analysis.candidateIDs("/a/b/c") == [4, 3, 2, 1])
    }
}
