#if Hummingbird
import Hummingbird
import HummingbirdTesting
import FastRouterHummingbird
import Testing

private func reply(of builder: FastRouterBuilder<BasicRequestContext>, _ method: HTTPRequest.Method, _ uri: String) async throws -> Answer {
    try await answers(of: builder, to: [TestRequest(method: method, uri: uri)])[0]
}

/// Appends its tag to `X-Tags`, also on answers that arrive as thrown `HTTPError`s (404, 405, 400):
/// the order of the tags shows which middleware a request went through, innermost first.
private struct TagMiddleware<Context: RequestContext>: RouterMiddleware {
    let tag: String

    init(_ tag: String) { self.tag = tag }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response: Response
        do {
            response = try await next(request, context)
        } catch let error as any HTTPResponseError {
            response = try error.response(from: request, context: context)
        }
        let name = HTTPFields.tagsName
        response.headers[name] = response.headers[name].map { "\($0) \(tag)" } ?? tag
        return response
    }
}

/// Copies `context.endpointPath`, as it is once the request has been answered, to `X-Endpoint`.
private struct EndpointPathMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response: Response
        do {
            response = try await next(request, context)
        } catch let error as any HTTPResponseError {
            response = try error.response(from: request, context: context)
        }
        response.headers[HTTPFields.endpointName] = context.endpointPath ?? "none"
        return response
    }
}

/// The router's own answers: 405 with `Allow` (custom methods too), 404, and 400 for an unreadable path.
@Suite struct MethodAnswerTests {
    @Test func anotherMethodOnARoutedPathIs405WithAllow() async throws {
        let router = FastRouterBuilder()
        router.get("/items/:id") { _, _ in "get" }
        router.delete("/items/:id") { _, _ in "delete" }
        let answers = try await answers(of: router, to: [
            .init(method: .post, uri: "/items/3"),
            .init(method: .put, uri: "/items/3"),
            .init(method: .get, uri: "/items/3"),
            .init(method: .delete, uri: "/items/3"),
        ])
        #expect(answers == [
            Answer(status: 405, allow: "GET, HEAD, DELETE", contentLength: "0"),
            Answer(status: 405, allow: "GET, HEAD, DELETE", contentLength: "0"),
            Answer(status: 200, contentLength: "3", body: "get"),
            Answer(status: 200, contentLength: "6", body: "delete"),
        ])
    }

    @Test func unknownPathIs404() async throws {
        let router = FastRouterBuilder()
        router.get("/items/:id") { _, _ in "get" }
        let answers = try await answers(of: router, to: [
            .init(method: .get, uri: "/nothing"),
            .init(method: .post, uri: "/nothing"),
            .init(method: .get, uri: "/items"),
            .init(method: .get, uri: "/items/3/more"),
        ])
        #expect(answers == Array(repeating: Answer(status: 404, contentLength: "0"), count: 4))
    }

    @Test func emptyRouterAnswers404() async throws {
        let answer = try await reply(of: FastRouterBuilder(), .get, "/")
        #expect(answer == Answer(status: 404, contentLength: "0"))
    }

    @Test func customMethodRoutesAndIsListedInAllow() async throws {
        let purge = HTTPRequest.Method("PURGE")!
        let router = FastRouterBuilder()
        router.on("/cache/:key", method: purge) { _, context in "purged \(try context.parameters.require("key"))" }
        router.get("/cache/:key") { _, _ in "cached" }
        let answers = try await answers(of: router, to: [
            .init(method: purge, uri: "/cache/k1"),
            .init(method: .post, uri: "/cache/k1"),
            .init(method: HTTPRequest.Method("purge")!, uri: "/cache/k1"),
        ])
        #expect(answers == [
            Answer(status: 200, contentLength: "9", body: "purged k1"),
            // Methods are case-sensitive tokens: lower-case `purge` is another method.
            Answer(status: 405, allow: "GET, HEAD, PURGE", contentLength: "0"),
            Answer(status: 405, allow: "GET, HEAD, PURGE", contentLength: "0"),
        ])
    }

    @Test func invalidPercentEscapeIs400() async throws {
        let router = FastRouterBuilder()
        router.get("/users/:id") { _, _ in "user" }
        let answers = try await answers(of: router, to: [
            .init(method: .get, uri: "/users/%zz"),
            .init(method: .get, uri: "/users/%4"),
            .init(method: .get, uri: "/nowhere/%zz"),
        ])
        #expect(answers == Array(repeating: Answer(status: 400, contentLength: "0"), count: 3))
    }
}

