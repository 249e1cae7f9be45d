/// Builds the constrained twin of a placeholder set, to price constraint checks.
///
/// Every `:name` becomes `{name:int}` when each URL answered by that route has a decimal value
/// there (a built-in constraint), else `{name:[^/]+}` (a PCRE2 regex that accepts exactly what
/// the plain placeholder accepts). The URLs and expected answers stay the same, so the two sets
/// differ only in the constraint work.
enum ConstrainedVariant {
    static func make(from plain: RouteSet) -> RouteSet {
        var numeric: [Int: [String: Bool]] = [:]
        for request in plain.requests {
            for parameter in request.parameters ?? [] {
                let isDecimal = !parameter.value.isEmpty && parameter.value.utf8.allSatisfy { $0 >= 48 && $0 <= 57 }
                    && parameter.value.utf8.count <= 18
                numeric[request.route, default: [:]][parameter.name] =
                    (numeric[request.route]?[parameter.name] ?? true) && isDecimal
            }
        }
        let routes = plain.routes.enumerated().map { index, spec in
            let segments = spec.pattern.split(separator: "/", omittingEmptySubsequences: false).map { segment in
                guard segment.first == ":" else { return String(segment) }
                let name = String(segment.dropFirst())
                return numeric[index]?[name] == true ? "{\(name):int}" : "{\(name):[^/]+}"
            }
            return RouteSpec(pattern: segments.joined(separator: "/"), priority: spec.priority)
        }
        return RouteSet(name: "\(plain.name)-constrained",
                        summary: "\(plain.summary), placeholders as {x:int} or {x:[^/]+}",
                        kind: .constrained, routes: routes, requests: plain.requests,
                        plainCounterpart: plain.name, origin: "\(plain.name) with constrained placeholders")
    }
}
