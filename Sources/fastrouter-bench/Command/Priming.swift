/// Builds and queries a tiny router of each kind once before anything is measured, so the
/// one-time allocations of a process (runtime metadata, lazily created globals, per-thread
/// scratch, the r3 library's own state) are not billed to the first set's build and memory;
/// then the same with methods, whose first use has one-time costs of its own.
enum Priming {
    static func run(_ routers: Set<RouterKind>) {
        let methods = MethodVariant(
            routes: [RouteSpec(pattern: "/priming/:id", methods: ["GET"]), RouteSpec(pattern: "/priming/:id", methods: ["POST"]),
                     RouteSpec(pattern: "/priming", methods: ["GET"])],
            requests: [Request(url: "/priming/1", route: 1, parameters: nil, pathParameterCount: 0, method: "POST")])
        let set = RouteSet(name: "priming", summary: "", kind: .custom,
                           routes: [RouteSpec(pattern: "/priming/:id"), RouteSpec(pattern: "/priming")],
                           requests: [Request(url: "/priming/1", route: 0, parameters: nil, pathParameterCount: 0)],
                           origin: "", methodVariant: methods)
        prime(set, routers)
        if let methodSet = set.withMethods() { prime(methodSet, routers) }
    }

    /// One router of each selected kind on `set`, each asked its first request once.
    private static func prime(_ set: RouteSet, _ routers: Set<RouterKind>) {
        func touch<C: Contender>(_ contender: C) {
            var worker = contender.makeWorker()
            _ = worker.answer(0)
            Sink.consume(worker.lookup(0))
        }
        if routers.contains(.fastRouterC), let contender = try? FastRouterCAPI(set: set) { touch(contender) }
        if let (router, build) = try? buildSwiftRouter(set: set) {
            if set.looksUpMethods {
                if let matcher = try? FastRouterMatcherMethodAPI(router: router, build: build, set: set) { touch(matcher) }
                if let swift = try? FastRouterSwiftMethodAPI(router: router, build: build, set: set) { touch(swift) }
            } else {
                touch(FastRouterMatcherAPI(router: router, build: build, set: set))
                touch(FastRouterSwiftAPI(router: router, build: build, set: set))
            }
        }
        if routers.contains(.routingKit), let peer = try? RoutingKitPeer(set: set) { touch(peer) }
        if routers.contains(.r3), R3Peer.inexpressible(set) == nil, let peer = try? R3Peer(set: set) { touch(peer) }
    }
}