/// HEAD requests: served by the GET route without a body, unless a HEAD route of the same path comes first.
@Suite struct HeadTests {
    @Test func getRouteServesHeadWithoutBody() async throws {
        let router = FastRouterBuilder()
        router.get("/page") { _, _ in "hello, world" }
        let answers = try await answers(of: router, to: [
            .init(method: .get, uri: "/page"),
            .init(method: .head, uri: "/page"),
        ])
        #expect(answers == [
            Answer(status: 200, contentLength: "12", body: "hello, world"),
            Answer(status: 200, contentLength: "12", body: ""),
        ])
    }

    @Test func explicitHeadRouteWinsOverGetRoute() async throws {
        let router = FastRouterBuilder()
        router.get("/page") { _, _ in "from get" }
        router.head("/page") { _, _ in Response(status: .accepted) }
        let answers = try await answers(of: router, to: [
            .init(method: .head, uri: "/page"),
            .init(method: .get, uri: "/page"),
        ])
        #expect(answers[0].status == 202)
        #expect(answers[0].body == "")
        #expect(answers[1] == Answer(status: 200, contentLength: "8", body: "from get"))
    }

    @Test func headOnlyRouteDoesNotServeGet() async throws {
        let router = FastRouterBuilder()
        router.head("/probe") { _, _ in Response(status: .noContent) }
        let answers = try await answers(of: router, to: [
            .init(method: .head, uri: "/probe"),
            .init(method: .get, uri: "/probe"),
        ])
        #expect(answers[0].status == 204)
        #expect(answers[1] == Answer(status: 405, allow: "HEAD", contentLength: "0"))
    }

    @Test(arguments: [[], Hummingbird.RouterOptions.autoGenerateHeadEndpoints])
    func headFromGetWhateverTheHummingbirdOptions(options: Hummingbird.RouterOptions) async throws {
        let router = FastRouterBuilder(context: BasicRequestContext.self, options: options)
        router.get("/page") { _, _ in "abc" }
        let answer = try await reply(of: router, .head, "/page")
        #expect(answer == Answer(status: 200, contentLength: "3", body: ""))
    }
}

