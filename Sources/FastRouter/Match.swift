/// One matched route: its id and value, the URL's parameters and its fragment.
///
/// A value type that owns its strings: it stays valid whatever the router does afterwards.
public struct Match<Value> {
    /// The id the route was registered with.
    public let routeID: UInt64
    /// Path parameters in pattern order, the wildcard, then the query pairs in URL order.
    public let parameters: Parameters
    /// The value the route was registered with.
    public let value: Value
    // The URL's fragment lives in the parameters' storage, which belongs to this match alone:
    // a match holds no reference that other threads' matches touch too (the route's own value is
    // shared by every thread that matches the route). For the same reason a match does not
    // carry the route's pattern: a value that needs it holds it (docs/SEMANTICS.md §3.3).

    /// The raw fragment (after `#`, not decoded), or `nil` when the URL has none.
    @inlinable public var fragment: String? { parameters.fragment }

    /// Copies the current candidate of `scratch`. Inlinable so it is specialised for the caller's
    /// `Value`: unspecialised generic code would look up type metadata on every match.
    @inlinable
    init(_ scratch: MatchScratch) {
        let result = scratch.currentResult()
        // Borrowed, not retained: the scratch holds the route until the caller ends the match.
        value = RouteValues<Value>.value(at: result.payload)
        routeID = result.routeID
        parameters = result.parameters
    }

    /// The match `found` with its route's `value`, read by the caller while it held the route:
    /// releases the route.
    @inlinable
    init(_ found: FoundMatch, value: Value) {
        found.release()
        routeID = found.routeID
        parameters = Parameters(storage: found.parameters?.takeRetainedValue())
        self.value = value
    }
}

extension Match: Sendable where Value: Sendable {}
