/// A path-only route list shipped in the executable (see `EmbeddedRouteSets.swift`, generated
/// by `scripts/embed-routesets.py`): merged paths with `:name` placeholders, request URLs, and
/// the method of every line of the list.
struct EmbeddedPathSet: Sendable {
    let name: String
    let summary: String
    /// Distinct paths, in the order of their first occurrence in the source list.
    let routes: [String]
    /// One URL per line of the source list; line i is answered by `routes[routeOfURL[i]]`.
    let urls: [String]
    let routeOfURL: [Int]
    /// The method of line i of the source list: of its route, and of its request `urls[i]`.
    let methods: [String]

    /// The set as the benchmark runs it; the expected parameters are read off the placeholders.
    func routeSet() -> RouteSet {
        let specs = routes.map { RouteSpec(pattern: $0) }
        let requests = zip(urls, routeOfURL).map { url, route in
            let parameters = Self.placeholderValues(pattern: routes[route], path: url)
            return Request(url: url, route: route, parameters: parameters,
                           pathParameterCount: parameters.count)
        }
        let hasPlaceholders = routes.contains { $0.contains(":") }
        return RouteSet(name: name, summary: summary, kind: hasPlaceholders ? .api : .staticFiles,
                        routes: specs, requests: requests,
                        origin: "julienschmidt/go-http-routing-benchmark (methods ignored, equal paths merged)",
                        methodVariant: methodVariant(requests))
    }

    /// Every line of the list as a route of its own method (203 routes on GitHub's 142 paths),
    /// line i's request answered by route i: the list as a server registers it.
    private func methodVariant(_ merged: [Request]) -> MethodVariant {
        var routes: [RouteSpec] = []
        var requests: [Request] = []
        for (line, (method, request)) in zip(methods, merged).enumerated() {
            routes.append(RouteSpec(pattern: self.routes[request.route], methods: [method]))
            var withMethod = request
            withMethod.route = line
            withMethod.method = method
            requests.append(withMethod)
        }
        return MethodVariant(routes: routes, requests: requests)
    }

    /// Pairs each `:name` segment of `pattern` with the segment of `path` at the same position.
    /// The embedded URLs hold no escapes, so the raw segment is the decoded value.
    static func placeholderValues(pattern: String, path: String) -> [Parameter] {
        let names = pattern.split(separator: "/", omittingEmptySubsequences: true)
        let values = path.split(separator: "/", omittingEmptySubsequences: true)
        var pairs: [Parameter] = []
        for (name, value) in zip(names, values) where name.first == ":" {
            pairs.append(Parameter(name: String(name.dropFirst()), value: String(value)))
        }
        return pairs
    }
}
