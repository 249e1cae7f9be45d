import Testing
@testable import FastRouter
@testable import FastRouterLint

/// `Router.exampleURLs()`: one URL per route that the route answers first, checked here with
/// independent lookups; a route no URL reaches first gets none.
@Suite struct ExampleURLTests {
    static let routes: [(pattern: String, priority: Int32)] = [
        ("/users", 0), ("/users/:name", 0), ("/users/{id:int}", 0), ("/users/new", 0),
        ("/files/*path", 0), ("/files", 0), ("myapp://settings(/:section)", 0),
        ("https://*.example.com/p/:p", 0), ("https://api.example.com/q/{u:uuid}", 0),
        ("/shadowed/:a", 0), ("/shadowed/:b", 1), ("/v{major:int}.{minor:int}/docs", 0),
        ("/commits/{sha:[0-9a-f]{40}}", 0),
        // Two routes sharing an id (below): the example of each must reach that route itself.
        ("/shared/:x", 0), ("/shared/1", 0),
    ]

    @Test func everyRouteThatCanComeFirstGetsAURLItAnswersFirst() throws {
        let router = Router<Int>()
        for (index, route) in Self.routes.enumerated() {
            let id = route.pattern.hasPrefix("/shared/") ? 99 : UInt64(index)
            _ = try router.add(route.pattern, priority: route.priority, id: id, value: index)
        }
        let examples = router.exampleURLs()
        #expect(examples.map(\.route.pattern) == Self.routes.map(\.pattern), "registration order")
        for (route, url) in examples {
            if route.pattern == "/shadowed/:a" {
                // The priority-1 route with the same shape answers every URL of this one first.
                #expect(url == nil)
                continue
            }
            let url = try #require(url, "no example for \(route.pattern)")
            let match = try #require(try router.match(url), "\(url) matches nothing")
            let answer = Self.routes[match.value].pattern
            #expect(answer == route.pattern, "\(url) for \(route.pattern) is answered by \(answer)")
            if route.pattern == "/files/*path" {
                #expect(match.parameters.first { $0.name == "path" }?.value.isEmpty == false, "a wildcard gets a segment")
            }
        }
    }

    @Test func aRouterWithoutRoutesHasNoExamples() {
        #expect(Router<Int>().exampleURLs().isEmpty)
    }
}