/// Which middleware runs for which answers: the router's for all (404, 405, 400 too), a group's for its routes.
@Suite struct MiddlewareTests {
    @Test func routerMiddlewareRunsForMatchesAndRouterAnswers() async throws {
        let router = FastRouterBuilder()
        router.add(middleware: TagMiddleware("router"))
        router.get("/items/:id") { _, _ in "item" }
        let answers = try await answers(of: router, to: [
            .init(method: .get, uri: "/items/1"),
            .init(method: .get, uri: "/missing"),
            .init(method: .post, uri: "/items/1"),
            .init(method: .get, uri: "/items/%zz"),
        ])
        #expect(answers == [
            Answer(status: 200, contentLength: "4", tags: "router", body: "item"),
            Answer(status: 404, contentLength: "0", tags: "router"),
            Answer(status: 405, allow: "GET, HEAD", contentLength: "0", tags: "router"),
            Answer(status: 400, contentLength: "0", tags: "router"),
        ])
    }

    @Test func middlewareRunsInTheOrderAdded() async throws {
        let router = FastRouterBuilder()
        router.add(middleware: TagMiddleware("outer"))
        router.add(middleware: TagMiddleware("inner"))
        router.get("/a") { _, _ in "a" }
        let answers = try await answers(of: router, to: [
            .init(method: .get, uri: "/a"),
            .init(method: .get, uri: "/b"),
        ])
        #expect(answers.map(\.tags) == ["inner outer", "inner outer"])
    }

    @Test func middlewareAddedAfterARouteDoesNotApplyToIt() async throws {
        let router = FastRouterBuilder()
        router.get("/before") { _, _ in "before" }
        router.add(middleware: TagMiddleware("late"))
        router.get("/after") { _, _ in "after" }
        let answers = try await answers(of: router, to: [
            .init(method: .get, uri: "/before"),
            .init(method: .get, uri: "/after"),
            .init(method: .get, uri: "/missing"),
        ])
        #expect(answers == [
            Answer(status: 200, contentLength: "6", body: "before"),
            Answer(status: 200, contentLength: "5", tags: "late", body: "after"),
            Answer(status: 404, contentLength: "0", tags: "late"),
        ])
    }

    @Test func groupMiddlewareAppliesToTheGroupsRoutesOnly() async throws {
        let router = FastRouterBuilder()
        router.add(middleware: TagMiddleware("router"))
        router.get("/health") { _, _ in "ok" }
        router.group("/api")
            .add(middleware: TagMiddleware("api"))
            .get("/users/:id") { _, context in "user \(try context.parameters.require("id"))" }
            .post("/users") { _, _ in "created" }
        let answers = try await answers(of: router, to: [
            .init(method: .get, uri: "/api/users/7"),
            .init(method: .post, uri: "/api/users"),
            .init(method: .get, uri: "/health"),
            .init(method: .get, uri: "/api/unknown"),
            .init(method: .get, uri: "/api/users"),
            .init(method: .get, uri: "/users/7"),
        ])
        #expect(answers == [
            Answer(status: 200, contentLength: "6", tags: "api router", body: "user 7"),
            Answer(status: 200, contentLength: "7", tags: "api router", body: "created"),
            Answer(status: 200, contentLength: "2", tags: "router", body: "ok"),
            // The router's own answers are outside every group.
            Answer(status: 404, contentLength: "0", tags: "router"),
            Answer(status: 405, allow: "POST", contentLength: "0", tags: "router"),
            Answer(status: 404, contentLength: "0", tags: "router"),
        ])
    }

    @Test func nestedGroupsPrefixTheirPaths() async throws {
        let router = FastRouterBuilder()
        router.group("/api").group("v2").get("/items/{id}") { _, context in
            "\(context.endpointPath ?? "-") \(try context.parameters.require("id"))"
        }
        let answers = try await answers(of: router, to: [
            .init(method: .get, uri: "/api/v2/items/9"),
            .init(method: .get, uri: "/items/9"),
            .init(method: .get, uri: "/v2/items/9"),
        ])
        #expect(answers.map(\.status) == [200, 404, 404])
        #expect(answers[0].body == "/api/v2/items/{id} 9")
    }
}

/// What `context.parameters` and `context.endpointPath` hold in a handler.
@Suite struct ParameterTests {
    @Test func namedCapturesInBothSpellings() async throws {
        let router = FastRouterBuilder()
        router.get("/users/:id/posts/{post}") { _, context in Echo.body(route: "posts", context) }
        let answer = try await reply(of: router, .get, "/users/42/posts/7")
        #expect(answer.body == "posts id=42 post=7")
    }

    @Test func captureWithSuffixGivesTheNameWithoutTheSuffix() async throws {
        let router = FastRouterBuilder()
        router.get("/files/{file}.jpg") { _, context in try context.parameters.require("file") }
        let answers = try await answers(of: router, to: [
            .init(method: .get, uri: "/files/cat.jpg"),
            .init(method: .get, uri: "/files/a.b.jpg"),
            .init(method: .get, uri: "/files/cat.png"),
        ])
        #expect(answers.map(\.body) == ["cat", "a.b", ""])
        #expect(answers.map(\.status) == [200, 200, 404])
    }

    @Test func captureWithPrefix() async throws {
        let router = FastRouterBuilder()
        router.get("/archive/v{version}") { _, context in try context.parameters.require("version") }
        let answers = try await answers(of: router, to: [
            .init(method: .get, uri: "/archive/v2"),
            .init(method: .get, uri: "/archive/v10.1"),
            .init(method: .get, uri: "/archive/x2"),
        ])
        #expect(answers.map(\.body) == ["2", "10.1", ""])
        #expect(answers.map(\.status) == [200, 200, 404])
    }

    @Test func nameCapturedTwiceKeepsTheLastValueOnce() async throws {
        let router = FastRouterBuilder()
        router.get("/pair/:x/:x") { _, context in
            "\(context.parameters.get("x") ?? "-") \(context.parameters.getAll("x")) \(context.parameters.count)"
        }
        let answer = try await reply(of: router, .get, "/pair/1/2")
        #expect(answer.body == #"2 ["2"] 1"#)
    }

