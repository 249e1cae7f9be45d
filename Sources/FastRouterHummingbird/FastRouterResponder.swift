#if Hummingbird
public import Hummingbird
import FastRouter

/// Answers requests with the routes of a ``FastRouterBuilder``: the best route for the path and
/// method, a 405 with `Allow` when the path has routes for other methods only, a 404 when it has
/// none, a 400 for a path FastRouter rejects (an invalid percent-escape, a NUL byte; docs/SEMANTICS.md
/// §3.4). The 404, 405 and 400 answers pass through the builder's middleware, as Hummingbird's
/// 404 does.
public struct FastRouterResponder<Context: RequestContext>: HTTPResponder {
    private let router: FastRouter.Router<Endpoint<Context>>
    private let notFound: any HTTPResponder<Context>
    private let methodNotAllowed: any HTTPResponder<Context>
    private let badRequest: any HTTPResponder<Context>

    init(router: FastRouter.Router<Endpoint<Context>>, middleware: MiddlewareChain<Context>) {
        self.router = router
        notFound = middleware.wrapping(StatusResponder(status: .notFound))
        methodNotAllowed = middleware.wrapping(MethodNotAllowedResponder(router: router))
        badRequest = middleware.wrapping(StatusResponder(status: .badRequest))
    }

    /// Routes `request` to its handler, or answers 404, 405 or 400.
    public func respond(to request: Request, context: Context) async throws -> Response {
        do {
            let result: RouteResult<Endpoint<Context>>
            do {
                guard let method = FastRouter.HTTPMethod(request.method) else {
                    return try await badRequest.respond(to: request, context: context)
                }
                result = try router.match(request.uri.path, method: method)
            } catch {
                return try await badRequest.respond(to: request, context: context)
            }
            switch result {
            case .matched(let match):
                let endpoint = match.value
                var context = context
                context.coreContext.parameters = endpoint.parameters(of: match.parameters)
                context.coreContext.endpointPath.value = endpoint.endpointPath
                let response = try await endpoint.responder.respond(to: request, context: context)
                // A HEAD request that a GET route served (docs/SEMANTICS.md §3.7) gets no body.
                return request.method == .head && endpoint.method != .head ? response.createHeadResponse() : response
            case .notFound:
                return try await notFound.respond(to: request, context: context)
            case .methodNotAllowed:
                return try await methodNotAllowed.respond(to: request, context: context)
            }
        } catch let error as any HTTPResponseError {
            return try error.response(from: request, context: context)
        }
    }
}

/// The end of the 404 and 400 chains: Hummingbird's way of answering with a status alone.
private struct StatusResponder<Context: RequestContext>: HTTPResponder {
    let status: HTTPResponse.Status

    func respond(to request: Request, context: Context) throws -> Response {
        context.coreContext.endpointPath.value = "NotFound"
        throw HTTPError(status)
    }
}

/// The end of the 405 chain. The `Allow` value depends on the path, so it is looked up again
/// here, behind the middleware (which may have changed the request); a 405 is the rare case.
private struct MethodNotAllowedResponder<Context: RequestContext>: HTTPResponder {
    let router: FastRouter.Router<Endpoint<Context>>

    func respond(to request: Request, context: Context) throws -> Response {
        context.coreContext.endpointPath.value = "NotFound"
        guard let method = FastRouter.HTTPMethod(request.method),
              case .methodNotAllowed(let allowed) = try? router.match(request.uri.path, method: method) else {
            throw HTTPError(.notFound)
        }
        throw HTTPError(.methodNotAllowed, headers: [.allow: allowed.headerValue])
    }
}

extension FastRouter.HTTPMethod {
    /// The FastRouter method of a Hummingbird request; `nil` for a name FastRouter refuses.
    init?(_ method: HTTPRequest.Method) {
        switch method {
        case .get: self = .get
        case .post: self = .post
        case .head: self = .head
        case .put: self = .put
        case .delete: self = .delete
        case .patch: self = .patch
        case .options: self = .options
        default: self.init(rawValue: method.rawValue)
        }
    }
}
#endif
