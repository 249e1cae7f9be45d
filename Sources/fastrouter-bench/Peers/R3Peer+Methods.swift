extension R3Peer {
    /// Why r3 cannot take `set`'s methods, or `nil` (always for a set looked up without them): a
    /// route's condition is a mask of r3.h's METHOD_* bits, which name seven methods.
    static func methodsInexpressible(_ set: RouteSet) -> Inexpressible? {
        guard set.looksUpMethods else { return nil }
        let named = set.routes.flatMap(\.methods) + set.requests.compactMap(\.method)
        guard let method = named.first(where: { R3Library.methodBits[$0] == nil }) else { return nil }
        let known = R3Library.methodBits.sorted { $0.value < $1.value }.map(\.key).joined(separator: ", ")
        return Inexpressible("method \(method): r3 has method conditions for \(known) only")
    }

    /// A route's condition: the OR of its methods' bits, 0 (any method) for none.
    static func mask(_ methods: [String]) -> Int32 {
        methods.reduce(0) { $0 | (R3Library.methodBits[$1] ?? 0) }
    }

    /// Each request's METHOD_* bit, where the C loop reads it; `nil` for a set looked up without
    /// methods. A request without a method asks as GET (a route for any method accepts it).
    static func requestBits(_ set: RouteSet) -> UnsafeMutablePointer<Int32>? {
        guard set.looksUpMethods else { return nil }
        let bits = UnsafeMutablePointer<Int32>.allocate(capacity: max(set.requests.count, 1))
        for (index, request) in set.requests.enumerated() {
            bits[index] = R3Library.methodBits[request.method ?? "GET"] ?? 0
        }
        return bits
    }
}
