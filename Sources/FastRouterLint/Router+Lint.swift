import FastRouter

extension Router {
    /// Routes that can never be the first candidate, for all or some of their methods, pairs
    /// only registration order tells apart, and methods that are likely mistakes.
    ///
    /// A route is reported as shadowed when one other route (with another id) matches every URL
    /// it matches, accepts its methods and comes first for each of them (higher priority, more
    /// specific host or segments, or earlier registration). Methods count one by one
    /// (docs/SEMANTICS.md §3.7): a route is shadowed for a method when routes that come first and
    /// accept that method match every URL it matches; it is reported as partly shadowed when
    /// other methods still reach it, and as unreachable when its methods all go to better routes
    /// without one route taking them all. With `RouterOptions.headFallback`, a GET route that
    /// comes first by priority, host or segments also takes HEAD. A route for any method loses a
    /// method only to routes naming it (and HEAD to GET routes), so only a route for any method
    /// shadows it wholly. Two routes are reported as ambiguous when they have equal precedence, a
    /// common URL and a common method, so only registration order decides. A method that differs
    /// from a standard one only by case (`get`) is reported, and so is a GET route whose HEAD
    /// requests another GET route takes (one of equal precedence registered later that names
    /// HEAD, which comes first for HEAD). Each finding comes with an example URL checked by a
    /// real lookup. Regex
    /// constraints are compared by their source: the check never reports a route that can come
    /// first, but it may miss one hidden by a regex that contains another, or by several routes
    /// together.
    ///
    /// ```swift
    /// let router = Router<String>()
    /// try router.add("/users/:id", priority: 1, value: "user")
    /// try router.add("/users/me", value: "me")
    /// router.lint().first?.kind          // .shadowedRoute
    /// router.lint().first?.exampleURL    // "/users/me"
    ///
    /// try router.add("/posts/:id", methods: [.get], priority: 1, value: "show")
    /// try router.add("/posts/{n}", methods: [.get, .delete], value: "edit")
    /// router.lint().last?.kind           // .partlyShadowedRoute: GET goes to "show", DELETE still reaches "edit"
    /// ```
    /// - Complexity: O(n²) in the routes of equal length in one table, plus a lookup per finding.
    public func lint() -> [LintFinding] {
        RouteAnalysis(core: core).findings()
    }
}
