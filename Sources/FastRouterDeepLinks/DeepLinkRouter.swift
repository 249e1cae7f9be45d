import FastRouter
import FastRouterLint

/// Routes incoming deep links and universal links to handlers, in precedence order, until one accepts.
///
/// ```swift
/// let links = DeepLinkRouter<Session>()
/// try links.route(["pokedex://pokemon/{pokedexID:int}", "https://pokedex.example.com/pokemon/{pokedexID:int}"],
///                 name: "pokemon") { context in
///     navigator.show(.pokemon(try context.arguments.pokedexID))
/// }
/// links.setUnmatchedHandler(forScheme: "pokedex") { unmatched in navigator.show(.notFound(unmatched.url)) }
///
/// links.open("pokedex://pokemon/25", userInfo: session)          // runs the handler
/// links.canOpen("https://pokedex.example.com/pokemon/25")       // true, runs nothing
/// try links.url(named: "pokemon", parameters: ["pokedexID": 25]) // "pokedex://pokemon/25"
/// ```
///
/// **Dispatch.** `open` asks the routes matching the URL, best first (docs/SEMANTICS.md §3.1: priority, then
/// specificity, then registration order; the URL's scheme table before the global table). A
/// handler accepts by returning and declines by throwing: ``DeepLinkContext/decline(_:)``, a
/// ``DeepLinkArgumentError`` from a typed parameter, or any error of its own. Each route is asked
/// at most once per URL. When no route accepts, the unmatched handler of the URL's scheme runs,
/// then, if it is missing or declines, the global one: each at most once per URL.
///
/// **Concurrency.** Handlers are plain closures that may capture the caller's state, so a
/// dispatcher belongs to one isolation domain (typically the main actor) and is not `Sendable`.
/// `await open` runs in the caller's isolation and awaits `async` handlers; the synchronous
/// `open` runs synchronous handlers and counts an `async` one as declined
/// (``DeepLinkDispatchError/asynchronousHandler``).
public final class DeepLinkRouter<UserInfo> {
    /// A synchronous handler: return to accept, throw to decline.
    public typealias Handler = (DeepLinkContext<UserInfo>) throws -> Void
    /// An asynchronous handler, run by `await open`: return to accept, throw to decline.
    public typealias AsyncHandler = nonisolated(nonsending) (DeepLinkContext<UserInfo>) async throws -> Void
    /// Runs when no route accepts a URL: return to accept, throw to pass it on to the global handler.
    public typealias UnmatchedHandler = (DeepLinkUnmatched<UserInfo>) throws -> Void
    /// An asynchronous unmatched handler, run by `await open`.
    public typealias AsyncUnmatchedHandler = nonisolated(nonsending) (DeepLinkUnmatched<UserInfo>) async throws -> Void

    let router: Router<Entry>
    private var namedRoutes: [String: [UInt64]] = [:]
    private var unmatchedByScheme: [String: Callback<DeepLinkUnmatched<UserInfo>>] = [:]
    private var globalUnmatched: Callback<DeepLinkUnmatched<UserInfo>>?
    private var linkers: [(Any) -> (name: String, parameters: [(name: String, value: String)])?] = []

    /// An empty dispatcher.
    /// - Parameter options: the options of the underlying `Router` (case folding, global fallback, web schemes).
    public init(options: RouterOptions = RouterOptions()) {
        router = Router(options: options)
    }

    /// The options the dispatcher was created with.
    public var options: RouterOptions { router.options }

    // MARK: Registration

    /// Registers a route and its handler.
    ///
    /// - Parameters:
    ///   - pattern: the route pattern, e.g. `myapp://users/{id:int}` or `https://example.com/users/:id`.
    ///   - priority: higher priorities are asked first, before specificity is compared.
    ///   - name: a name for ``url(named:parameters:scheme:host:)``; unique in the dispatcher.
    ///   - handler: returns to accept the URL, throws to decline it.
    /// - Returns: the route id.
    /// - Throws: `RouterError` for an invalid pattern, a duplicate route or a name already used.
    @discardableResult
    public func route(_ pattern: String, priority: Int32 = 0, name: String? = nil,
                      handler: @escaping Handler) throws(RouterError) -> UInt64 {
        try register([pattern], priority: priority, name: name, .sync(handler))[0]
    }

