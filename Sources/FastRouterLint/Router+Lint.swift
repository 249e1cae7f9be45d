import FastRouter

extension Router {
    /// Routes that can never be the first candidate and pairs only registration order tells apart.
    ///
    /// A route is reported as shadowed when one other route (with another id) matches every URL
    /// it matches and comes first for each of them (higher priority, more specific host or
    /// segments, or earlier registration). Two routes are reported as ambiguous when they have
    /// equal precedence and a common URL, so only registration order decides. Each finding comes
    /// with an example URL checked by a real lookup. Regex constraints are compared by their
    /// source: the check never reports a route that can come first, but it may miss one hidden by
    /// a regex that contains another.
    ///
    /// ```swift
    /// let router = Router<String>()
    /// try router.add("/users/:id", priority: 1, value: "user")
    /// try router.add("/users/me", value: "me")
    /// router.lint().first?.kind          // .shadowedRoute
    /// router.lint().first?.exampleURL    // "/users/me"
    /// ```
    /// - Complexity: O(n²) in the routes of equal length in one table, plus a lookup per finding.
    public func lint() -> [LintFinding] {
        RouteAnalysis(core: core).findings()
    }
}