    @Test func recursiveWildcardGivesTheRestOfThePath() async throws {
        let router = FastRouterBuilder()
        router.get("/static/**") { _, context in
            "\(context.parameters.getCatchAll()) \(context.parameters[Parameters.recursiveCaptureKey] ?? "-")"
        }
        let answers = try await answers(of: router, to: [
            .init(method: .get, uri: "/static/a"),
            .init(method: .get, uri: "/static/a/b/c.css"),
            .init(method: .get, uri: "/static"),
        ])
        #expect(answers.map(\.body) == [#"["a"] a"#, #"["a", "b", "c.css"] a/b/c.css"#, ""])
        #expect(answers.map(\.status) == [200, 200, 404])
    }

    @Test func recursiveWildcardAfterCaptures() async throws {
        let router = FastRouterBuilder()
        router.get("/repos/:owner/**") { _, context in Echo.body(route: "repo", context) }
        let answer = try await reply(of: router, .get, "/repos/me/x/y")
        #expect(answer.body == "repo owner=me :**:=x/y")
    }

    @Test func wildcardsCaptureNothing() async throws {
        let router = FastRouterBuilder()
        router.get("/any/*/images/*.gif") { _, context in Echo.body(route: "gif", context) }
        let answer = try await reply(of: router, .get, "/any/x/images/cat.gif")
        #expect(answer == Answer(status: 200, contentLength: "3", body: "gif"))
    }

    @Test func percentEncodedValuesArriveDecoded() async throws {
        let router = FastRouterBuilder()
        router.get("/users/:id") { _, context in try context.parameters.require("id") }
        let answers = try await answers(of: router, to: [
            .init(method: .get, uri: "/users/a%20b"),
            .init(method: .get, uri: "/users/caf%C3%A9"),
            .init(method: .get, uri: "/users/a%2Fb"),
        ])
        #expect(answers.map(\.body) == ["a b", "café", "a/b"])
    }

    @Test func endpointPathIsTheHummingbirdPath() async throws {
        let router = FastRouterBuilder()
        router.get("/users/:id") { _, context in context.endpointPath ?? "-" }
        router.get("/files/{file}.jpg") { _, context in context.endpointPath ?? "-" }
        router.get("/static/**") { _, context in context.endpointPath ?? "-" }
        router.get("") { _, context in context.endpointPath ?? "-" }
        let answers = try await answers(of: router, to: [
            .init(method: .get, uri: "/users/7"),
            .init(method: .get, uri: "/files/x.jpg"),
            .init(method: .get, uri: "/static/a/b"),
            .init(method: .get, uri: "/"),
        ])
        #expect(answers.map(\.body) == ["/users/{id}", "/files/{file}.jpg", "/static/**", "/"])
    }

    /// Metrics middleware labels the router's own answers by this value, as Hummingbird's does.
    @Test func endpointPathOfRouterAnswersIsNotFound() async throws {
        let router = FastRouterBuilder()
        router.add(middleware: EndpointPathMiddleware())
        router.get("/users/:id") { _, _ in "user" }
        router.group("/api").get("/items/{id}") { _, _ in "item" }
        let answers = try await answers(of: router, to: [
            .init(method: .get, uri: "/users/1"),
            .init(method: .get, uri: "/api/items/2"),
            .init(method: .get, uri: "/missing"),
            .init(method: .delete, uri: "/users/1"),
            .init(method: .get, uri: "/users/%zz"),
        ])
        #expect(answers.map(\.endpoint) == ["/users/{id}", "/api/items/{id}", "NotFound", "NotFound", "NotFound"])
        #expect(answers.map(\.status) == [200, 200, 404, 405, 400])
    }

    /// Hummingbird would merge these onto one trie node; here each route keeps its own names.
    @Test func routesOfOnePathKeepTheirOwnParameterNames() async throws {
        let router = FastRouterBuilder()
        router.get("/users/:id") { _, context in Echo.body(route: "get", context) }
        router.put("/users/{user}") { _, context in Echo.body(route: "put", context) }
        let answers = try await answers(of: router, to: [
            .init(method: .get, uri: "/users/5"),
            .init(method: .put, uri: "/users/5"),
            .init(method: .post, uri: "/users/5"),
        ])
        #expect(answers.map(\.body) == ["get id=5", "put user=5", ""])
        #expect(answers[2].allow == "GET, HEAD, PUT")
    }