    /// Registers a route with an `async` handler, run by `await open(_:userInfo:)`.
    @discardableResult
    public func route(_ pattern: String, priority: Int32 = 0, name: String? = nil,
                      handler: @escaping AsyncHandler) throws(RouterError) -> UInt64 {
        try register([pattern], priority: priority, name: name, .async(handler))[0]
    }

    /// Registers one handler for several patterns, all or none: typically a custom-scheme link
    /// and the universal links of each host for the same screen.
    ///
    /// Each pattern is its own route with its own id, so ``url(named:parameters:scheme:host:)``
    /// can build any of them.
    /// - Returns: the route ids, in order.
    @discardableResult
    public func route(_ patterns: [String], priority: Int32 = 0, name: String? = nil,
                      handler: @escaping Handler) throws(RouterError) -> [UInt64] {
        try register(patterns, priority: priority, name: name, .sync(handler))
    }

    /// Registers one `async` handler for several patterns, all or none.
    @discardableResult
    public func route(_ patterns: [String], priority: Int32 = 0, name: String? = nil,
                      handler: @escaping AsyncHandler) throws(RouterError) -> [UInt64] {
        try register(patterns, priority: priority, name: name, .async(handler))
    }

    /// Registers a destination route: its patterns lead to `handler` with the destination its
    /// `parse` builds; when `parse` returns `nil` the route declines.
    ///
    /// ``url(for:scheme:host:)`` builds links to destinations registered this way.
    @discardableResult
    public func route<Destination>(_ destination: DestinationRoute<Destination>,
                                   handler: @escaping (Destination, DeepLinkContext<UserInfo>) throws -> Void) throws(RouterError) -> [UInt64] {
        let name = destination.name ?? "#destination\(linkers.count)"
        let ids = try register(destination.patterns, priority: destination.priority, name: name, .sync({ context in
            guard let value = try destination.parse(context.arguments) else {
                try context.decline("\(Destination.self) route does not apply")
            }
            try handler(value, context)
        }))
        linkers.append { any in
            guard let value = any as? Destination, let parameters = destination.parameters(for: value) else { return nil }
            return (name, parameters)
        }
        return ids
    }

    /// Registers destination routes in order (see the single-route form), all or none.
    @discardableResult
    public func route<Destination>(_ destinations: [DestinationRoute<Destination>],
                                   handler: @escaping (Destination, DeepLinkContext<UserInfo>) throws -> Void) throws(RouterError) -> [UInt64] {
        var ids: [UInt64] = []
        do {
            for destination in destinations { ids += try route(destination, handler: handler) }
        } catch {
            for id in ids { remove(id: id) }
            throw error
        }
        return ids
    }

    private func register(_ patterns: [String], priority: Int32, name: String?, _ callback: Callback<DeepLinkContext<UserInfo>>)
        throws(RouterError) -> [UInt64] {
        if let name {
            guard !name.isEmpty else { throw RouterError(.invalidArgument, offset: 0, "a route name cannot be empty") }
            guard namedRoutes[name] == nil else {
                throw RouterError(.invalidArgument, offset: 0, "the route name '\(name)' is already used")
            }
        }
        guard !patterns.isEmpty else { throw RouterError(.invalidArgument, offset: 0, "no pattern given") }
        let ids = try router.add(contentsOf: patterns.map {
            Route($0, priority: priority, value: Entry(name: name, pattern: $0, callback: callback))
        })
        if let name { namedRoutes[name] = ids }
        return ids
    }

    /// Sets the handler for URLs of `scheme` that no route accepts (`nil`: the global handler,
    /// for every URL no route and no scheme handler accepts). Replaces the previous one.
    public func setUnmatchedHandler(forScheme scheme: String?, _ handler: @escaping UnmatchedHandler) {
        setUnmatched(scheme, .sync(handler))
    }

