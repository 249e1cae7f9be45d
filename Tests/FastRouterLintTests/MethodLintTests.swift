import Testing
@testable import FastRouter
@testable import FastRouterLint

/// The linter with HTTP methods (docs/SEMANTICS.md §3.7): a lookup with a method keeps the routes
/// that accept it, in the usual order, so a route is hidden method by method.
@Suite struct MethodLintTests {
    private func method(_ name: String) -> HTTPMethod { HTTPMethod(rawValue: name)! }

    /// A router of `routes` (pattern, methods, priority), ids 1, 2, … in order.
    private func router(_ routes: [(String, [HTTPMethod], Int32)], options: RouterOptions = RouterOptions()) throws -> Router<Int> {
        let router = Router<Int>(options: options)
        for (index, (pattern, methods, priority)) in routes.enumerated() {
            try router.add(pattern, methods: methods, priority: priority, id: UInt64(index + 1), value: index + 1)
        }
        return router
    }

    // MARK: Shadowed for some methods only

    @Test func aRouteShadowedForOneOfItsMethodsIsReportedForThatMethod() throws {
        let findings = try router([("/a/:x", [.get], 1), ("/a/{y}", [.get, .post], 0)]).lint()
        #expect(findings.count == 1)
        let finding = try #require(findings.first)
        #expect(finding.kind == .partlyShadowedRoute)
        #expect(finding.severity == .warning)
        #expect(finding.message == "route 'GET,POST /a/{y}' is shadowed for GET only: 'GET /a/:x' (priority 1) matches every URL it matches and comes first for GET (higher priority, 1 > 0); POST still reaches it")
        #expect(finding.methods == [.get])
        #expect(finding.route?.id == 2 && finding.route?.methods == [.get, .post])
        #expect(finding.relatedRoute?.id == 1)
        #expect(finding.exampleURL == "/a/1")
    }

    @Test func aRouteForAnyMethodLosesOnlyTheMethodsBetterRoutesName() throws {
        // A set of methods never covers every method: only a route for any method hides one wholly.
        let findings = try router([("/d/:x", [.get, .put], 1), ("/d/{y}", [], 0)]).lint()
        #expect(findings.map(\.kind) == [.partlyShadowedRoute])
        // HEAD too: the GET route, more specific by priority, answers it (docs/SEMANTICS.md §3.7).
        #expect(findings.first?.message == "route '/d/{y}' is shadowed for GET, HEAD, PUT only: 'GET,PUT /d/:x' (priority 1) matches every URL it matches and comes first for GET, HEAD, PUT (higher priority, 1 > 0); every other method still reaches it")
        #expect(findings.first?.methods == [.get, .head, .put])
        let strict = try router([("/d/:x", [.get, .put], 1), ("/d/{y}", [], 0)], options: RouterOptions(headFallback: false)).lint()
        #expect(strict.first?.methods == [.get, .put], "no fallback: GET routes never take HEAD")
        let whole = try router([("/d/:x", [], 1), ("/d/{y}", [], 0)]).lint()
        #expect(whole.map(\.kind) == [.shadowedRoute])
        #expect(whole.first?.methods == [])
    }

