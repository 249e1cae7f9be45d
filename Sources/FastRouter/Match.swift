/// One matched route: its id, value and pattern, the URL's parameters and its fragment.
///
/// A value type that owns its strings: it stays valid whatever the router does afterwards.
public struct Match<Value> {
    /// The id the route was registered with.
    public let routeID: UInt64
    /// The value the route was registered with.
    public let value: Value
    /// The pattern as registered.
    public let pattern: String
    /// Path parameters in pattern order, the wildcard, then the query pairs in URL order.
    public let parameters: Parameters
    // No more stored properties: the fragment lives in the parameters' storage, so that a match
    // of a word-sized value stays small enough to be copied and destroyed inline (a larger
    // generic struct is destroyed through runtime type metadata, which cost more than the rest
    // of `Router.match` outside the lookup).

    /// The raw fragment (after `#`, not decoded), or `nil` when the URL has none.
    @inlinable public var fragment: String? { parameters.fragment }

    /// Copies the current candidate of `scratch`. Inlinable so it is specialised for the caller's
    /// `Value`: unspecialised generic code would look up type metadata on every match.
    @inlinable
    init(_ scratch: MatchScratch) {
        let result = scratch.currentResult()
        // The box is borrowed, not retained: its reference count is shared by every thread.
        (value, pattern) = Unmanaged<RouteBox<Value>>.fromOpaque(result.payload)._withUnsafeGuaranteedRef {
            ($0.value, $0.pattern)
        }
        routeID = result.routeID
        parameters = result.parameters
    }
}

extension Match: Sendable where Value: Sendable {}
