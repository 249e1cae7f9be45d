import FastRouterLint

extension RouteFile {
    /// The file read with its methods, or `nil` when no route line and no URL line has one:
    /// every route line a route of its own for its methods (any method without a method field or
    /// with `*`), every request looked up with a method.
    ///
    /// A line that the merged reading folds into an earlier line's route (`GET /a/{x:int}`, then
    /// `PUT /a/{y:int}`) is a route of its own here, with its own parameter names; lines that the
    /// merged reading calls duplicates stay duplicates (their method sets overlap).
    /// - Parameters:
    ///   - lines: the route lines, in file order.
    ///   - routeOfLine: the merged route of each line.
    ///   - requests: the merged set's requests.
    ///   - urlMethods: the method of each URL line when the URLs come from a file (URL line i
    ///     answered by route line i), or `nil` when the URLs were built, one per merged route.
    static func methodVariant(lines: [RouteLine], routeOfLine: [Int], requests: [Request],
                              urlMethods: [String?]?) -> MethodVariant? {
        guard lines.contains(where: { !$0.methods.isEmpty }) || urlMethods?.contains(where: { $0 != nil }) == true else {
            return nil
        }
        let routes = lines.map { line in
            RouteSpec(pattern: line.pattern, priority: line.priority, methods: line.methods.map(\.rawValue))
        }
        /// Line `line`'s request for `url`: the URL line's method, else its route's first, else
        /// GET (the route then accepts any method), and, for URLs from a file, the parameters named
        /// after its own pattern (built URLs have none, as in the merged set).
        func request(_ url: String, line: Int, urlMethod: String?) -> Request {
            let parameters = urlMethods == nil ? nil : plainPlaceholderValues(pattern: lines[line].pattern, url: url)
            return Request(url: url, route: line, parameters: parameters, pathParameterCount: parameters?.count ?? 0,
                           method: urlMethod ?? lines[line].methods.first?.rawValue ?? "GET")
        }
        var variant: [Request] = []
        if let urlMethods {
            for (line, merged) in requests.enumerated() {
                variant.append(request(merged.url, line: line, urlMethod: urlMethods[line]))
            }
        } else {
            // One built URL per merged route: each line of that route is looked up with it.
            for merged in requests {
                for line in routeOfLine.indices where routeOfLine[line] == merged.route {
                    variant.append(request(merged.url, line: line, urlMethod: nil))
                }
            }
        }
        return MethodVariant(routes: routes, requests: variant)
    }
}
