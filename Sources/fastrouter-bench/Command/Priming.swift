/// Builds and queries a tiny router of each kind once before anything is measured, so the
/// one-time allocations of a process (runtime metadata, lazily created globals, per-thread
/// scratch, the r3 library's own state) are not billed to the first set's build and memory.
enum Priming {
    static func run(_ routers: Set<RouterKind>) {
        let set = RouteSet(name: "priming", summary: "", kind: .custom,
                           routes: [RouteSpec(pattern: "/priming/:id"), RouteSpec(pattern: "/priming")],
                           requests: [Request(url: "/priming/1", route: 0, parameters: nil, pathParameterCount: 0)],
                           origin: "")
        func touch<C: Contender>(_ contender: C) {
            var worker = contender.makeWorker()
            _ = worker.answer(0)
            Sink.consume(worker.lookup(0))
        }
        if routers.contains(.fastRouterC), let contender = try? FastRouterCAPI(set: set) { touch(contender) }
        if let (router, build) = try? buildSwiftRouter(set: set) {
            touch(FastRouterMatcherAPI(router: router, build: build, set: set))
            touch(FastRouterSwiftAPI(router: router, build: build, set: set))
        }
        if routers.contains(.routingKit), let peer = try? RoutingKitPeer(set: set) { touch(peer) }
        if routers.contains(.r3), R3Peer.inexpressible(set) == nil, let peer = try? R3Peer(set: set) { touch(peer) }
    }
}
