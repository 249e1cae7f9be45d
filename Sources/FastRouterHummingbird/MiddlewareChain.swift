#if Hummingbird
import Hummingbird

/// The middleware of a builder or group, in the order added. Hummingbird's `MiddlewareGroup`
/// cannot be created outside Hummingbird, so the builder keeps its own list and wraps responders
/// the same way: the first middleware added runs first.
struct MiddlewareChain<Context: RequestContext>: Sendable {
    private(set) var middlewares: [any MiddlewareProtocol<Request, Response, Context>] = []

    mutating func add(_ middleware: any MiddlewareProtocol<Request, Response, Context>) {
        middlewares.append(middleware)
    }

    /// `responder` behind every middleware of the chain.
    func wrapping(_ responder: any HTTPResponder<Context>) -> any HTTPResponder<Context> {
        middlewares.reversed().reduce(responder) { next, middleware in
            MiddlewareResponder(middleware: middleware, next: next)
        }
    }
}

/// One middleware in front of the next responder.
private struct MiddlewareResponder<Context: RequestContext>: HTTPResponder {
    let middleware: any MiddlewareProtocol<Request, Response, Context>
    let next: any HTTPResponder<Context>

    func respond(to request: Request, context: Context) async throws -> Response {
        try await middleware.handle(request, context: context) { request, context in
            try await next.respond(to: request, context: context)
        }
    }
}
#endif