    @Test func endpointPathIsSetBeforeRouteMiddlewareRuns() async throws {
        struct EndpointPathAnswerMiddleware<Context: RequestContext>: RouterMiddleware {
            func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
                Response(status: .ok, body: .init(byteBuffer: ByteBuffer(string: context.endpointPath ?? "none")))
            }
        }
        let router = FastRouterBuilder()
        router.add(middleware: EndpointPathAnswerMiddleware())
        router.get("/test/{number}") { _, _ in "handler" }
        let answer = try await reply(of: router, .get, "/test/1")
        #expect(answer.body == "/test/{number}")
    }
}

/// Builder options and its life after `buildResponder()`.
@Suite struct BuilderTests {
    @Test func caseInsensitiveOptionComparesLiteralsIgnoringCase() async throws {
        let router = FastRouterBuilder(context: BasicRequestContext.self, options: .caseInsensitive)
        router.get("/users/me") { _, _ in "me" }
        router.get("/Teams/:name") { _, context in try context.parameters.require("name") }
        router.get("/F/{x}.JPG") { _, context in try context.parameters.require("x") }
        let answers = try await answers(of: router, to: [
            .init(method: .get, uri: "/Users/ME"),
            .init(method: .get, uri: "/users/me"),
            .init(method: .get, uri: "/teams/Red"),
            .init(method: .get, uri: "/TEAMS/Red"),
            .init(method: .get, uri: "/f/Ab.jpg"),
        ])
        #expect(answers.map(\.status) == [200, 200, 200, 200, 200])
        // Only literals ignore case: captured values keep the request's.
        #expect(answers.map(\.body) == ["me", "me", "Red", "Red", "Ab"])
    }

    /// Hummingbird's `Router` lowercases the whole path when the option is set, so its
    /// `endpointPath` would be `/teams/{name}`; here it stays as the route was written.
    @Test func caseInsensitiveEndpointPathIsThePathAsWritten() async throws {
        let router = FastRouterBuilder(context: BasicRequestContext.self, options: .caseInsensitive)
        router.get("/Teams/:name") { _, context in context.endpointPath ?? "-" }
        let answer = try await reply(of: router, .get, "/teams/red")
        #expect(answer.body == "/Teams/{name}")
    }

    @Test func pathsAreCaseSensitiveByDefault() async throws {
        let router = FastRouterBuilder()
        router.get("/users/me") { _, _ in "me" }
        let answer = try await reply(of: router, .get, "/Users/ME")
        #expect(answer.status == 404)
    }

    @Test func routesAddedAfterBuildingAreServed() async throws {
        let router = FastRouterBuilder()
        router.get("/early") { _, _ in "early" }
        let app = Application(router: router)
        router.get("/late/:id") { _, context in "late \(try context.parameters.require("id"))" }
        router.post("/early") { _, _ in "posted" }
        let answers = try await answers(of: app, to: [
            .init(method: .get, uri: "/early"),
            .init(method: .get, uri: "/late/5"),
            .init(method: .post, uri: "/early"),
            .init(method: .put, uri: "/early"),
        ])
        #expect(answers == [
            Answer(status: 200, contentLength: "5", body: "early"),
            Answer(status: 200, contentLength: "6", body: "late 5"),
            Answer(status: 200, contentLength: "6", body: "posted"),
            Answer(status: 405, allow: "GET, HEAD, POST", contentLength: "0"),
        ])
    }

    @Test func makeResponderServesLikeBuildResponder() async throws {
        let router = FastRouterBuilder()
        router.get("/a") { _, _ in "a" }
        let app = Application(responder: try router.makeResponder())
        let answers = try await answers(of: app, to: [.init(method: .get, uri: "/a"), .init(method: .get, uri: "/b")])
        #expect(answers.map(\.status) == [200, 404])
    }
}

