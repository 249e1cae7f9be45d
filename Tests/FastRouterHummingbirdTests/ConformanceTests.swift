#if Hummingbird
import Hummingbird
import HummingbirdTesting
import FastRouterHummingbird
import Testing

/// The same routes and requests against Hummingbird's `Router` and `FastRouterBuilder`: every
/// answer must be the same, except the documented differences (docs/HUMMINGBIRD.md), each of
/// which must still be a difference and give exactly the answer the documentation states.
@Suite struct ConformanceTests {
    /// Routes in Hummingbird's path syntax, covering each form it has that FastRouter translates.
    static let syntaxRoutes: [(HTTPRequest.Method, String)] = [
        (.get, "/"),
        (.get, "/users"),
        (.get, "/users/me"),
        (.get, "/users/:id"),
        (.put, "/users/:id"),
        (.delete, "/users/{id}"),
        (.get, "/users/:id/posts/:post"),
        (.get, "/files/{name}.jpg"),
        (.get, "/files/:file"),
        (.get, "/archive/v{version}"),
        (.get, "/images/*.gif"),
        (.get, "/docs/draft*"),
        (.get, "/any/*/end"),
        (.get, "/static/**"),
        (.post, "/echo"),
        (.init("PURGE")!, "/cache/:key"),
        (.get, "/a(b)/c*d/{x}"),
    ]

    static let syntaxRequests: [TestRequest] = [
        .init(method: .get, uri: "/"),
        .init(method: .get, uri: "/users"),
        .init(method: .get, uri: "/users/"),
        .init(method: .get, uri: "//users//7//"),
        .init(method: .get, uri: "/users/me"),
        .init(method: .get, uri: "/users/7"),
        .init(method: .put, uri: "/users/7"),
        .init(method: .delete, uri: "/users/7"),
        .init(method: .head, uri: "/users/7"),
        .init(method: .get, uri: "/users/7?tab=posts"),
        .init(method: .get, uri: "/users/7/posts/9"),
        .init(method: .get, uri: "/users/7/posts"),
        .init(method: .get, uri: "/files/cat.jpg"),
        .init(method: .get, uri: "/files/cat.png"),
        .init(method: .get, uri: "/files/a.b.jpg"),
        .init(method: .get, uri: "/archive/v2"),
        .init(method: .get, uri: "/images/cat.gif"),
        .init(method: .get, uri: "/images/cat.png"),
        .init(method: .get, uri: "/docs/draft-3"),
        .init(method: .get, uri: "/any/x/end"),
        .init(method: .get, uri: "/any/x/y/end"),
        .init(method: .get, uri: "/static"),
        .init(method: .get, uri: "/static/a"),
        .init(method: .get, uri: "/static/a/b/c.css"),
        .init(method: .head, uri: "/static/a/b"),
        .init(method: .post, uri: "/echo"),
        .init(method: .get, uri: "/nope"),
        .init(method: .get, uri: "/users/7/posts/9/x"),
        .init(method: .init("PURGE")!, uri: "/cache/k1"),
        .init(method: .get, uri: "/a(b)/cXd/1"),
        .init(method: .get, uri: "/a(b)/c*d/1"),
        .init(method: .get, uri: "/a%28b%29/cXd/1"),
        // The documented differences.
        .init(method: .post, uri: "/users/7"),
        .init(method: .options, uri: "/users/7"),
        .init(method: .get, uri: "/echo"),
        .init(method: .get, uri: "/cache/k1"),
        .init(method: .get, uri: "/users/a%20b"),
        .init(method: .get, uri: "/users/%zz"),
        .init(method: .get, uri: "/files/.jpg"),
        .init(method: .get, uri: "/archive/v"),
        .init(method: .get, uri: "/docs/draft"),
    ]

