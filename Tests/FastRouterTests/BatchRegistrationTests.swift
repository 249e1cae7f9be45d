import Testing
@testable import FastRouter

/// A batch of more than 64 routes is parsed and inserted route by route into the side readers do
/// not use, each path starting from the nodes it shares with the previous one. It must build
/// exactly the router that adding the same routes one at a time builds.
@Suite struct BatchRegistrationTests {
    /// Routes grouped by prefix as route files usually are, with every kind of segment, optional
    /// groups, schemes, hosts and priorities; and neighbours that share all but the last segment
    /// or differ only in a segment's kind.
    static func routes() -> [Route<Int>] {
        var patterns: [(String, Int32)] = []
        var schemes: [(String, Int32)] = []
        for service in ["billing", "orders", "users"] {
            for version in 1...3 {
                let prefix = "/\(service)/v\(version)"
                schemes += [
                    ("https://api.example.com\(prefix)/:id", 0), ("https://*.example.com\(prefix)/:id", 0),
                    ("myapp://\(service)/v\(version)/:id", 0),
                ]
                patterns += [
                    (prefix, 0), ("\(prefix)/new", 0), ("\(prefix)/:id", 0), ("\(prefix)/{id:int}", 0),
                    ("\(prefix)/{id:int}", 5), ("\(prefix)/:id/history", 0), ("\(prefix)/:id/items/:item", 0),
                    ("\(prefix)/{id:uuid}/versions/{version:uint}", 0), ("\(prefix)/by-slug/{slug:[a-z0-9-]+}", 0),
                    ("\(prefix)/files/*path", 0), ("\(prefix)/files/{name}.{ext}", 0), ("\(prefix)/export(/csv)", 0),
                    ("\(prefix)/NEW", 0),
                ]
            }
        }
        // Global routes of every group back to back, then the scheme tables' routes.
        return (patterns + schemes).enumerated().map { Route($1.0, priority: $1.1, id: UInt64($0 + 1), value: $0) }
    }

    static func urls() -> [String] {
        var urls: [String] = []
        for service in ["billing", "orders", "users", "other"] {
            for version in 1...4 {
                let prefix = "/\(service)/v\(version)"
                urls += [
                    prefix, "\(prefix)/new", "\(prefix)/NEW", "\(prefix)/42", "\(prefix)/abc", "\(prefix)/42/history",
                    "\(prefix)/42/items/7", "\(prefix)/0b9e6f2c-3b1a-4c2d-9e8f-1a2b3c4d5e6f/versions/3",
                    "\(prefix)/by-slug/a-b-1", "\(prefix)/by-slug/A", "\(prefix)/files", "\(prefix)/files/a/b.c",
                    "\(prefix)/files/report.pdf", "\(prefix)/export", "\(prefix)/export/csv",
                    "https://api.example.com\(prefix)/9", "https://eu.example.com\(prefix)/9",
                    "https://example.org\(prefix)/9", "myapp://\(service)/v\(version)/9",
                ]
            }
        }
        return urls
    }

    /// Every candidate of every URL, in order: route ids and parameters.
    static func answers(_ router: Router<Int>) throws -> [[String]] {
        try urls().map { url in
            try router.matches(url).map { match in
                "\(match.routeID) " + match.parameters.map { "\($0.name)=\($0.value)" }.joined(separator: "&")
            }
        }
    }

    @Test func aBatchBuildsTheRouterThatSingleAddsBuild() throws {
        let routes = Self.routes()
        #expect(routes.count > 64)
        let batched = Router<Int>()
        try batched.add(contentsOf: routes)
        let single = Router<Int>()
        for route in routes { try single.add(route.pattern, priority: route.priority, id: route.id, value: route.value) }
        let expected = try Self.answers(single)
        #expect(expected.filter { !$0.isEmpty }.count > 100)
        #expect(try Self.answers(batched) == expected)
        #expect(batched.count == single.count)
    }

    /// A duplicate late in a batch leaves the router as it was, whatever the batch shared.
    @Test func aDuplicateLateInABatchAddsNothing() throws {
        let router = Router<Int>()
        try router.add("/kept/:id", value: -1)
        var routes = Self.routes()
        routes.append(Route("/orders/v2/:other/history", id: 9999, value: 9999))  // same shape as an earlier route
        #expect(throws: RouterError.self) { try router.add(contentsOf: routes) }
        #expect(router.count == 1)
        #expect(try router.match("/orders/v2/42/history") == nil)
        #expect(try router.match("/kept/1")?.value == -1)
        // The batch without the duplicate lands whole.
        try router.add(contentsOf: Self.routes())
        #expect(router.count == 1 + Self.routes().count)
    }

    @Test func aLargeBatchThenSingleAddsServeEveryRoute() throws {
        let router = Router<Int>()
        let count = 150_000
        try router.add(contentsOf: (0..<count).map { Route("/room/\($0 / 100)/item-\($0 % 100)/:x", value: $0) })
        for extra in 0..<50 { try router.add("/room/extra-\(extra)/:x", value: count + extra) }
        #expect(try router.match("/room/extra-49/y")?.value == count + 49)
        #expect(try router.match("/room/1499/item-99/y")?.value == count - 1)
        #expect(try router.match("/room/0/item-0/y")?.value == 0)
        #expect(router.count == count + 50)
        router.core.checkInvariants()
    }

    @Test func registrationCallsReuseTheirBuffersAfterFailures() throws {
        // Each call takes the buffers the previous one left, failed or not: nothing of a failed
        // call (its regexes, its routes) may leak into the next.
        let router = Router<Int>()
        try router.add("/a/{x:[0-9]+}", id: 1, value: 1)
        #expect(throws: RouterError.self) { try router.add("/a/{y:[0-9]+}", id: 2, value: 2) }
        #expect(throws: RouterError.self) { try router.add("/c/{x:[a-z]+}/{", id: 3, value: 3) }
        try router.add("/c/{x:[a-z]+}", id: 4, value: 4)
        try router.add(contentsOf: [Route("/d/{x:[a-z]+}", id: 5, value: 5), Route("/e/:y", id: 6, value: 6)])
        #expect(throws: RouterError.self) {
            try router.add(contentsOf: [Route("/f/{x:[0-9]+}", id: 7, value: 7), Route("/e/:z", id: 8, value: 8)])
        }
        #expect(router.routes.map(\.id) == [1, 4, 5, 6])
        #expect(try router.match("/a/42")?.value == 1)
        #expect(try router.match("/c/abc")?.parameters["x"] == "abc")
        #expect(try router.match("/d/abc")?.value == 5)
        #expect(try router.match("/f/1") == nil)
        #expect(router.remove(id: 1) == 1)
        #expect(router.remove(id: 4) == 1)
        #expect(try router.match("/d/xyz")?.value == 5)
        try router.add("/a/{x:[0-9]+}", id: 9, value: 9)
        #expect(try router.match("/a/7")?.value == 9)
    }
}