    /// Sets an `async` unmatched handler, run by `await open(_:userInfo:)`.
    public func setUnmatchedHandler(forScheme scheme: String?, _ handler: @escaping AsyncUnmatchedHandler) {
        setUnmatched(scheme, .async(handler))
    }

    /// Removes the unmatched handler of `scheme` (`nil`: the global one).
    public func removeUnmatchedHandler(forScheme scheme: String?) {
        if let scheme { unmatchedByScheme[scheme.lowercased()] = nil } else { globalUnmatched = nil }
    }

    private func setUnmatched(_ scheme: String?, _ callback: Callback<DeepLinkUnmatched<UserInfo>>) {
        if let scheme { unmatchedByScheme[scheme.lowercased()] = callback } else { globalUnmatched = callback }
    }

    /// Removes the route with `id`.
    /// - Returns: the number of routes removed (0 or 1).
    @discardableResult
    public func remove(id: UInt64) -> Int {
        for (name, ids) in namedRoutes where ids.contains(id) {
            let rest = ids.filter { $0 != id }
            namedRoutes[name] = rest.isEmpty ? nil : rest
        }
        return router.remove(id: id)
    }

    /// Removes every route registered under `name`.
    /// - Returns: the number of routes removed.
    @discardableResult
    public func remove(named name: String) -> Int {
        guard let ids = namedRoutes.removeValue(forKey: name) else { return 0 }
        return ids.reduce(0) { $0 + router.remove(id: $1) }
    }

    // MARK: Dispatch

    /// Whether some route matches `url`, without running any handler (a handler could still decline).
    public func canOpen(_ url: String) -> Bool {
        (try? router.match(url)) != nil
    }

    /// Hands `url` to the matching routes' handlers, best first, until one accepts; then to the
    /// unmatched handlers. Runs synchronous handlers only: an `async` one counts as declined.
    ///
    /// - Parameters:
    ///   - url: any URL: `myapp://…`, `https://host/…`, or a path.
    ///   - userInfo: passed to every handler (the presenting screen, the session, the source).
    /// - Returns: who handled the URL, and every decline on the way.
    @discardableResult
    public func open(_ url: String, userInfo: UserInfo) -> DeepLinkOutcome {
        let (candidates, urlError) = candidates(for: url)
        var declined: [DeepLinkOutcome.Declined] = []
        for (index, match) in candidates.enumerated() {
            guard case .sync(let handler) = match.value.callback else {
                declined.append(Self.declined(match, DeepLinkDispatchError.asynchronousHandler))
                continue
            }
            do {
                try handler(context(url, match, userInfo, index))
                return DeepLinkOutcome(url: url, resolution: .route(id: match.routeID, pattern: match.value.pattern, name: match.value.name),
                                       declined: declined, urlError: nil)
            } catch {
                declined.append(Self.declined(match, error))
            }
        }
        let unmatched = DeepLinkUnmatched(url: url, scheme: Self.scheme(of: url), userInfo: userInfo,
                                          declined: declined, urlError: urlError)
        for (scheme, callback) in unmatchedHandlers(for: unmatched.scheme) {
            guard case .sync(let handler) = callback else { continue }
            do {
                try handler(unmatched)
                return DeepLinkOutcome(url: url, resolution: .unmatchedHandler(scheme: scheme), declined: declined, urlError: urlError)
            } catch {
                continue
            }
        }
        return DeepLinkOutcome(url: url, resolution: .unhandled, declined: declined, urlError: urlError)
    }

