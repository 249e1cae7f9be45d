import ArgumentParser
import Hummingbird

/// The command line both servers share: which routes, where to listen, or print the load test's requests.
public struct ServerOptions: ParsableArguments {
    @Option(help: "The routes file of the GitHub API set (METHOD /path per line).")
    public var routesFile: String = "../c/github.routes"

    @Option(help: "Serve this many generated routes instead of the GitHub API set (e.g. 10000).")
    public var generated: Int?

    @Option(help: "The loopback port to listen on.")
    public var port: Int = 8080

    @Flag(help: "Print the load test's requests (METHOD, URI, expected body; tab-separated) and exit.")
    public var printRequests = false

    public init() {}

    /// The routes to serve.
    public func routes() throws -> [ServerRoute] {
        if let generated {
            guard (4...1_000_000).contains(generated) else { throw ServerError("--generated takes 4 to 1000000") }
            return RouteSet.generated(count: generated)
        }
        return try RouteSet.gitHub(file: routesFile)
    }
}

/// Registers `routes` on `router`, each answering its label and parameters as JSON.
public func register(_ routes: [ServerRoute], on router: some RouterMethods<BasicRequestContext>) {
    for route in routes {
        let label = route.label
        router.on(RouterPath(route.path), method: route.method) { _, context in
            let body = ResponseBody.json(route: label, parameters: context.parameters.lazy.map { ($0.key, $0.value) })
            return Response(status: .ok, headers: [.contentType: "application/json"],
                            body: .init(byteBuffer: ByteBuffer(string: body)))
        }
    }
}

/// Runs the server (or prints the requests) with `makeRouter`'s router holding the routes; exits
/// with the error's message if that fails.
public func runServer<Builder: HTTPResponderBuilder>(name: String, makeRouter: ([ServerRoute]) throws -> Builder) async
where Builder.Responder.Context == BasicRequestContext {
    let options = ServerOptions.parseOrExit()
    do {
        try await serve(name: name, options: options, makeRouter: makeRouter)
    } catch {
        ServerOptions.exit(withError: error)
    }
}

private func serve<Builder: HTTPResponderBuilder>(name: String, options: ServerOptions,
                                                  makeRouter: ([ServerRoute]) throws -> Builder) async throws
where Builder.Responder.Context == BasicRequestContext {
    let routes = try options.routes()
    if options.printRequests {
        // One request per route; the values change with each pass so no two passes repeat a URI.
        for (seed, route) in routes.enumerated() {
            print("\(route.method.rawValue)\t\(route.sampleURI(seed: seed))\t\(route.expectedBody(seed: seed))")
        }
        return
    }
    let router = try makeRouter(routes)
    let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: options.port),
                                                               serverName: name))
    print("\(name): \(routes.count) routes on http://127.0.0.1:\(options.port)")
    try await app.runService()
}
