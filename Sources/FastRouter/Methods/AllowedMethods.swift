/// The methods accepted by the routes that match a URL, when none accepts the request's
/// method: what a server answers a 405 with (docs/SEMANTICS.md §3.7).
///
/// Iterates in `Allow` order: RFC 9110's methods in its order (GET, HEAD, POST, PUT, DELETE,
/// CONNECT, OPTIONS, TRACE), then the others in the order the router first saw them. HEAD is
/// listed when GET is and ``RouterOptions/headFallback`` is on. Making one allocates nothing.
public struct AllowedMethods: Sequence, Sendable, CustomStringConvertible {
    private let mask: UInt64
    private let impliedHead: Bool
    private let table: MethodTable

    init(mask: UInt64, impliedHead: Bool, table: MethodTable) {
        self.mask = mask
        self.impliedHead = impliedHead
        self.table = table
    }

    /// Whether `method` is among them.
    public func contains(_ method: HTTPMethod) -> Bool {
        if impliedHead && method == .head { return true }
        let bit = table.bit(of: method)
        return bit != 0 && mask & bit != 0
    }

    /// The value of an `Allow` header: the methods joined by `", "`, e.g. `"GET, HEAD, POST"`.
    public var headerValue: String {
        var text = ""
        table.forEach(in: mask, impliedHead: impliedHead) { bytes, _ in
            if !text.isEmpty { text += ", " }
            text += String(decoding: bytes, as: UTF8.self)
        }
        return text
    }

    /// ``headerValue``.
    public var description: String { headerValue }

    /// The methods, in `Allow` order.
    public func makeIterator() -> IndexingIterator<[HTTPMethod]> {
        var methods: [HTTPMethod] = []
        table.forEach(in: mask, impliedHead: impliedHead) { _, method in methods.append(method) }
        return methods.makeIterator()
    }
}

/// The answer to a request (a method and a URL): the best route, no route for the URL, or
/// routes for the URL of which none accepts the method (docs/SEMANTICS.md §3.7).
public enum RouteResult<Value> {
    /// The best route that matches the URL and accepts the method.
    case matched(Match<Value>)
    /// No route matches the URL: answer 404.
    case notFound
    /// Routes match the URL but none accepts the method: answer 405 with these in `Allow`.
    case methodNotAllowed(AllowedMethods)

    /// The match, when there is one.
    public var match: Match<Value>? {
        if case .matched(let match) = self { return match }
        return nil
    }
}

extension RouteResult: Sendable where Value: Sendable {}

/// How a ``Matcher`` lookup with a method ended; the result is then read from the matcher.
public enum MatchOutcome: Sendable, Equatable {
    /// A route matches the URL and accepts the method: the matcher holds it.
    case matched
    /// No route matches the URL.
    case notFound
    /// Routes match the URL but none accepts the method: see ``Matcher/allowedMethods``.
    case methodNotAllowed
}
