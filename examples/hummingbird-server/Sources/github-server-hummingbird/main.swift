import GitHubAPIServer
import Hummingbird

// The example API routed by Hummingbird's own trie router.
await runServer(name: "github-server-hummingbird") { routes in
    let router = Router(context: BasicRequestContext.self)
    register(routes, on: router)
    return router
}
