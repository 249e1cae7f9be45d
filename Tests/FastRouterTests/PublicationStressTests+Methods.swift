import FastRouter
import Testing

/// Publication of routes that differ only by HTTP method (docs/SEMANTICS.md §3.5, §3.7): requests
/// answered while a writer adds and removes routes of the same path must each come from one
/// version of the tables, HEAD fallbacks and 405s included.
extension PublicationStressTests {
    /// Paths `/r/<k>`, k < 6. Units the writer churns at each path (unit 3k + n):
    /// - n = 0: a GET route and a POST route, added in one batch under one id and removed together;
    /// - n = 1: a route for DELETE and HEAD (while it is there, HEAD is its own first, GET's next);
    /// - n = 2: a route for `EXT<k>`, an extension method the router first sees during the run.
    /// Even paths also keep a PURGE route throughout. Now and then the writer tries a route for
    /// GET and PATCH where the GET route is, which must fail as a duplicate and leave no trace.
    ///
    /// A reader asks `/r/<k>` with GET, HEAD, POST, DELETE, PUT, `EXT<k>`, PURGE and a method
    /// nobody registered, through `Router.match(_:method:)`, `Router.matches(_:method:)` and a
    /// `Matcher` with its declines, and without a method through `Router.matches(_:)`. Each answer
    /// must be the one a single version gives: a version with the units the ledger shows in place
    /// throughout the lookups, without those it shows absent, and either way for those changing.
    /// So a GET/POST pair is found together or not at all, and a 405's `Allow` value (or a HEAD
    /// served by the GET route) never mixes the routes of two versions.
    @Test func methodRoutesOfOnePathComeAndGo() throws {
        let paths = 6
        let router = Router<Int>()
        for k in stride(from: 0, to: paths, by: 2) {
            try router.add("/r/\(k)", methods: [HTTPMethod(rawValue: "PURGE")!], id: UInt64(500 + k), value: 5000 + k)
        }
        let ledger = ChurnLedger(count: 3 * paths)
        let log = ConcurrencyProblemLog()
        let deadline = ContinuousClock.now + Self.duration

        let writer: @Sendable () -> Void = {
            var rng = StressRandom(seed: 7)
            while ContinuousClock.now < deadline {
                let k = rng.below(paths)
                let state = ledger.snapshot()
                let (pair, single) = (3 * k, 3 * k + 1)
                if !state[pair].present && !state[single].present && rng.chance(0.25) {
                    ledger.change([pair, single], to: true) {
                        Self.attempt("add GET, POST and DELETE/HEAD at /r/\(k) in one batch", log) {
                            _ = try router.add(contentsOf: Self.pairRoutes(k) + [Self.singleRoute(k)])
                        }
                    }
                } else if state[pair].present && rng.chance(0.1) {
                    // Overlaps the GET route: refused, and nothing of it may show.
                    do throws(RouterError) {
                        try router.add("/r/\(k)", methods: [.get, .patch], id: 900, value: 9000)
                        log.record("GET,PATCH /r/\(k) was added beside the GET route")
                    } catch {
                        if error.code != .duplicateRoute { log.record("GET,PATCH /r/\(k): \(error)") }
                    }
                } else {
                    let unit = 3 * k + rng.below(3)
                    let routes = unit == pair ? Self.pairRoutes(k) : unit == single ? [Self.singleRoute(k)] : [Self.extRoute(k)]
                    if state[unit].present {
                        let id = routes[0].id!
                        ledger.change([unit], to: false) { Self.remove(id: id, expecting: routes.count, from: router, log) }
                    } else {
                        ledger.change([unit], to: true) {
                            Self.attempt("add unit \(unit)", log) { _ = try router.add(contentsOf: routes) }
                        }
                    }
                }
                log.count("writes")
            }
        }

        let reader: @Sendable (Int) -> Void = { worker in
            var rng = StressRandom(seed: UInt64(700 + worker))
            let matcher = Matcher(router: router)
            let names = ["GET", "HEAD", "POST", "DELETE", "PUT", "", "PURGE", "BREW"]
            while ContinuousClock.now < deadline {
                let k = rng.below(paths)
                let url = "/r/\(k)"
                let methods = names.map { HTTPMethod(rawValue: $0.isEmpty ? "EXT\(k)" : $0)! }
                do {
                    let before = ledger.snapshot()
                    var answers: [(what: String, answer: String, expected: (Versions) -> String)] = []
                    for method in methods {
                        answers.append(("\(method) \(url)", Self.render(try router.match(url, method: method)),
                                        { Self.expectedAnswer(method.rawValue, $0) }))
                    }
                    let method = rng.pick(methods)
                    answers.append(("matches \(method) \(url)",
                                    try router.matches(url, method: method).map(Self.render).joined(separator: " "),
                                    { Self.expectedChain(method.rawValue, $0) }))
                    answers.append(("Matcher \(method) \(url)", Self.render(try matcher.match(url, method: method), matcher),
                                    { Self.expectedChain(method.rawValue, $0, orAllow: true) }))
                    answers.append(("matches \(url)", try router.matches(url).map(Self.render).sorted().joined(separator: " "),
                                    { $0.routes.map { "#\($0.id):\($0.value)()" }.sorted().joined(separator: " ") }))
                    let after = ledger.snapshot()
                    let presence = (0..<3).map { ChurnLedger.presence(of: 3 * k + $0, from: before, to: after) }
                    let versions = Versions.possible(k: k, presence)
                    for (what, answer, expected) in answers {
                        let allowed = Set(versions.map(expected))
                        if allowed.contains(answer) {
                            Self.countKind(answer, log)
                            if what.hasPrefix("HEAD ") && answer == "#\(100 + k):\(1000 + k)()" { log.count("HEAD by GET") }
                        } else {
                            log.record("\(what): \(answer), expected one of \(allowed.sorted()) (units: \(presence.map { String(describing: $0) }.joined(separator: ", ")))")
                        }
                    }
                    log.count("reads")
                } catch {
                    log.record("reader \(worker): \(error)")
                }
            }
        }

        runOnOwnThreads([writer, { reader(1) }, { reader(2) }])
        Self.expectNoProblems(log, answersFromBothStates: false)
        // Each outcome was met, so the run checked what it means to.
        let counters = log.snapshot.counters
        for kind in ["matched", "HEAD by GET", "405", "404", "extension in Allow"] {
            #expect(counters[kind, default: 0] > 0, "no \(kind) answers: \(counters)")
        }
    }

