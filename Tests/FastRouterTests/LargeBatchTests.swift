import Testing
@testable import FastRouter

/// A large batch (one publication for thousands of routes, its editor let go afterwards) must
/// build the router that adding the routes one at a time builds, report the first failure in
/// registration order, and change nothing when it fails.
@Suite struct LargeBatchTests {
    static let count = 6000

    /// Routes of every kind: regexes and partial templates shared across the batch, optional
    /// groups, schemes, hosts, priorities and methods.
    static func routes() -> [Route<Int>] {
        let shapes = ["", "/new", "/:id", "/{id:int}/edit", "/by-slug/{slug:[a-z0-9-]+}", "/files/{name}.{ext}",
                      "/files/*path", "/export(/csv)", "/{uuid:uuid}/versions/{version:[0-9]+}"]
        return (0..<count).map { index in
            let shape = shapes[index % shapes.count]
            let group = index / shapes.count
            let pattern = index % 97 == 0 ? "myapp://group\(group)/items\(shape)" : "/group\(group)/items\(shape)"
            let methods: [HTTPMethod] = index % 5 == 0 ? [.post] : []
            return Route(pattern, methods: methods, priority: index % 7 == 0 ? 3 : 0, id: UInt64(index + 1), value: index)
        }
    }

    @Test func aLargeBatchBuildsWhatSingleAddsBuild() throws {
        let routes = Self.routes()
        let batch = Router<Int>()
        try batch.add(contentsOf: routes)
        let single = Router<Int>()
        for route in routes { try single.add(contentsOf: [route]) }
        batch.core.checkInvariants()
        #expect(batch.count == routes.count)
        #expect(batch.dump() == single.dump())
        for url in ["/group3/items", "/group3/items/new", "/group3/items/42/edit", "/group9/items/by-slug/a-b",
                    "/group9/items/files/a.txt", "/group9/items/files/x/y", "/group12/items/export/csv",
                    "myapp://group0/items", "/group20/items/0b4c9a5e-2f5d-4a4e-9f0e-1a2b3c4d5e6f/versions/7"] {
            #expect(try batch.match(url)?.routeID == single.match(url)?.routeID, "\(url)")
        }
        // Every route can be removed again: the batch counted its shared regexes and templates.
        for id in 1...routes.count { #expect(batch.remove(id: UInt64(id)) == 1) }
        #expect(batch.count == 0)
        #expect(batch.memoryBreakdown().parts.first { $0.name.hasPrefix("regexes") }?.items == 0)
    }

    @Test func theFirstFailureInOrderIsTheBatchs() throws {
        let router = Router<Int>()
        try router.add("/kept/:id", id: 999_999, value: -1)
        var routes = Self.routes()
        // A bad pattern late, a duplicate later still: the pattern's error.
        routes[3000] = Route("/bad/{id:int", id: 500_000, value: 0)
        routes[4500] = routes[10]
        let error = #expect(throws: RouterError.self) { try router.add(contentsOf: routes) }
        #expect(error?.code == .invalidPattern && error?.offset == 5)
        // A duplicate alone.
        routes[3000] = Route("/fine/:id", id: 500_000, value: 0)
        #expect(throws: RouterError.self) { try router.add(contentsOf: routes) }
        // Nothing of either batch landed; the router answers as before.
        #expect(router.count == 1)
        #expect(try router.match("/kept/7")?.routeID == 999_999)
        #expect(try router.match("/group3/items/new") == nil)
        router.core.checkInvariants()
    }

    @Test func aMethodErrorComesInItsTurn() throws {
        // The 65th distinct method name of a router is refused.
        var routes = Self.routes()
        for index in 0..<70 {
            routes[4000 + index] = Route("/methods/\(index)", methods: [HTTPMethod(rawValue: "VERB\(index)")!],
                                         id: UInt64(600_000 + index), value: index)
        }
        let router = Router<Int>()
        let methodError = #expect(throws: RouterError.self) { try router.add(contentsOf: routes) }
        #expect(methodError?.code == .invalidArgument)
        // A bad pattern before the bad method list: the pattern's error.
        routes[100] = Route("/bad/{id:int", id: 500_000, value: 0)
        let patternError = #expect(throws: RouterError.self) { try router.add(contentsOf: routes) }
        #expect(patternError?.code == .invalidPattern)
        #expect(router.count == 0)
    }
}