    @Test func oneRouteAcceptingEveryMethodOfAnotherShadowsItWholly() throws {
        let findings = try router([("/b/:x", [.get, .post], 1), ("/b/{y}", [.post], 0), ("/c/:x", [], 1), ("/c/{y}", [.delete], 0)]).lint()
        #expect(findings.map(\.kind) == [.shadowedRoute, .shadowedRoute])
        #expect(findings.map(\.message) == [
            "route 'POST /b/{y}' is never the first candidate: 'GET,POST /b/:x' (priority 1) matches every URL it matches and comes first for POST (higher priority, 1 > 0)",
            "route 'DELETE /c/{y}' is never the first candidate: '/c/:x' (priority 1) matches every URL it matches and comes first for DELETE (higher priority, 1 > 0)",
        ])
        #expect(findings.map(\.methods) == [[.post], [.delete]])
        #expect(findings.map(\.exampleURL) == ["/b/1", "/c/1"])
    }

    @Test func aMethodSetSharedOutAmongBetterRoutesIsNeverReached() throws {
        let findings = try router([("/c/:x", [.get], 1), ("/c/:y", [.post], 1), ("/c/{z}", [.get, .post], 0)]).lint()
        #expect(findings.count == 1)
        let finding = try #require(findings.first)
        #expect(finding.kind == .unreachableMethods)
        #expect(finding.message == "route 'GET,POST /c/{z}' is never the first candidate for any of its methods: 'GET /c/:x' (priority 1) matches every URL it matches and comes first for GET (higher priority, 1 > 0); 'POST /c/:y' (priority 1) matches every URL it matches and comes first for POST (higher priority, 1 > 0)")
        #expect(finding.methods == [.get, .post])
        #expect(finding.relatedRoute?.id == 1)
        #expect(finding.exampleURL == "/c/1")
    }

    @Test func aMethodKeptOnlyInTheoryIsNotClaimed() throws {
        // POST is hidden by two routes together (uint and negative numbers), which the analysis
        // does not claim: the finding names GET alone, without "only" and without a POST claim.
        let findings = try router([("/u/:y", [.get], 1), ("/u/{a:uint}", [.post], 1), ("/u/{b:-[0-9]+}", [.post], 1),
                                   ("/u/{x:int}", [.get, .post], 0)]).lint()
        #expect(findings.map(\.kind) == [.partlyShadowedRoute])
        #expect(findings.first?.message == "route 'GET,POST /u/{x:int}' is shadowed for GET: 'GET /u/:y' (priority 1) matches every URL it matches and comes first for GET (higher priority, 1 > 0)")
    }

    @Test func routesForOtherMethodsHideNothing() throws {
        #expect(try router([("/e/:x", [.get], 1), ("/e/{y}", [.post], 0), ("/e/z", [.put, .patch], 0)]).lint().isEmpty)
    }

    // MARK: HEAD

    /// A HEAD request takes the GET routes in their order (docs/SEMANTICS.md §3.7): a better GET
    /// route hides a route's HEAD requests as it hides its GET requests; without the fallback
    /// it hides only GET.
    @Test func aBetterGetRouteTakesTheHeadRequestsOfARouteAcceptingHead() throws {
        let headOnly = try router([("/h/:x", [.get], 1), ("/h/{y}", [.head], 0)]).lint()
        #expect(headOnly.map(\.kind) == [.shadowedRoute])
        #expect(headOnly.first?.message == "route 'HEAD /h/{y}' is never the first candidate: 'GET /h/:x' (priority 1) matches every URL it matches and comes first for HEAD (higher priority, 1 > 0)")
        let findings = try router([("/h/:x", [.get], 1), ("/h/{y}", [.get, .head], 0)]).lint()
        #expect(findings.map(\.kind) == [.shadowedRoute])
        #expect(findings.first?.message == "route 'GET,HEAD /h/{y}' is never the first candidate: 'GET /h/:x' (priority 1) matches every URL it matches and comes first for GET, HEAD (higher priority, 1 > 0)")
        #expect(try router([("/h/:x", [.get], 1), ("/h/{y}", [.get, .head], 0)]).match("/h/1", method: .head).match?.routeID == 1)

        let strict = RouterOptions(headFallback: false)
        #expect(try router([("/h/:x", [.get], 1), ("/h/{y}", [.head], 0)], options: strict).lint().isEmpty)
        let kept = try router([("/h/:x", [.get], 1), ("/h/{y}", [.get, .head], 0)], options: strict).lint()
        #expect(kept.map(\.kind) == [.partlyShadowedRoute])
        #expect(kept.first?.message == "route 'GET,HEAD /h/{y}' is shadowed for GET only: 'GET /h/:x' (priority 1) matches every URL it matches and comes first for GET (higher priority, 1 > 0); HEAD still reaches it")
        #expect(try router([("/h/:x", [.get], 1), ("/h/{y}", [.get, .head], 0)], options: strict).match("/h/1", method: .head).match?.routeID == 2)
    }

    /// A GET route of the same shape registered earlier keeps GET but not HEAD, which prefers the
    /// route naming HEAD; a GET route that is better by shape keeps HEAD.
    @Test func aGetRouteOfTheSameShapeLosesHeadToTheRouteNamingHead() throws {
        let headOnly = try router([("/h/{n:int}", [.get], 0), ("/h/{n:uint}", [.head], 0)]).lint()
        #expect(headOnly.isEmpty, "a route for HEAD without GET is a HEAD handler")
        let findings = try router([("/h/{n:int}", [.get], 0), ("/h/{n:uint}", [.get, .head], 0)]).lint()
        #expect(findings.map(\.kind) == [.headServedElsewhere, .ambiguousRoutes])
        let finding = try #require(findings.first)
        #expect(finding.message == "HEAD requests for some URLs of route 'GET /h/{n:int}' go to 'GET,HEAD /h/{n:uint}': it has equal precedence and names HEAD, which comes first for HEAD, while registration order gives GET to 'GET /h/{n:int}' (add HEAD to the route's methods)")
        #expect(finding.route?.id == 1 && finding.relatedRoute?.id == 2)
        #expect(finding.exampleURL == "/h/1")
        #expect(finding.methods == [.head])
        let router = try router([("/h/{n:int}", [.get], 0), ("/h/{n:uint}", [.get, .head], 0)])
        #expect(try router.match("/h/1", method: .get).match?.routeID == 1)
        #expect(try router.match("/h/1", method: .head).match?.routeID == 2)
    }

    @Test func headRequestsGoingElsewhereOnPurposeAreNotReported() throws {
        // A more specific GET route keeps its HEAD requests: nothing to report, fallback or not.
        #expect(try router([("/f/index", [.get], 0), ("/f/:name", [], 0)]).lint().isEmpty)
        #expect(try router([("/f/index", [.get], 0), ("/f/:name", [], 0)], options: RouterOptions(headFallback: false))
            .lint().isEmpty)
        // No fallback: GET routes never serve HEAD.
        #expect(try router([("/f/{n:int}", [.get], 0), ("/f/{n:uint}", [], 0)], options: RouterOptions(headFallback: false))
            .lint().map(\.kind) == [.ambiguousRoutes])
        // A route for HEAD alone is a HEAD handler; a route listing HEAD serves it itself.
        #expect(try router([("/f/index", [.get], 0), ("/f/:name", [.head], 0)]).lint().isEmpty)
        #expect(try router([("/f/{n:int}", [.get, .head], 0), ("/f/{n:uint}", [], 0)]).lint().map(\.kind) == [.ambiguousRoutes])
        // The broader route accepting HEAD also comes first for GET: that is shadowing, not this.
        #expect(try router([("/f/:name", [.get, .head], 1), ("/f/index", [.get], 0)]).lint().map(\.kind) == [.shadowedRoute])
    }

    // MARK: Ambiguity

    @Test func routesOfEqualPrecedenceAreAmbiguousOnlyForACommonMethod() throws {
        #expect(try router([("/x/{a:int}", [.get], 0), ("/x/{b:hex}", [.post], 0)]).lint().isEmpty)
        let findings = try router([("/x/{a:int}", [.get, .post], 0), ("/x/{b:hex}", [.post, .put], 0)]).lint()
        #expect(findings.count == 1)
        let finding = try #require(findings.first)
        #expect(finding.kind == .ambiguousRoutes)
        #expect(finding.message == "routes 'GET,POST /x/{a:int}' and 'POST,PUT /x/{b:hex}' have equal precedence and match some URLs in common for POST: only registration order puts 'GET,POST /x/{a:int}' first")
        #expect(finding.methods == [.post])
        #expect(finding.exampleURL == "/x/1")
        let withAny = try router([("/x/{a:int}", [], 0), ("/x/{b:hex}", [.delete], 0)]).lint()
        #expect(withAny.map(\.methods) == [[.delete]])
    }

    // MARK: Method names

    @Test func methodsDifferingFromAStandardOneOnlyByCaseAreReported() throws {
        let findings = try router([("/users", [method("get"), method("Post"), method("PURGE"), method("M-SEARCH")], 0)]).lint()
        #expect(findings.map(\.kind) == [.methodCase, .methodCase])
        #expect(findings.map(\.methods) == [[method("get")], [method("Post")]])
        #expect(findings.first?.message == "method 'get' of route 'get,Post,PURGE,M-SEARCH /users' is not GET: methods are case-sensitive, so GET requests do not match it (write GET)")
    }

    // MARK: Example URLs

    @Test func routesOfOnePathForDifferentMethodsEachGetTheirURL() throws {
        let router = try router([("/users/:id", [.get], 0), ("/users/:id", [.delete], 0), ("/d/:x", [.get], 1), ("/d/{y}", [], 0)])
        let requests = router.exampleRequests()
        // '/d/{y}' loses GET, and lookups without a method, to '/d/:x': DELETE, the next method
        // routes name, reaches it.
        #expect(requests.map(\.method) == [.get, .delete, .get, .delete])
        #expect(requests.map(\.url) == ["/users/1", "/users/1", "/d/1", "/d/1"])
        for request in requests {
            let url = try #require(request.url)
            let method = try #require(request.method)
            #expect(try router.match(url, method: method).match?.routeID == request.route.id)
        }
        #expect(router.exampleURLs().map(\.url) == requests.map(\.url))
        // A route for any method that nothing hides is looked up without a method.
        #expect(try self.router([("/z", [], 0)]).exampleRequests().map(\.method) == [nil])
    }

    // MARK: Routes files

    @Test func routesFileMethodListsAreRead() throws {
        #expect(try RouteLine("GET,HEAD /users/:id").methods == [.get, .head])
        #expect(try RouteLine("GET, POST /a 3").methods == [.get, .post])
        #expect(try RouteLine("GET , POST /a").methods == [.get, .post])
        #expect(try RouteLine("GET,GET /a").methods == [.get])
        #expect(try RouteLine("* /a").methods == [])
        #expect(try RouteLine("/a 3").methods == [])
        #expect(try RouteLine("PROPFIND /dav/*path -1").priority == -1)
        #expect(try RouteLine("users/:id 1").pattern == "users/:id", "a bad pattern, not a method")
    }

    @Test func invalidMethodTokensAreReportedWithTheirLine() {
        let file = """
            GET,,POST /a
            GÉT /b
            *,GET /c
            GET, /d
            GET /e
            """
        let findings = RouteLinter.lint(routesFileContents: file)
        #expect(findings.map(\.line) == [1, 2, 3, 4])
        #expect(findings.allSatisfy { $0.kind == .invalidMethod && $0.severity == .error })
        #expect(findings.map(\.message) == [
            "empty method name in 'GET,,POST'",
            "invalid method 'GÉT': not an HTTP token (letters, digits and !#$%&'*+-.^_`|~)",
            "'*' (any method) cannot be listed with other methods in '*,GET'",
            "empty method name in 'GET,'",
        ])
    }

    @Test func routesFilesRegisterEachLineForItsMethods() {
        let file = """
            GET        /users/:id
            DELETE     /users/:id
            GET,POST   /a
            POST,PUT   /a
            /b
            HEAD       /b
            get        /c
            GET        /h/:x 1
            GET,HEAD   /h/{y}
            """
        let findings = RouteLinter.lint(routesFileContents: file)
        #expect(findings.map(\.line) == [4, 6, 7, 9])
        #expect(findings.map(\.kind) == [.duplicateRoute, .duplicateRoute, .methodCase, .shadowedRoute])
        #expect(findings.map(\.message) == [
            "duplicate route: 'POST,PUT /a' has the same table, host, priority and segments as 'GET,POST /a' (line 3), and both accept POST",
            "duplicate route: 'HEAD /b' has the same table, host, priority and segments as '/b' (line 5), and both accept HEAD",
            "method 'get' of route 'get /c' is not GET: methods are case-sensitive, so GET requests do not match it (write GET)",
            "route 'GET,HEAD /h/{y}' is never the first candidate: 'GET /h/:x' (priority 1) matches every URL it matches and comes first for GET, HEAD (higher priority, 1 > 0)",
        ])
        #expect(findings.map(\.relatedLine) == [3, 5, nil, 8])
        #expect(RouteLinter.lint(routesFileContents: "GET /a\nGET /a\n").first?.message == "duplicate route: 'GET /a' is already on line 1")
    }

    @Test func aRoutersSixtyFifthMethodNameIsAnInvalidMethod() {
        let file = (0..<65).map { "M\($0) /m/\($0)" }.joined(separator: "\n")
        let findings = RouteLinter.lint(routesFileContents: file)
        #expect(findings.map(\.line) == [65])
        #expect(findings.first?.kind == .invalidMethod)
        #expect(findings.first?.message.contains("M64") == true)
    }

    @Test func theCExportsReportIncludesMethodFindings() throws {
        let router = try router([("/a/:x", [.get], 1), ("/a/{y}", [.get, .post], 0)])
        #expect(router.core.lintReport() == """
            warning: route 'GET,POST /a/{y}' is shadowed for GET only: 'GET /a/:x' (priority 1) matches every URL it matches and comes first for GET (higher priority, 1 > 0); POST still reaches it
                e.g. /a/1
            0 errors, 1 warning

            """)
    }
}
