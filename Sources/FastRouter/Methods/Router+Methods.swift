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
    @inlinable
    public func match(_ url: String, method: HTTPMethod) throws(RouterError) -> RouteResult<Value> {
        let (scratch, allowed) = try core.beginRequestMatch(of: url, method: method)
        guard let scratch else { return allowed.map { .methodNotAllowed($0) } ?? .notFound }
        let result = scratch._withUnsafeGuaranteedRef { Match<Value>($0) }
        core.endMatch(scratch)
        return .matched(result)
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

extension RouterCore {
    /// Matches a request with this thread's scratch. Returns the scratch on the best candidate
    /// (the caller copies it out, then calls ``endMatch(_:)``), or `nil` with the allowed methods
    /// of a 405, or `nil` twice when no route matches the URL.
    @usableFromInline
    func beginRequestMatch(of url: String, method: HTTPMethod) throws(RouterError)
        -> (Unmanaged<MatchScratch>?, AllowedMethods?) {
        let (status, scratch) = ThreadScratch.withCurrent { scratch in
            (match(string: url, method: method, into: scratch), Unmanaged.passUnretained(scratch))
        }
        guard status == .found else {
            let allowed = status == .methodNotAllowed ? scratch._withUnsafeGuaranteedRef { $0.allowedMethods } : nil
            endMatch(scratch)
            if status == .invalidURL { throw RouterError.invalidURL }
            return (nil, allowed)
        }
        return (scratch, nil)
    }
}
