import RoutingKit

/// vapor/routing-kit's `TrieRouter`, used the way Vapor uses it: the method as the first path
/// component, the URL path split into `[String]` for every lookup (inside the timing), and a
/// fresh `Parameters` per lookup that captures the values.
final class RoutingKitPeer: Contender, @unchecked Sendable {
    // Safety: after registration the trie is only read; `route(path:parameters:)` mutates nothing.
    let router: TrieRouter<Int>
    let urls: [String]
    let patterns: [PathPattern]
    /// Copied for each lookup: `Parameters()` builds a Logger through the global LoggingSystem
    /// lock every time, which would measure logging rather than routing.
    let blankParameters = Parameters()
    let build: BuildCost

    static let method = "GET"

    /// The reason the set is out of routing-kit's reach, or `nil` when it can take it.
    static func inexpressible(_ set: RouteSet) -> Inexpressible? {
        switch PeerSupport.pathPatterns(of: set) {
        case .failure(let reason): return reason
        case .success(let patterns):
            // routing-kit keeps one placeholder child per node, with one name: a second name at
            // the same place stops it with a precondition failure.
            var placeholderNames: [[String?]: String] = [:]
            for pattern in patterns {
                var prefix: [String?] = []
                for segment in pattern.segments {
                    switch segment {
                    case .constrained(_, let constraint):
                        return Inexpressible("constraint {\(constraint)}: routing-kit has no constrained parameters")
                    case .placeholder(let name):
                        if let other = placeholderNames[prefix], other != name {
                            return Inexpressible("placeholders :\(other) and :\(name) at the same place: routing-kit allows one name there")
                        }
                        placeholderNames[prefix] = name
                        prefix.append(nil)
                    case .literal(let text):
                        prefix.append(text)
                    case .wildcard:
                        break
                    }
                }
            }
            return nil
        }
    }

    init(set: RouteSet) throws(BuildFailure) {
        guard case .success(let patterns) = PeerSupport.pathPatterns(of: set) else {
            throw BuildFailure(description: "routing-kit cannot express \(set.name)")
        }
        self.patterns = patterns
        urls = set.requests.map(\.url)
        let paths: [[PathComponent]] = patterns.map { pattern in
            [.constant(Self.method)] + pattern.segments.map { segment -> PathComponent in
                switch segment {
                case .literal(let text): return .constant(text)
                case .placeholder(let name), .constrained(let name, _): return .parameter(name)
                case .wildcard: return .catchall
                }
            }
        }
        let router = TrieRouter(Int.self)
        (_, build) = BuildCost.measure {
            for (index, path) in paths.enumerated() { router.register(index, at: path) }
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

        @inline(__always)
        mutating func lookup(_ index: Int) -> UInt64 {
            var parameters = peer.blankParameters
            let output = peer.router.route(path: Self.components(peer.urls[index]), parameters: &parameters)
            return UInt64(truncatingIfNeeded: output ?? -1)
        }

        mutating func answer(_ index: Int) -> Answer {
            var parameters = peer.blankParameters
            guard let route = peer.router.route(path: Self.components(peer.urls[index]), parameters: &parameters) else {
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
