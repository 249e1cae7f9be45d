import FastRouter

/// Builds the `Router<Int>` both Swift interfaces read (once per set): the batch
/// `add(contentsOf:)`, with each route's index as its id and value, and its methods.
func buildSwiftRouter(set: RouteSet) throws(BuildFailure) -> (Router<Int>, BuildCost) {
    var routes: [Route<Int>] = []
    for (index, spec) in set.routes.enumerated() {
        let methods = try httpMethods(spec.methods)
        routes.append(Route(spec.pattern, methods: methods, priority: spec.priority, id: UInt64(index), value: index))
    }
    let router = Router<Int>()
    var failure: RouterError?
    let ((), cost) = BuildCost.measure {
        do throws(RouterError) {
            try router.add(contentsOf: routes)
        } catch {
            failure = error
        }
    }
    if let failure {
        throw BuildFailure(description: "Router.add(contentsOf:): \(failure)")
    }
    return (router, cost)
}

/// FastRouter's value API: `Router.match` returning a `Match` with its `Parameters`.
final class FastRouterSwiftAPI: Contender, @unchecked Sendable {
    // Safety: Router is thread-safe for matching; `urls` is immutable after init.
    let router: Router<Int>
    let urls: [String]
    let build: BuildCost

    init(router: Router<Int>, build: BuildCost, set: RouteSet) {
        self.router = router
        self.build = build
        urls = set.requests.map(\.url)
    }

    func makeWorker() -> Worker { Worker(router: router, urls: privateCopies(of: urls)) }

    struct Worker: LookupWorker {
        let router: Router<Int>
        let urls: [String]

        @inline(__always)
        mutating func lookup(_ index: Int) -> UInt64 {
            // The parameter count is read so the value a caller would use is really produced.
            guard let match = try? router.match(urls[index]) else { return UInt64.max }
            return match.routeID &+ UInt64(match.parameters.count)
        }

        mutating func answer(_ index: Int) -> Answer {
            do throws(RouterError) {
                guard let match = try router.match(urls[index]) else { return Answer(route: nil, parameters: [], failure: nil) }
                return Answer(match)
            } catch {
                return Answer(route: nil, parameters: [], failure: "\(error)")
            }
        }
    }
}

/// FastRouter's reusable `Matcher`: one per thread, no heap allocation per lookup once warm.
final class FastRouterMatcherAPI: Contender, @unchecked Sendable {
    // Safety: Router is thread-safe for matching; each thread gets its own Matcher.
    let router: Router<Int>
    let urls: [String]
    let build: BuildCost

    init(router: Router<Int>, build: BuildCost, set: RouteSet) {
        self.router = router
        self.build = build
        urls = set.requests.map(\.url)
    }

    func makeWorker() -> Worker { Worker(matcher: Matcher(router: router), urls: privateCopies(of: urls)) }

    struct Worker: LookupWorker {
        let matcher: Matcher<Int>
        let urls: [String]

        @inline(__always)
        mutating func lookup(_ index: Int) -> UInt64 {
            _ = try? matcher.match(urls[index])
            return matcher.routeID
        }

        mutating func answer(_ index: Int) -> Answer {
            do throws(RouterError) {
                guard try matcher.match(urls[index]) else { return Answer(route: nil, parameters: [], failure: nil) }
                return Self.current(matcher)
            } catch {
                return Answer(route: nil, parameters: [], failure: "\(error)")
            }
        }

        /// The route and every parameter `matcher` holds after a match.
        static func current(_ matcher: Matcher<Int>) -> Answer {
            var parameters: [Parameter] = []
            for position in 0..<matcher.parameterCount {
                guard let pair = matcher.parameter(at: position) else {
                    return Answer(route: nil, parameters: parameters, failure: "parameter(at: \(position)) is nil")
                }
                parameters.append(Parameter(name: String(decoding: pair.name, as: UTF8.self),
                                            value: String(decoding: pair.value, as: UTF8.self)))
            }
            let id = matcher.routeID
            guard matcher.value == Int(id) else {
                return Answer(route: Int(id), parameters: parameters,
                              failure: "matcher.value \(String(describing: matcher.value)) differs from routeID \(id)")
            }
            return Answer(route: Int(id), parameters: parameters, failure: nil)
        }
    }
}

/// Strings with storage of their own, for one worker thread: a server thread's URLs are its own,
/// and two threads retaining the same string storage would measure a shared reference count
/// instead of the router.
func privateCopies(of urls: [String]) -> [String] {
    urls.map { String(decoding: Array($0.utf8), as: UTF8.self) }
}

extension Answer {
    /// What a `Match` of the Swift API answers: its route and every pair, or a failure when its
    /// value (the route's index) and its route id disagree.
    init(_ match: Match<Int>) {
        let parameters = match.parameters.map { Parameter(name: $0.name, value: $0.value) }
        guard match.value == Int(match.routeID) else {
            self.init(route: Int(match.routeID), parameters: parameters,
                      failure: "match.value \(match.value) differs from match.routeID \(match.routeID)")
            return
        }
        self.init(route: match.value, parameters: parameters, failure: nil)
    }
}