    /// Hands `url` to the matching routes' handlers, best first, until one accepts; then to the
    /// unmatched handlers. Awaits `async` handlers; runs in the caller's isolation.
    @discardableResult
    nonisolated(nonsending) public func open(_ url: String, userInfo: UserInfo) async -> DeepLinkOutcome {
        let (candidates, urlError) = candidates(for: url)
        var declined: [DeepLinkOutcome.Declined] = []
        for (index, match) in candidates.enumerated() {
            do {
                let context = context(url, match, userInfo, index)
                switch match.value.callback {
                case .sync(let handler): try handler(context)
                case .async(let handler): try await handler(context)
                }
                return DeepLinkOutcome(url: url, resolution: .route(id: match.routeID, pattern: match.value.pattern, name: match.value.name),
                                       declined: declined, urlError: nil)
            } catch {
                declined.append(Self.declined(match, error))
            }
        }
        let unmatched = DeepLinkUnmatched(url: url, scheme: Self.scheme(of: url), userInfo: userInfo,
                                          declined: declined, urlError: urlError)
        for (scheme, callback) in unmatchedHandlers(for: unmatched.scheme) {
            do {
                switch callback {
                case .sync(let handler): try handler(unmatched)
                case .async(let handler): try await handler(unmatched)
                }
                return DeepLinkOutcome(url: url, resolution: .unmatchedHandler(scheme: scheme), declined: declined, urlError: urlError)
            } catch {
                continue
            }
        }
        return DeepLinkOutcome(url: url, resolution: .unhandled, declined: declined, urlError: urlError)
    }

    /// Every candidate for `url`, best first, one per route id; or the URL's error.
    private func candidates(for url: String) -> ([Match<Entry>], RouterError?) {
        let matches: [Match<Entry>]
        do {
            matches = try router.matches(url)
        } catch {
            return ([], error)
        }
        var seen = Set<UInt64>()
        return (matches.filter { seen.insert($0.routeID).inserted }, nil)
    }

    private func context(_ url: String, _ match: Match<Entry>, _ userInfo: UserInfo, _ index: Int) -> DeepLinkContext<UserInfo> {
        DeepLinkContext(url: url, routeID: match.routeID, pattern: match.value.pattern, routeName: match.value.name,
                        parameters: match.parameters, fragment: match.fragment, userInfo: userInfo, candidateIndex: index)
    }

    private static func declined(_ match: Match<Entry>, _ error: any Error) -> DeepLinkOutcome.Declined {
        DeepLinkOutcome.Declined(routeID: match.routeID, pattern: match.value.pattern, name: match.value.name, error: error)
    }

    /// The scheme's handler, then the global one: the order unmatched URLs go through.
    private func unmatchedHandlers(for scheme: String?) -> [(String?, Callback<DeepLinkUnmatched<UserInfo>>)] {
        var handlers: [(String?, Callback<DeepLinkUnmatched<UserInfo>>)] = []
        if let scheme, let handler = unmatchedByScheme[scheme] { handlers.append((scheme, handler)) }
        if let globalUnmatched { handlers.append((nil, globalUnmatched)) }
        return handlers
    }

    /// The lower-cased scheme of `url` as the matcher reads it, or `nil`.
    static func scheme(of url: String) -> String? {
        let bytes = Array(url.utf8.prefix(256))
        guard let first = bytes.first, ASCII.isAlpha(first) else { return nil }
        var end = 1
        while end < bytes.count, ASCII.isSchemeCharacter(bytes[end]) { end += 1 }
        guard end < bytes.count, bytes[end] == UInt8(ascii: ":") else { return nil }
        return String(decoding: bytes[0..<end].map(ASCII.lowercased), as: UTF8.self)
    }

    // MARK: Links

    /// Builds a link to the route registered under `name`.
    ///
    /// When the name covers several patterns, the first (in registration order) whose scheme is
    /// `scheme` (when given), that accepts `host` (when given) and whose placeholders all have
    /// values is built; see `Router.url(for:parameters:host:)` for the rules.
    ///
    /// ```swift
    /// try links.url(named: "pokemon", parameters: ["pokedexID": 25], scheme: "https")
    /// // "https://pokedex.example.com/pokemon/25"
    /// ```
    /// - Parameters:
    ///   - name: the route name.
    ///   - parameters: values by name, typed (`Int`, `Bool`, `UUID`, arrays, enums declaring ``LinkParameterValue``…).
    ///   - scheme: build only a pattern of this scheme (`nil`: any).
    ///   - host: for a web pattern, the host to build on.
    /// - Throws: `RouterError` `.notFound` for an unknown name or no pattern of that scheme;
    ///   otherwise the error of the first pattern tried.
    public func url(named name: String, parameters: KeyValuePairs<String, any LinkParameterValue> = [:],
                    scheme: String? = nil, host: String? = nil) throws(RouterError) -> String {
        try url(named: name, pairs: parameters.map { ($0.key, $0.value.linkParameter) }, scheme: scheme, host: host)
    }

