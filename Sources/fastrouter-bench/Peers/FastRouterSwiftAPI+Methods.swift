import FastRouter

/// Method names as the Swift API takes them, or a failure naming the first that is not an HTTP
/// token (the route lists only hold valid ones; a wrong one must stop the set, not become GET).
func httpMethods(_ names: [String]) throws(BuildFailure) -> [HTTPMethod] {
    var methods: [HTTPMethod] = []
    for name in names {
        guard let method = HTTPMethod(rawValue: name) else {
            throw BuildFailure(description: "'\(name)' is not an HTTP method token")
        }
        methods.append(method)
    }
    return methods
}

/// Each request's method, for a set looked up with methods (a request without one is looked
/// up as GET, which a route for any method accepts).
private func requestMethods(_ set: RouteSet) throws(BuildFailure) -> [HTTPMethod] {
    try httpMethods(set.requests.map { $0.method ?? "GET" })
}

/// `Router.match(_:method:)` returning a `RouteResult`: the value API on a set looked up with
/// methods. Its own type, so the rows without methods keep their loop as it was.
final class FastRouterSwiftMethodAPI: Contender, @unchecked Sendable {
    // Safety: Router is thread-safe for matching; `urls` and `methods` are immutable after init.
    let router: Router<Int>
    let urls: [String]
    let methods: [HTTPMethod]
    let build: BuildCost

    init(router: Router<Int>, build: BuildCost, set: RouteSet) throws(BuildFailure) {
        self.router = router
        self.build = build
        urls = set.requests.map(\.url)
        methods = try requestMethods(set)
    }

    func makeWorker() -> Worker { Worker(router: router, urls: privateCopies(of: urls), methods: methods) }

    struct Worker: LookupWorker {
        let router: Router<Int>
        let urls: [String]
        let methods: [HTTPMethod]

        @inline(__always)
        mutating func lookup(_ index: Int) -> UInt64 {
            // As the row without methods: the parameter count is read so the value is produced.
            guard case .matched(let match)? = try? router.match(urls[index], method: methods[index]) else {
                return UInt64.max
            }
            return match.routeID &+ UInt64(match.parameters.count)
        }

        mutating func answer(_ index: Int) -> Answer {
            do throws(RouterError) {
                switch try router.match(urls[index], method: methods[index]) {
                case .notFound:
                    return Answer(route: nil, parameters: [], failure: nil)
                case .methodNotAllowed(let allowed):
                    return Answer(route: nil, parameters: [], failure: "405, Allow: \(allowed.headerValue)")
                case .matched(let match):
                    return Answer(match)
                }
            } catch {
                return Answer(route: nil, parameters: [], failure: "\(error)")
            }
        }
    }
}

/// `Matcher.match(_:method:)`: the borrowing API on a set looked up with methods, one `Matcher`
/// per thread, nothing allocated per lookup once warm.
final class FastRouterMatcherMethodAPI: Contender, @unchecked Sendable {
    // Safety: Router is thread-safe for matching; each thread gets its own Matcher.
    let router: Router<Int>
    let urls: [String]
    let methods: [HTTPMethod]
    let build: BuildCost

    init(router: Router<Int>, build: BuildCost, set: RouteSet) throws(BuildFailure) {
        self.router = router
        self.build = build
        urls = set.requests.map(\.url)
        methods = try requestMethods(set)
    }

    func makeWorker() -> Worker { Worker(matcher: Matcher(router: router), urls: privateCopies(of: urls), methods: methods) }

    struct Worker: LookupWorker {
        let matcher: Matcher<Int>
        let urls: [String]
        let methods: [HTTPMethod]

        @inline(__always)
        mutating func lookup(_ index: Int) -> UInt64 {
            _ = try? matcher.match(urls[index], method: methods[index])
            return matcher.routeID
        }

        mutating func answer(_ index: Int) -> Answer {
            do throws(RouterError) {
                switch try matcher.match(urls[index], method: methods[index]) {
                case .notFound:
                    return Answer(route: nil, parameters: [], failure: nil)
                case .methodNotAllowed:
                    let allow = matcher.allowedMethods?.headerValue ?? "?"
                    return Answer(route: nil, parameters: [], failure: "405, Allow: \(allow)")
                case .matched:
                    return FastRouterMatcherAPI.Worker.current(matcher)
                }
            } catch {
                return Answer(route: nil, parameters: [], failure: "\(error)")
            }
        }
    }
}