    /// The routes of one version at `/r/<k>`: which units are registered.
    struct Versions {
        var k: Int
        var routes: [(id: Int, value: Int, methods: [String])]

        /// Every version consistent with the units' presence during a lookup.
        static func possible(k: Int, _ presence: [ChurnLedger.Presence]) -> [Versions] {
            let choices = presence.map { presence -> [Bool] in
                switch presence {
                case .present: return [true]
                case .absent: return [false]
                case .changing: return [true, false]
                }
            }
            var versions: [Versions] = []
            for pair in choices[0] {
                for single in choices[1] {
                    for ext in choices[2] {
                        var routes: [(id: Int, value: Int, methods: [String])] = []
                        if k % 2 == 0 { routes.append((500 + k, 5000 + k, ["PURGE"])) }
                        if pair { routes += [(100 + k, 1000 + k, ["GET"]), (100 + k, 2000 + k, ["POST"])] }
                        if single { routes.append((300 + k, 3000 + k, ["DELETE", "HEAD"])) }
                        if ext { routes.append((400 + k, 4000 + k, ["EXT\(k)"])) }
                        versions.append(Versions(k: k, routes: routes))
                    }
                }
            }
            return versions
        }
    }

    static func pairRoutes(_ k: Int) -> [Route<Int>] {
        [Route("/r/\(k)", methods: [.get], id: UInt64(100 + k), value: 1000 + k),
         Route("/r/\(k)", methods: [.post], id: UInt64(100 + k), value: 2000 + k)]
    }

    static func singleRoute(_ k: Int) -> Route<Int> {
        Route("/r/\(k)", methods: [.delete, .head], id: UInt64(300 + k), value: 3000 + k)
    }

    static func extRoute(_ k: Int) -> Route<Int> {
        Route("/r/\(k)", methods: [HTTPMethod(rawValue: "EXT\(k)")!], id: UInt64(400 + k), value: 4000 + k)
    }

    /// The routes of `version` serving `method`, in order (§3.7): those accepting it; for HEAD,
    /// those accepting GET too, after the one naming HEAD (every route here has one shape). At
    /// most one for another method, since the units' method sets are disjoint.
    static func serving(_ method: String, _ version: Versions) -> [(id: Int, value: Int, methods: [String])] {
        let accepting = version.routes.filter { $0.methods.contains(method) }
        guard method == "HEAD" else { return accepting }
        return accepting + version.routes.filter { $0.methods.contains("GET") }
    }

    /// What `Router.match(_:method:)` answers in `version`, as ``render(_:)-(RouteResult<Int>)`` writes it.
    static func expectedAnswer(_ method: String, _ version: Versions) -> String {
        if let route = serving(method, version).first { return "#\(route.id):\(route.value)()" }
        if version.routes.isEmpty { return "404" }
        // Allow order: RFC 9110's methods, HEAD beside GET, then PURGE (registered before any
        // EXT<k>, each of which is the only other extension method at its path).
        let names = Set(version.routes.flatMap(\.methods))
        let standard = ["GET", "HEAD", "POST", "DELETE"].filter { names.contains($0) || ($0 == "HEAD" && names.contains("GET")) }
        let others = ["PURGE", "EXT\(version.k)"].filter(names.contains)
        return "405 " + (standard + others).joined(separator: ", ")
    }

    /// The chain `Router.matches(_:method:)` gives in `version` (empty for 404 and 405); with
    /// `orAllow`, a `Matcher`'s answer: the chain, or the 404 or 405 it reports instead.
    static func expectedChain(_ method: String, _ version: Versions, orAllow: Bool = false) -> String {
        let chain = serving(method, version).map { "#\($0.id):\($0.value)()" }.joined(separator: " ")
        return chain.isEmpty && orAllow ? expectedAnswer(method, version) : chain
    }

    static func render(_ result: RouteResult<Int>) -> String {
        switch result {
        case .matched(let match): return render(match)
        case .notFound: return "404"
        case .methodNotAllowed(let allowed): return "405 " + allowed.headerValue
        }
    }

    /// A matcher after `match(_:method:)`: its chain with every decline, or the 404 or 405.
    static func render(_ outcome: MatchOutcome, _ matcher: Matcher<Int>) -> String {
        switch outcome {
        case .notFound: return "404"
        case .methodNotAllowed: return "405 " + (matcher.allowedMethods?.headerValue ?? "nil")
        case .matched:
            var chain = [render(matcher)]
            while matcher.next() { chain.append(render(matcher)) }
            return chain.joined(separator: " ")
        }
    }

    /// Counts the kinds of answers that show the run covered §3.7's outcomes.
    static func countKind(_ answer: String, _ log: ConcurrencyProblemLog) {
        if answer.hasPrefix("405 ") {
            log.count("405")
            if answer.contains("EXT") || answer.contains("PURGE") { log.count("extension in Allow") }
        } else if answer == "404" {
            log.count("404")
        } else if answer.hasPrefix("#") {
            log.count("matched")
        }
    }
}