    /// Builds a link to the route with `id`; see ``url(named:parameters:scheme:host:)``.
    public func url(for id: UInt64, parameters: KeyValuePairs<String, any LinkParameterValue> = [:],
                    host: String? = nil) throws(RouterError) -> String {
        try router.url(for: id, parameters: parameters.map { ($0.key, $0.value.linkParameter) }, host: host)
    }

    /// Builds a link to `destination`, through the first destination route whose `link` accepts it.
    /// - Throws: `RouterError` `.notFound` when no registered destination route links to it.
    public func url<Destination>(for destination: Destination, scheme: String? = nil, host: String? = nil) throws(RouterError) -> String {
        for linker in linkers {
            guard let (name, pairs) = linker(destination) else { continue }
            return try url(named: name, pairs: pairs, scheme: scheme, host: host)
        }
        throw RouterError(.notFound, offset: 0, "no destination route links to \(destination)")
    }

    private func url(named name: String, pairs: [(name: String, value: String)], scheme: String?,
                     host: String?) throws(RouterError) -> String {
        guard let ids = namedRoutes[name] else { throw RouterError(.notFound, offset: 0, "no route is named '\(name)'") }
        let descriptions = Dictionary(router.routes.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        var firstError: RouterError?
        for id in ids {
            guard let description = descriptions[id] else { continue }
            if let scheme, description.scheme != scheme.lowercased() { continue }
            if host != nil, !(description.scheme.map(options.webSchemes.contains) ?? false) { continue }
            do {
                return try router.url(for: id, parameters: pairs, host: host)
            } catch {
                firstError = firstError ?? error
            }
        }
        if let firstError { throw firstError }
        var wanted = scheme.map { "'\($0)'" } ?? "any"
        if let host { wanted += " web scheme for host '\(host)'" }
        throw RouterError(.notFound, offset: 0, "route '\(name)' has no pattern of \(wanted) scheme")
    }

    // MARK: Introspection

    /// Every route, in registration order.
    public var routes: [RouteDescription] { router.routes }

    /// The name a route was registered under, or `nil`.
    public func name(of id: UInt64) -> String? {
        namedRoutes.first { $0.value.contains(id) }.map(\.key)
    }

    /// Shadowed routes and ambiguous pairs in the dispatcher's table; see `Router.lint()`.
    public func lint() -> [LintFinding] { router.lint() }

    /// A readable listing of the tables; see `Router.dump()`.
    public func dump() -> String { router.dump() }

    /// A registered handler, the name of its route and the pattern it was registered with (a
    /// match does not carry it).
    final class Entry {
        let name: String?
        let pattern: String
        let callback: Callback<DeepLinkContext<UserInfo>>

        init(name: String?, pattern: String, callback: Callback<DeepLinkContext<UserInfo>>) {
            self.name = name
            self.pattern = pattern
            self.callback = callback
        }
    }
}

extension DeepLinkRouter where UserInfo == Void {
    /// Opens `url` with no user info; see `open(_:userInfo:)`.
    @discardableResult
    public func open(_ url: String) -> DeepLinkOutcome { open(url, userInfo: ()) }

    /// Opens `url` with no user info, awaiting `async` handlers.
    @discardableResult
    nonisolated(nonsending) public func open(_ url: String) async -> DeepLinkOutcome { await open(url, userInfo: ()) }
}

/// A handler as stored: synchronous, or only runnable by `await open`.
enum Callback<Argument> {
    case sync((Argument) throws -> Void)
    /// Runs in the isolation of the `await open` that calls it, so the argument never crosses actors.
    typealias AsyncBody = nonisolated(nonsending) (Argument) async throws -> Void
    case async(AsyncBody)
}
