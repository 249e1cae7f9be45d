import FastRouter
import FastRouterLint

/// One case of a destination enum and the links that lead to it: a single declaration that
/// parses links into the case and, optionally, builds links back from it.
///
/// ```swift
/// enum Screen: LinkDestination {
///     case pokemon(id: Int)
///     case search(types: [PokemonType])
///
///     static let linkRoutes: [DestinationRoute<Screen>] = [
///         DestinationRoute("pokedex://pokemon/{pokedexID:int}", "https://pokedex.example.com/pokemon/{pokedexID:int}",
///                          parse: { .pokemon(id: try $0.pokedexID) },
///                          link: { if case .pokemon(let id) = $0 { ["pokedexID": id] } else { nil } }),
///         DestinationRoute("pokedex://search", parse: { .search(types: try $0.types ?? []) }),
///     ]
/// }
/// ```
/// `parse` may throw (a missing or invalid parameter) or return `nil`: either way the route
/// declines and the next candidate is tried.
public struct DestinationRoute<Destination>: Sendable {
    /// The patterns leading to the destination, in the order links are built from them.
    public let patterns: [String]
    /// The priority of every pattern.
    public let priority: Int32
    /// A route name, for `url(named:)`; `nil` for none.
    public let name: String?
    let parse: @Sendable (DeepLinkArguments) throws -> Destination?
    private let link: (@Sendable (Destination) -> KeyValuePairs<String, any LinkParameterValue>?)?

    /// Declares a destination route.
    ///
    /// - Parameters:
    ///   - patterns: one or more patterns (a custom-scheme link and universal links, say).
    ///   - priority: the priority of every pattern.
    ///   - name: an optional route name.
    ///   - parse: builds the destination from the matched parameters; throw or return `nil` to decline.
    ///   - link: the parameters of a link to `destination`, or `nil` when this route does not lead
    ///     to it. Without it, the route only parses.
    public init(_ patterns: String..., priority: Int32 = 0, name: String? = nil,
                parse: @escaping @Sendable (DeepLinkArguments) throws -> Destination?,
                link: (@Sendable (Destination) -> KeyValuePairs<String, any LinkParameterValue>?)? = nil) {
        self.patterns = patterns
        self.priority = priority
        self.name = name
        self.parse = parse
        self.link = link
    }

    /// The parameters of a link to `destination` through this route, as text, or `nil`.
    func parameters(for destination: Destination) -> [(name: String, value: String)]? {
        link?(destination).map { pairs in pairs.map { ($0.key, $0.value.linkParameter) } }
    }
}

/// An enum (or any type) whose values links lead to, declared case by case.
///
/// A ``DestinationRouter`` of it is built with no other code: `try DestinationRouter<Screen>()`.
public protocol LinkDestination {
    /// One declaration per case (or per group of cases).
    static var linkRoutes: [DestinationRoute<Self>] { get }
}

/// Maps URLs to destination values and destinations back to URLs (Kickstarter's `Navigation`
/// style, in both directions).
///
/// ```swift
/// let screens = try DestinationRouter<Screen>()
/// screens.destination(for: "https://pokedex.example.com/pokemon/25")   // .pokemon(id: 25)
/// try screens.url(for: .pokemon(id: 25), scheme: "https")              // "https://pokedex.example.com/pokemon/25"
/// ```
///
/// Thread-safety: immutable once built; `Sendable`, safe to share.
public final class DestinationRouter<Destination>: Sendable {
    private let router: Router<Entry>
    private let declarations: [DestinationRoute<Destination>]
    /// The route ids of each declaration's patterns, in order.
    private let routeIDs: [[UInt64]]

    /// Registers `routes` in order, all or none.
    /// - Throws: `RouterError` for an invalid pattern or a duplicate route.
    public init(_ routes: [DestinationRoute<Destination>], options: RouterOptions = RouterOptions()) throws(RouterError) {
        router = Router(options: options)
        declarations = routes
        var batch: [Route<Entry>] = []
        for (index, route) in routes.enumerated() {
            for pattern in route.patterns {
                batch.append(Route(pattern, priority: route.priority, value: Entry(declaration: index)))
            }
        }
        let ids = try router.add(contentsOf: batch)
        var cursor = 0
        routeIDs = routes.map { route in
            defer { cursor += route.patterns.count }
            return Array(ids[cursor..<(cursor + route.patterns.count)])
        }
    }

    /// The destination `url` leads to: the first candidate route, best first, whose `parse`
    /// gives one; `nil` when none does or the URL is malformed.
    public func destination(for url: String) -> Destination? {
        guard let matches = try? router.matches(url) else { return nil }
        for match in matches {
            let arguments = DeepLinkArguments(match.parameters)
            if let destination = try? declarations[match.value.declaration].parse(arguments) { return destination }
        }
        return nil
    }

    /// A link to `destination`: built from the first declaration whose `link` accepts it, with
    /// its first pattern of `scheme` (when given) that accepts `host` (when given).
    /// - Throws: `RouterError` `.notFound` when no declaration links to it; otherwise the
    ///   error of the first pattern tried (see `Router.url(for:parameters:host:)`).
    public func url(for destination: Destination, scheme: String? = nil, host: String? = nil) throws(RouterError) -> String {
        let schemes = Dictionary(router.routes.map { ($0.id, $0.scheme) }, uniquingKeysWith: { first, _ in first })
        for (index, declaration) in declarations.enumerated() {
            guard let pairs = declaration.parameters(for: destination) else { continue }
            var firstError: RouterError?
            for id in routeIDs[index] {
                let routeScheme = schemes[id] ?? nil
                if let scheme, routeScheme != scheme.lowercased() { continue }
                if host != nil, !(routeScheme.map(router.options.webSchemes.contains) ?? false) { continue }
                do {
                    return try router.url(for: id, parameters: pairs, host: host)
                } catch {
                    firstError = firstError ?? error
                }
            }
            if let firstError { throw firstError }
        }
        throw RouterError(.notFound, offset: 0, "no destination route links to \(destination)"
                          + (scheme.map { " with scheme '\($0)'" } ?? ""))
    }

    /// Every route, in declaration order.
    public var routes: [RouteDescription] { router.routes }

    /// Shadowed routes and ambiguous pairs; see `Router.lint()`.
    public func lint() -> [LintFinding] { router.lint() }

    /// Which declaration a registered pattern belongs to.
    final class Entry: Sendable {
        let declaration: Int
        init(declaration: Int) { self.declaration = declaration }
    }
}

extension DestinationRouter where Destination: LinkDestination {
    /// A router of every declaration in `Destination.linkRoutes`.
    public convenience init(options: RouterOptions = RouterOptions()) throws(RouterError) {
        try self.init(Destination.linkRoutes, options: options)
    }
}
