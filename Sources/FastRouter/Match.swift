/// One matched route: its id, value and pattern, the URL's parameters and its fragment.
///
/// A value type that owns its strings: it stays valid whatever the router does afterwards.
public struct Match<Value> {
    /// The id the route was registered with.
    public let routeID: UInt64
    /// Path parameters in pattern order, the wildcard, then the query pairs in URL order.
    public let parameters: Parameters
    /// The route's value and pattern, shared with the router (immutable): one reference to hold
    /// instead of copies, so a match of a route whose box is not in the cache costs one miss.
    @usableFromInline let box: RouteBox<Value>
    // No more stored properties: the fragment lives in the parameters' storage, so that a match
    // stays small enough to be copied and destroyed inline (a larger generic struct is destroyed
    // through runtime type metadata, which cost more than the rest of `Router.match` outside
    // the lookup).

    /// The value the route was registered with.
    @inlinable public var value: Value { box.value }

    /// The pattern as registered.
    @inlinable public var pattern: String { box.pattern }

    /// The raw fragment (after `#`, not decoded), or `nil` when the URL has none.
    @inlinable public var fragment: String? { parameters.fragment }

    /// Copies the current candidate of `scratch`. Inlinable so it is specialised for the caller's
    /// `Value`: unspecialised generic code would look up type metadata on every match.
    @inlinable
    init(_ scratch: MatchScratch) {
        let result = scratch.currentResult()
        box = Unmanaged<RouteBox<Value>>.fromOpaque(result.payload).takeUnretainedValue()
        routeID = result.routeID
        parameters = result.parameters
    }
}

// @unchecked: the box is immutable after registration.
extension Match: @unchecked Sendable where Value: Sendable {}
