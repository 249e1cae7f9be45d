/// A path-only route list shipped in the executable (see `EmbeddedRouteSets.swift`, generated
/// by `scripts/embed-routesets.py`): merged paths with `:name` placeholders and request URLs.
struct EmbeddedPathSet: Sendable {
    let name: String
    let summary: String
    /// Distinct paths, in the order of their first occurrence in the source list.
    let routes: [String]
    /// One URL per line of the source list; line i is answered by `routes[routeOfURL[i]]`.
    let urls: [String]
    let routeOfURL: [Int]

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
                        origin: "julienschmidt/go-http-routing-benchmark (methods ignored, equal paths merged)")
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
