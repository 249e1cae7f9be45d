import FastRouterHummingbird
import GitHubAPIServer
import Hummingbird

// The example API routed by FastRouter.
await runServer(name: "github-server-fastrouter") { routes in
    let router = FastRouterBuilder(context: BasicRequestContext.self)
    register(routes, on: router)
    try router.validate()
    return router
}