/// Routes that cannot be added are recorded, with method, path and reason, instead of stopping the program.
@Suite struct RegistrationErrorTests {
    @Test func secondHandlerForAPathAndMethodIsAnError() throws {
        let router = FastRouterBuilder()
        router.get("/users/:id") { _, _ in "first" }
        router.put("/users/:id") { _, _ in "put" }
        router.get("/users/:id") { _, _ in "second" }
        #expect(router.registrationErrors.count == 1)
        let error = try #require(router.registrationErrors.first)
        #expect(error.method == .get)
        #expect(error.path == "/users/{id}")
        #expect(error.reason == "GET already has a handler for this path")
        #expect(error.description == "GET /users/{id}: GET already has a handler for this path")
    }

    @Test func recursiveWildcardBeforeTheEndIsAnError() throws {
        let router = FastRouterBuilder()
        router.post("/a/**/b") { _, _ in "never" }
        let error = try #require(router.registrationErrors.first)
        #expect(router.registrationErrors.count == 1)
        #expect(error.method == .post)
        #expect(error.path == "/a/**/b")
        #expect(error.reason.contains("'**'"))
        #expect(error.reason.contains("not the last element"))
    }

    @Test func errorsAreListedInRegistrationOrder() {
        let router = FastRouterBuilder()
        router.get("/x/**/y") { _, _ in "" }
        router.get("/ok") { _, _ in "" }
        router.get("/ok") { _, _ in "" }
        router.delete("/z/**/**") { _, _ in "" }
        #expect(router.registrationErrors.map { "\($0.method.rawValue) \($0.path)" } == [
            "GET /x/**/y", "GET /ok", "DELETE /z/**/**",
        ])
    }

    @Test func validateAndMakeResponderThrowTheFirstError() {
        let router = FastRouterBuilder()
        router.get("/ok") { _, _ in "ok" }
        router.get("/a/**/b") { _, _ in "" }
        router.get("/ok") { _, _ in "" }
        #expect(router.registrationErrors.count == 2)
        let fromValidate = #expect(throws: RouteRegistrationError.self) { try router.validate() }
        #expect(fromValidate?.path == "/a/**/b")
        let fromMakeResponder = #expect(throws: RouteRegistrationError.self) { try router.makeResponder() }
        #expect(fromMakeResponder?.path == "/a/**/b")
    }

    @Test func validRouterValidates() throws {
        let router = FastRouterBuilder()
        router.get("/ok") { _, _ in "ok" }
        router.post("/ok") { _, _ in "ok" }
        #expect(router.registrationErrors.isEmpty)
        try router.validate()
        _ = try router.makeResponder()
    }

    /// The responder cannot be built once an error is recorded, so the routes are added to one that
    /// is already serving: a failed registration must leave the table as it was.
    @Test func failedRegistrationsChangeNothingServed() async throws {
        let router = FastRouterBuilder()
        let app = Application(router: router)
        router.get("/users/:id") { _, _ in "first" }
        router.get("/users/:id") { _, _ in "second" }
        router.get("/a/**/b") { _, _ in "wildcard" }
        router.get("/a/b") { _, _ in "a b" }
        #expect(router.registrationErrors.map(\.path) == ["/users/{id}", "/a/**/b"])
        let answers = try await answers(of: app, to: [
            .init(method: .get, uri: "/users/1"),
            .init(method: .get, uri: "/a/x/b"),
            .init(method: .get, uri: "/a/b"),
        ])
        #expect(answers.map(\.body) == ["first", "", "a b"])
        #expect(answers.map(\.status) == [200, 404, 200])
    }

    /// Hummingbird reads the segment `!` as literal text (only its internal `.null` element, which
    /// describes itself as `!` too, never matches), so `/a/!` is a route it serves.
    @Test func exclamationMarkSegmentIsLiteralText() async throws {
        let router = FastRouterBuilder()
        let app = Application(router: router)
        router.get("/a/!") { _, _ in "bang" }
        #expect(router.registrationErrors.isEmpty)
        let served = try await answers(of: app, to: [.init(method: .get, uri: "/a/!")])
        let hummingbird = Router()
        hummingbird.get("/a/!") { _, _ in "bang" }
        let expected = try await answers(of: hummingbird, to: [.init(method: .get, uri: "/a/!")])
        #expect(expected == [.ok("bang")])
        #expect(served.map(\.body) == ["bang"])
    }
}
#endif