    /// Requests where FastRouter's answer differs from Hummingbird's `Router`, with FastRouter's
    /// answer and Hummingbird's status.
    static let differences: [String: (fastRouter: Answer, hummingbirdStatus: Int, why: String)] = [
        "POST /users/7": (.empty(405, allow: "GET, HEAD, PUT, DELETE"), 404,
                          "405 with Allow where the path has routes for other methods"),
        "OPTIONS /users/7": (.empty(405, allow: "GET, HEAD, PUT, DELETE"), 404,
                             "405 with Allow"),
        "GET /echo": (.empty(405, allow: "POST"), 404, "405 with Allow"),
        "GET /cache/k1": (.empty(405, allow: "PURGE"), 404, "405 with Allow"),
        "GET /users/a%20b": (.ok("GET /users/:id id=a b"), 200,
                             "parameters are percent-decoded"),
        "GET /users/%zz": (.empty(400), 200,
                           "a path with an invalid percent-escape is a bad request"),
        "GET /files/.jpg": (.ok("GET /files/:file file=.jpg"), 200,
                            "a placeholder never matches empty text"),
        "GET /archive/v": (.empty(404), 200,
                           "a placeholder never matches empty text"),
        "GET /docs/draft": (.empty(404), 200,
                            "a wildcard inside a segment never matches empty text"),
    ]

    @Test func hummingbirdSyntaxRoutesAnswerAsHummingbirdDoes() async throws {
        let hummingbird = Router(options: .autoGenerateHeadEndpoints)
        let fastRouter = FastRouterBuilder()
        for (method, path) in Self.syntaxRoutes {
            Echo.add(hummingbird, method, path)
            Echo.add(fastRouter, method, path)
        }
        try fastRouter.validate()
        try await compare(hummingbird, fastRouter, Self.syntaxRequests)
    }

    /// The GitHub API route set (203 routes on 142 paths): every route's URL with its own method,
    /// with HEAD, and with a method no route of the set takes.
    @Test func gitHubRoutesAnswerAsHummingbirdDoes() async throws {
        let routes = try gitHubRoutes()
        #expect(routes.count == 203)
        let hummingbird = Router(options: .autoGenerateHeadEndpoints)
        let fastRouter = FastRouterBuilder()
        for (method, path) in routes {
            Echo.add(hummingbird, method, path)
            Echo.add(fastRouter, method, path)
        }
        try fastRouter.validate()
        var requests: [TestRequest] = []
        var expectedDifferences: [String: Answer] = [:]
        let methodsByURI = Dictionary(grouping: routes, by: { sampleURI(for: $0.path) })
        for (method, path) in routes {
            let uri = sampleURI(for: path)
            requests.append(TestRequest(method: method, uri: uri))
            let methods = Set(methodsByURI[uri]!.map(\.method))
            let allow = allowHeader(methods)
            requests.append(TestRequest(method: .head, uri: uri))
            if !methods.contains(.get) {
                expectedDifferences["HEAD \(uri)"] = Answer.empty(405, allow: allow)
            }
            requests.append(TestRequest(method: .patch, uri: uri))
            expectedDifferences["PATCH \(uri)"] = Answer.empty(405, allow: allow)
        }
        try await compare(hummingbird, fastRouter, requests, differences: expectedDifferences.mapValues { ($0, 404) })
    }

    private func allowHeader(_ methods: Set<HTTPRequest.Method>) -> String {
        var allowed = methods
        if allowed.contains(.get) { allowed.insert(.head) }
        let order: [HTTPRequest.Method] = [.get, .head, .post, .put, .delete, .connect, .options, .trace]
        return order.filter(allowed.contains).map(\.rawValue).joined(separator: ", ")
    }

    private func compare(_ hummingbird: Router<BasicRequestContext>, _ fastRouter: FastRouterBuilder<BasicRequestContext>,
                         _ requests: [TestRequest],
                         differences: [String: (fastRouter: Answer, hummingbirdStatus: Int)]? = nil) async throws {
        let differences = differences ?? Self.differences.mapValues { ($0.fastRouter, $0.hummingbirdStatus) }
        let expected = try await answers(of: hummingbird, to: requests)
        let actual = try await answers(of: fastRouter, to: requests)
        for (request, (hummingbirdAnswer, fastRouterAnswer)) in zip(requests, zip(expected, actual)) {
            if let difference = differences[request.description] {
                #expect(fastRouterAnswer == difference.fastRouter, "\(request)")
                #expect(hummingbirdAnswer.status == difference.hummingbirdStatus, "\(request): Hummingbird \(hummingbirdAnswer)")
            } else {
                #expect(fastRouterAnswer == hummingbirdAnswer, "\(request)")
            }
        }
    }
}
#endif
