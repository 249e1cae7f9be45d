/// A reusable lookup for hot paths: matches URLs against one router without allocating.
///
/// ```swift
/// let matcher = Matcher(router: router)
/// if try matcher.match("/users/42"), let id = matcher.parameterBytes("id") { … }
/// ```
///
/// Not thread-safe: give each thread its own. Once it has served a lookup at least as large
/// (URL length, parameter count), further lookups make no heap allocation. Byte views it returns
/// stay valid until the next `match` or `next` on it.
///
/// A matcher keeps the values of its last lookup's routes readable until its next `match`,
/// ``clear()`` or deinitialization: if one of those routes is removed meanwhile, the router
/// releases its value only after that. Values of other removed routes are not held back, unless
/// the last lookup found more than four candidates; ``clear()`` lets go of everything.
public final class Matcher<Value> {
    /// The router this matcher looks URLs up in.
    public let router: Router<Value>
    let scratch = MatchScratch()
    /// The router's core, not retained (`router` keeps it alive): retaining it on every lookup
    /// would make every thread's matcher write the same shared reference count.
    private let core: Unmanaged<RouterCore>

    /// A matcher for `router`.
    public init(router: Router<Value>) {
        self.router = router
        core = Unmanaged.passUnretained(router.core)
    }

    /// Looks `url` up; `true` when a route matched (its data is then current). Byte views
    /// point into the matcher's own copy of the URL, never into `url`'s storage.
    /// - Throws: ``RouterError`` `.invalidURL` for a malformed URL.
    public func match(_ url: String) throws(RouterError) -> Bool {
        let status = core._withUnsafeGuaranteedRef { $0.match(string: url, into: scratch) }
        if status == .invalidURL { throw RouterError(.invalidURL, offset: 0, "the URL is malformed or over a limit") }
        return status == .found
    }

    /// Looks up URL bytes. The matcher reads them during the call only: byte views point into
    /// its own copy, so the caller may reuse the buffer at once.
    /// Like ``match(_:)``, but finds every candidate in one version of the tables at once, so
    /// that ``next()`` steps through them even while writers change the router.
    func matchAll(_ url: String, method: HTTPMethod? = nil) throws(RouterError) -> Bool {
        let status = core._withUnsafeGuaranteedRef { $0.matchAll(string: url, method: method, into: scratch) }
        if status == .invalidURL { throw RouterError(.invalidURL, offset: 0, "the URL is malformed or over a limit") }
        return status == .found
    }

    /// - Throws: ``RouterError`` `.invalidURL` for a malformed URL.
    public func match(utf8 url: UnsafeBufferPointer<UInt8>) throws(RouterError) -> Bool {
        let status = core._withUnsafeGuaranteedRef { $0.match(url: scratch.state.pointee.own(url), into: scratch) }
        if status == .invalidURL { throw RouterError(.invalidURL, offset: 0, "the URL is malformed or over a limit") }
        return status == .found
    }

    /// Looks up a request: the best route for `url` that accepts `method` (docs/SEMANTICS.md
    /// §3.7). On `.methodNotAllowed`, ``allowedMethods`` lists what the URL's routes accept;
    /// ``next()`` then steps through the routes that accept the method.
    /// - Throws: ``RouterError`` `.invalidURL` for a malformed URL.
    public func match(_ url: String, method: HTTPMethod) throws(RouterError) -> MatchOutcome {
        let status = core._withUnsafeGuaranteedRef { $0.match(string: url, method: method, into: scratch) }
        return try Self.outcome(status)
    }

    /// ``match(_:method:)`` for URL bytes, read during the call only (as ``match(utf8:)``).
    /// - Throws: ``RouterError`` `.invalidURL` for a malformed URL.
    public func match(utf8 url: UnsafeBufferPointer<UInt8>, method: HTTPMethod) throws(RouterError) -> MatchOutcome {
        let status = core._withUnsafeGuaranteedRef { $0.match(method: method, url: scratch.state.pointee.own(url), into: scratch) }
        return try Self.outcome(status)
    }

    private static func outcome(_ status: LookupStatus) throws(RouterError) -> MatchOutcome {
        switch status {
        case .found: return .matched
        case .noMatch: return .notFound
        case .methodNotAllowed: return .methodNotAllowed
        case .invalidURL: throw RouterError.invalidURL
        case .invalidMethod: throw RouterError(.invalidArgument, offset: 0, "the method is not an HTTP token")
        }
    }

    /// After a ``match(_:method:)`` that returned `.methodNotAllowed`: the methods the routes
    /// matching the URL accept, for an `Allow` header; `nil` after any other result.
    public var allowedMethods: AllowedMethods? { scratch.allowedMethods }

    /// Declines the current route and moves to the next candidate; `false` when none is left.
    public func next() -> Bool { scratch.next() == .found }

    /// The current route's id, or `UInt64.max` when nothing matched. Kept with the route's value
    /// (docs/ARCHITECTURE.md, "Memory per route"): reading either reads the same cache line.
    public var routeID: UInt64 { scratch.routeID }

    /// The current route's value.
    public var value: Value? {
        scratch.payload.map { RouteValues<Value>.value(at: $0) }
    }

    /// Number of parameters of the current route, query pairs included.
    public var parameterCount: Int { scratch.parameterCount }

    /// The bytes of the first parameter named `name`; valid until the next `match` or `next`.
    public func parameterBytes(_ name: String) -> UnsafeBufferPointer<UInt8>? {
        var name = name
        return name.withUTF8 { scratch.parameter(named: $0) }
    }

    /// The first parameter named `name` as a string.
    public func parameter(_ name: String) -> String? {
        parameterBytes(name).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The name and bytes of the parameter at `index`; valid until the next `match` or `next`.
    public func parameter(at index: Int) -> (name: UnsafeBufferPointer<UInt8>, value: UnsafeBufferPointer<UInt8>)? {
        scratch.parameter(at: index)
    }

    /// Forgets the last result, so values of routes removed since need not wait for this matcher.
    public func clear() {
        scratch.clearResult()
        scratch.slot.drop()
    }

    /// The raw fragment bytes of the last URL, when it matched and has a `#`.
    public var fragment: UnsafeBufferPointer<UInt8>? { scratch.fragmentBytes }
}
