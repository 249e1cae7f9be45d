import RoutingKit

/// vapor/routing-kit's `TrieRouter`, used the way Vapor uses it (its `DefaultResponder`): the
/// method as the first path component (`[.constant(route.method.rawValue)] + path`), the URL path
/// split into `[String]` for every lookup (inside the timing), and a fresh `Parameters` per lookup
/// that captures the values. A set looked up without methods registers every route under GET and
/// looks up GET; one looked up with methods registers each route under each of its methods (a
/// route for any method under every method the requests use, as a Vapor app registers one
/// handler per method) and looks each request up under its own method, HEAD falling back to GET
/// as Vapor's does.
final class RoutingKitPeer: Contender, @unchecked Sendable {
    // Safety: after registration the trie is only read; `route(path:parameters:)` mutates nothing.
    let router: TrieRouter<Int>
    let urls: [String]
    /// Request i's method, on a set looked up with methods; `nil` otherwise (then GET).
    let methods: [String]?
    let patterns: [PathPattern]
    /// Copied for each lookup: `Parameters()` builds a Logger through the global LoggingSystem
    /// lock every time, which would measure logging rather than routing.
    let blankParameters = Parameters()
    let build: BuildCost

    static let method = "GET"

    /// The methods `set` registers route `index` under: GET for a set looked up without methods;
    /// else the route's own, or, for a route accepting any method, every method the requests use.
    static func registrationMethods(_ set: RouteSet) -> (Int) -> [String] {
        guard set.looksUpMethods else { return { _ in [method] } }
        let requested = Array(Set(set.requests.map { $0.method ?? method })).sorted()
        return { index in set.routes[index].methods.isEmpty ? requested : set.routes[index].methods }
    }

    /// The reason the set is out of routing-kit's reach, or `nil` when it can take it.
    static func inexpressible(_ set: RouteSet) -> Inexpressible? {
        switch PeerSupport.pathPatterns(of: set) {
        case .failure(let reason): return reason
        case .success(let patterns):
            // routing-kit keeps one placeholder child per node, with one name: a second name at
            // the same place stops it with a precondition failure. The method is the first place.
            var placeholderNames: [[String?]: String] = [:]
            let methods = registrationMethods(set)
            for (index, pattern) in patterns.enumerated() {
                for method in methods(index) {
                    if let reason = checkPlaceholders(pattern, under: method, names: &placeholderNames) { return reason }
                }
            }
            return nil
        }
    }

    /// Records the placeholder names of `pattern` registered under `method` in `names` (keyed by
    /// the components before each one, a placeholder as `nil`), or says why routing-kit stops.
    private static func checkPlaceholders(_ pattern: PathPattern, under method: String,
                                          names: inout [[String?]: String]) -> Inexpressible? {
        var prefix: [String?] = [method]
        for segment in pattern.segments {
            switch segment {
            case .constrained(_, let constraint):
                return Inexpressible("constraint {\(constraint)}: routing-kit has no constrained parameters")
            case .placeholder(let name):
                if let other = names[prefix], other != name {
                    return Inexpressible("placeholders :\(other) and :\(name) at the same place: routing-kit allows one name there")
                }
                names[prefix] = name
                prefix.append(nil)
            case .literal(let text):
                prefix.append(text)
            case .wildcard:
                break
            }
        }
        return nil
    }

    init(set: RouteSet) throws(BuildFailure) {
        guard case .success(let patterns) = PeerSupport.pathPatterns(of: set) else {
            throw BuildFailure(description: "routing-kit cannot express \(set.name)")
        }
        self.patterns = patterns
        urls = set.requests.map(\.url)
        methods = set.looksUpMethods ? set.requests.map { $0.method ?? Self.method } : nil
        let methodsOf = Self.registrationMethods(set)
        let paths: [(index: Int, path: [PathComponent])] = patterns.enumerated().flatMap { index, pattern in
            let path = pattern.segments.map { segment -> PathComponent in
                switch segment {
                case .literal(let text): return .constant(text)
                case .placeholder(let name), .constrained(let name, _): return .parameter(name)
                case .wildcard: return .catchall
                }
            }
            return methodsOf(index).map { (index, [.constant($0)] + path) }
        }
        let router = TrieRouter(Int.self)
        (_, build) = BuildCost.measure {
            for (index, path) in paths { router.register(index, at: path) }
        }
        self.router = router
    }

    func makeWorker() -> Worker { Worker(peer: self) }

    struct Worker: LookupWorker {
        let peer: RoutingKitPeer

        /// What Vapor does per request: split the path on "/", then look it up after the method.
        @inline(__always)
        static func components(_ url: String) -> [String] {
            var components = [RoutingKitPeer.method]
            components.append(contentsOf: url.split(separator: "/").map(String.init))
            return components
        }

        /// Vapor's lookup of a request with a method: HEAD first under HEAD, then under GET; any
        /// other method under itself.
        @inline(__always)
        static func route(_ router: TrieRouter<Int>, url: String, method: String, parameters: inout Parameters) -> Int? {
            let path = url.split(separator: "/").map(String.init)
            if method == "HEAD", let output = router.route(path: [method] + path, parameters: &parameters) { return output }
            return router.route(path: [method == "HEAD" ? "GET" : method] + path, parameters: &parameters)
        }

        /// The lookup of request `index`, with its method when the set has them.
        @inline(__always)
        func route(_ index: Int, parameters: inout Parameters) -> Int? {
            guard let methods = peer.methods else {
                return peer.router.route(path: Self.components(peer.urls[index]), parameters: &parameters)
            }
            return Self.route(peer.router, url: peer.urls[index], method: methods[index], parameters: &parameters)
        }

        @inline(__always)
        mutating func lookup(_ index: Int) -> UInt64 {
            var parameters = peer.blankParameters
            let output = route(index, parameters: &parameters)
            return UInt64(truncatingIfNeeded: output ?? -1)
        }

        mutating func answer(_ index: Int) -> Answer {
            var parameters = peer.blankParameters
            guard let route = route(index, parameters: &parameters) else {
                return Answer(route: nil, parameters: [], failure: nil)
            }
            var values: [String] = []
            for segment in peer.patterns[route].segments {
                switch segment {
                case .literal: continue
                case .placeholder(let name), .constrained(let name, _): values.append(parameters.get(name) ?? "<missing>")
                case .wildcard: values.append(parameters.getCatchall().joined(separator: "/"))
                }
            }
            return Answer(route: route, parameters: PeerSupport.name(values: values, of: peer.patterns[route]), failure: nil)
        }
    }
}
