#if Hummingbird
public import Hummingbird
import FastRouter

/// A Hummingbird 2 router that routes with FastRouter: a drop-in for Hummingbird's `Router`.
///
/// ```swift
/// let router = FastRouterBuilder(context: BasicRequestContext.self)
/// router.get("/users/:id") { _, context in try context.parameters.require("id") }
/// router.group("/api").add(middleware: LogRequestsMiddleware(.info)).get("/health") { _, _ in "ok" }
/// let app = Application(router: router)
/// ```
///
/// Handlers, groups, middleware and `context.parameters` work as with Hummingbird's `Router`;
/// the differences (405 with `Allow`, HEAD served by GET routes, precedence, decoded parameters)
/// are listed in docs/HUMMINGBIRD.md. Paths are translated to FastRouter patterns as they are
/// added; one that does not translate, or a second handler for a path and method, is recorded in
/// ``registrationErrors``: ``validate()`` throws the first, and `buildResponder()` stops the
/// program with all of them, as Hummingbird's `Router` does for a duplicate handler.
///
/// Routes added after `buildResponder()` are served at once: the responder reads the same
/// FastRouter tables, which take changes while lookups run (docs/SEMANTICS.md §3.5).
public final class FastRouterBuilder<Context: RequestContext>: RouterMethods, HTTPResponderBuilder {
    private let router: FastRouter.Router<Endpoint<Context>>
    private var middleware = MiddlewareChain<Context>()
    /// Registrations that failed, in the order they were made.
    public private(set) var registrationErrors: [RouteRegistrationError] = []

    /// Creates an empty router.
    ///
    /// - Parameters:
    ///   - context: the request context type of the application.
    ///   - options: Hummingbird's router options. `.caseInsensitive` makes path literals compare
    ///     ASCII case-insensitively; `.autoGenerateHeadEndpoints` changes nothing, since a HEAD
    ///     request is always answered by the GET route that answers GET, unless a HEAD route of
    ///     the same path comes first.
    public init(context: Context.Type = BasicRequestContext.self, options: Hummingbird.RouterOptions = []) {
        router = FastRouter.Router(options: FastRouter.RouterOptions(caseInsensitivePaths: options.contains(.caseInsensitive)))
    }

    /// Adds `responder` for `path` and `method`, behind the middleware added so far.
    @discardableResult
    public func on<Responder: HTTPResponder>(_ path: RouterPath, method: HTTPRequest.Method,
                                             responder: Responder) -> Self where Responder.Context == Context {
        do {
            let translated = try TranslatedPath(path)
            let endpoint = Endpoint(responder: middleware.wrapping(responder), method: method,
                                    endpointPath: path.description, slots: translated.slots)
            guard let fastRouterMethod = FastRouter.HTTPMethod(rawValue: method.rawValue) else {
                throw RouteRegistrationError(method: method, path: path.description, reason: "the method is not an HTTP token")
            }
            try router.add(translated.pattern, methods: [fastRouterMethod], value: endpoint)
        } catch let error as PathTranslationError {
            registrationErrors.append(RouteRegistrationError(method: method, path: path.description, reason: error.description))
        } catch let error as RouteRegistrationError {
            registrationErrors.append(error)
        } catch let error as RouterError where error.code == .duplicateRoute {
            registrationErrors.append(RouteRegistrationError(method: method, path: path.description,
                                                             reason: "\(method.rawValue) already has a handler for this path"))
        } catch {
            registrationErrors.append(RouteRegistrationError(method: method, path: path.description, reason: "\(error)"))
        }
        return self
    }

    /// Adds middleware that runs before the responders added after it, and before the 404, 405
    /// and 400 answers of the router.
    @discardableResult
    public func add(middleware: any MiddlewareProtocol<Request, Response, Context>) -> Self {
        self.middleware.add(middleware)
        return self
    }

    /// Throws the first registration error, if any.
    public func validate() throws(RouteRegistrationError) {
        if let first = registrationErrors.first { throw first }
    }

    /// The responder that routes requests; throws the first registration error, if any.
    public func makeResponder() throws(RouteRegistrationError) -> FastRouterResponder<Context> {
        try validate()
        return FastRouterResponder(router: router, middleware: middleware)
    }

    /// The responder that routes requests (`HTTPResponderBuilder`). Stops the program, listing every
    /// registration error, if there is one: use ``makeResponder()`` or ``validate()`` to get them as
    /// an error instead.
    public func buildResponder() -> FastRouterResponder<Context> {
        do {
            return try makeResponder()
        } catch {
            preconditionFailure(registrationErrors.map(\.description).joined(separator: "\n"))
        }
    }
}

/// A route that a ``FastRouterBuilder`` could not add.
public struct RouteRegistrationError: Error, Sendable, CustomStringConvertible {
    /// The route's method.
    public let method: HTTPRequest.Method
    /// The route's Hummingbird path, as written (its `description`).
    public let path: String
    /// Why it was not added.
    public let reason: String

    /// `GET /a/**/b: cannot route /a/**/b with FastRouter: '**' is not the last element (…)`.
    public var description: String { "\(method.rawValue) \(path): \(reason)" }
}
#endif
