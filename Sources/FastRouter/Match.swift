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
    /// The raw fragment (after `#`, not decoded), or `nil` when the URL has none.
    public let fragment: String?

    /// Copies the current candidate of `scratch`.
    init(_ scratch: MatchScratch) {
        let box = Unmanaged<RouteBox<Value>>.fromOpaque(scratch.payload!).takeUnretainedValue()
        routeID = scratch.routeID
        value = box.value
        pattern = box.pattern
        parameters = Parameters(scratch)
        fragment = scratch.fragmentBytes.map { String(decoding: $0, as: UTF8.self) }
    }
}

extension Match: Sendable where Value: Sendable {}
