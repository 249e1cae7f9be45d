extension Router {
    /// Registers a route that accepts only some HTTP methods (docs/SEMANTICS.md §3.7).
    ///
    /// ```swift
    /// try router.add("/users/:id", methods: [.get, .head], value: "show user")
    /// try router.add("/users/:id", methods: [.delete], value: "delete user")
    /// ```
    ///
    /// - Parameters:
    ///   - pattern: the route pattern.
    ///   - methods: the methods the route accepts; empty for any method (as ``add(_:priority:id:value:)``).
    ///   - priority: higher priorities win before specificity is compared; default 0.
    ///   - id: the route id; a fresh one when `nil`.
    ///   - value: what a match of this route returns.
    /// - Returns: the route id.
    /// - Throws: ``RouterError``: as ``add(_:priority:id:value:)``; `.duplicateRoute` only when a
    ///   route of the same path accepts one of the same methods (a route for any method accepts
    ///   them all); `.invalidArgument` for a router's 65th distinct method name.
    @discardableResult
    public func add(_ pattern: String, methods: [HTTPMethod], priority: Int32 = 0, id: UInt64? = nil,
                    value: Value) throws(RouterError) -> UInt64 {
        try add(contentsOf: [Route(pattern, methods: methods, priority: priority, id: id, value: value)])[0]
    }

    /// The answer to a request: the best route for `url` that accepts `method`, `.notFound`, or
    /// `.methodNotAllowed` with what the URL's routes accept (docs/SEMANTICS.md §3.7).
    ///
    /// ```swift
    /// switch try router.match("/users/42", method: .delete) {
    /// case .matched(let match): handle(match)
    /// case .notFound: respond(404)
    /// case .methodNotAllowed(let allowed): respond(405, allow: allowed.headerValue)
    /// }
    /// ```
    ///
    /// A route registered without methods accepts every method. A `HEAD` request also takes the
    /// routes that accept `GET`, so the route that answers `GET` answers it, unless a route of
    /// the same shape names `HEAD` (``RouterOptions/headFallback``).
    /// - Throws: ``RouterError`` `.invalidURL` for a malformed URL.
    @inlinable @inline(__always)
    public func match(_ url: String, method: consuming HTTPMethod) throws(RouterError) -> RouteResult<Value> {
        // As ``match(_:)``: one call for the lookup, then the value read in specialised code.
        // A name of up to eight bytes is passed as its word: the name itself is not read, and
        // the method is given up before the lookup, so that the caller's copy of it is not
        // released (an opaque call) while the match is alive, which would retain the match.
        let word = method.word
        let found: FoundMatch
        if word != 0 {
            _ = consume method
            found = RouterCore.withLookupInput(core, url) { core, url, scratch in
                core.mayAnswerByPath ? core.bestMatchByPath(methodWord: word, url, scratch)
                    : core.bestMatch(methodWord: word, url, scratch)
            }
        } else {
            found = core.bestMatch(url, longMethod: method)
        }
        guard let payload = found.payload else {
            if found.status == .invalidURL { throw RouterError.invalidURL }
            return found.allowed.map { .methodNotAllowed($0) } ?? .notFound
        }
        return .matched(Match(found, value: RouteValues<Value>.value(at: payload)))
    }

    /// Every route matching `url` that accepts `method`, best first: the order in which a
    /// handler chain declines. Empty when none does.
    ///
    /// - Throws: ``RouterError`` `.invalidURL` for a malformed URL.
    @inlinable
    public func matches(_ url: String, method: HTTPMethod) throws(RouterError) -> [Match<Value>] {
        var results: [Match<Value>] = []
        let status = core.withCandidates(of: url, method: method) { results.append(Match<Value>($0)) }
        if status == .invalidURL { throw RouterError.invalidURL }
        return results
    }
}
