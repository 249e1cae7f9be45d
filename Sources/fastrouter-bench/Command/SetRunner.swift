import FastRouter
import FastRouterCABI
import Foundation

/// How much work each measurement gets.
struct RunSettings: Sendable {
    var seconds: Double
    var repetitions: Int
    var maxThreads: Int
    var writerAddsPerSecond: Int
    var updateSamples: Int
    var quick: Bool
    /// The routers to measure (`--routers`); the rest are listed as skipped.
    var routers: Set<RouterKind> = Set(RouterKind.allCases)
}

/// Measures every router on one set: build, correctness gate, then the figures; then, for a set
/// with methods, every router again on the set read with its methods (`SetRunner+Methods.swift`).
struct SetRunner {
    let settings: RunSettings
    let label: String

    /// The set's report and the problems that fail the run (FastRouter wrong or unbuildable).
    func run(_ set: RouteSet) -> (SetReport, [String]) {
        var report = SetReport(name: set.name, kind: set.kind, summary: set.summary, origin: set.origin,
                               routes: set.routes.count, requests: set.requests.count)
        // On sets taken in turns, every measured router keeps a timer (and so its tables) until
        // the set is done: the rows with methods are taken in turns with the C API row without.
        var timers: [RouterKind: TurnTimer] = [:]
        var routers: [RouterReport] = []
        measureRouters(set, into: &routers, report: &report, timers: &timers)
        report.routers = routers
        var failures = Self.failures(report.routers, of: set.name, requests: set.requests.count)
        if let methodSet = set.withMethods() {
            let methods = measureWithMethods(methodSet, without: report.router(.fastRouterC), timers: timers)
            failures += Self.failures(methods.routers, of: "\(set.name) with methods", requests: methodSet.requests.count)
            report.withMethods = methods
        }
        timers.removeAll()
        return (report, failures)
    }

    /// Every selected router on `set`, in table order, with its ratios to the C API row of the
    /// same list; the C API's writer and update figures go to `report` (sets without methods).
    func measureRouters(_ set: RouteSet, into routers: inout [RouterReport], report: inout SetReport,
                        timers: inout [RouterKind: TurnTimer]) {
        for kind in RouterKind.allCases where !settings.routers.contains(kind) {
            routers.append(RouterReport(router: kind, status: .skipped, note: "not selected (--routers)"))
        }
        if settings.routers.contains(.fastRouterC) { measureCAPI(set, into: &routers, report: &report, timers: &timers) }
        let swiftKinds = [RouterKind.fastRouterMatcher, .fastRouterSwift].filter { settings.routers.contains($0) }
        if !swiftKinds.isEmpty { measureSwiftAPIs(swiftKinds, set, into: &routers, timers: &timers) }
        if settings.routers.contains(.routingKit) {
            measurePeer(.routingKit, set, reason: RoutingKitPeer.inexpressible(set), into: &routers, timers: &timers) {
                try RoutingKitPeer(set: set)
            }
        }
        if settings.routers.contains(.r3) {
            measurePeer(.r3, set, reason: R3Peer.inexpressible(set), into: &routers, timers: &timers) { try R3Peer(set: set) }
        }

        // Ratios to the C API: the quotient of the two ns/lookup figures, and, where the set's
        // tables fit the caches, the median of ratios from runs taken in turns with it (see
        // `TurnTimer`), reported apart.
        let reference = routers.first { $0.router == .fastRouterC }?.nanosecondsPerLookup
        for index in routers.indices {
            if let reference, let ns = routers[index].nanosecondsPerLookup, routers[index].status == .measured {
                routers[index].ratioToCAPI = ns / reference
            }
        }
        if let referenceTimer = timers[.fastRouterC] {
            for index in routers.indices where routers[index].router != .fastRouterC {
                guard let timer = timers[routers[index].router] else { continue }
                progress(set, routers[index].router, "in turns with the C API")
                let ratios = TurnTimer.pairedRatios(timer, to: referenceTimer, rounds: settings.repetitions)
                routers[index].pairedRatios = ratios
                routers[index].pairedRatio = ratios.sorted()[ratios.count / 2]
            }
        }
        // Table order, whatever order the routers were measured in.
        routers.sort { RouterKind.allCases.firstIndex(of: $0.router)! < RouterKind.allCases.firstIndex(of: $1.router)! }
    }

    /// What fails the run among `routers`: a FastRouter interface that answered wrongly or could
    /// not be built. `name` names the rows in the message.
    static func failures(_ routers: [RouterReport], of name: String, requests: Int) -> [String] {
        var failures: [String] = []
        for router in routers where router.router.isFastRouter {
            switch router.status {
            case .wrongAnswer:
                failures.append("\(name): \(router.router.rawValue) answered \(router.wrongAnswerCount) of \(requests) URLs wrongly, first: \(router.wrongAnswers.first.map { $0.description } ?? "?")")
            case .buildFailed:
                failures.append("\(name): \(router.router.rawValue) could not be built: \(router.note ?? "?")")
            case .measured, .skipped:
                break
            }
        }
        return failures
    }

    /// FastRouter's C API, then the writer and single-update figures on the same router (on a
    /// set looked up without methods: the writer adds routes for any method).
    private func measureCAPI(_ set: RouteSet, into routers: inout [RouterReport], report: inout SetReport,
                             timers: inout [RouterKind: TurnTimer]) {
        progress(set, .fastRouterC, "building")
        do {
            let contender = try FastRouterCAPI(set: set)
            var router = evaluate(contender, kind: .fastRouterC, set: set, build: contender.build, timers: &timers)
            router.bytesPerRoute = Double(contender.build.heapBytes) / Double(max(set.routes.count, 1))
            if set.kind == .scale {
                router.memory = reportMemory(memoryBreakdown(ofCRouter: contender.router), set, .fastRouterC)
            }
            if router.status == .measured && !set.looksUpMethods {
                progress(set, .fastRouterC, "writer load")
                report.writer = Updates.writerLoad(contender, set: set, readerThreads: max(1, settings.maxThreads - 1),
                                                   seconds: settings.seconds, addsPerSecond: settings.writerAddsPerSecond)
                progress(set, .fastRouterC, "single add/remove latency")
                report.updates = Updates.latency(contender, set: set, samples: settings.updateSamples)
            }
            if set.kind == .scale && set.routes.count >= BuildOrder.minimumRoutes {
                progress(set, .fastRouterC, "every route removed one by one, in a router of its own")
                report.removal = try? Updates.removeAll(set)
                if let removal = report.removal {
                    progress(set, .fastRouterC, String(format: "removed in %.2f s; the emptied router holds %lld B, a new one %lld B (%+.3f%% of the %lld B built)",
                                                       removal.seconds, removal.emptiedBytes, removal.newEmptyBytes,
                                                       100 * removal.leftShare, removal.builtBytes))
                }
            }
            routers.append(router)
        } catch {
            routers.append(RouterReport(router: .fastRouterC, status: .buildFailed, note: error.description))
        }
    }

    /// The Swift router is built once (batch add) and read by both Swift interfaces: their
    /// method APIs (`match(_:method:)`) on a set looked up with methods.
    private func measureSwiftAPIs(_ kinds: [RouterKind], _ set: RouteSet, into routers: inout [RouterReport],
                                  timers: inout [RouterKind: TurnTimer]) {
        progress(set, .fastRouterSwift, "building")
        do {
            let (router, build) = try buildSwiftRouter(set: set)
            let bytesPerRoute = Double(build.heapBytes) / Double(max(set.routes.count, 1))
            let memory = set.kind == .scale ? reportMemory(router.memoryBreakdown(), set, .fastRouterSwift) : nil
            for kind in kinds {
                var figures: RouterReport
                switch (kind == .fastRouterMatcher, set.looksUpMethods) {
                case (true, false):
                    figures = evaluate(FastRouterMatcherAPI(router: router, build: build, set: set), kind: kind, set: set,
                                       build: build, timers: &timers)
                case (true, true):
                    figures = evaluate(try FastRouterMatcherMethodAPI(router: router, build: build, set: set), kind: kind,
                                       set: set, build: build, timers: &timers)
                case (false, false):
                    figures = evaluate(FastRouterSwiftAPI(router: router, build: build, set: set), kind: kind, set: set,
                                       build: build, timers: &timers)
                case (false, true):
                    figures = evaluate(try FastRouterSwiftMethodAPI(router: router, build: build, set: set), kind: kind,
                                       set: set, build: build, timers: &timers)
                }
                figures.bytesPerRoute = bytesPerRoute
                figures.memory = memory
                routers.append(figures)
            }
        } catch {
            for kind in kinds {
                routers.append(RouterReport(router: kind, status: .buildFailed, note: error.description))
            }
        }
    }

    /// A peer, on the sets it can express.
    private func measurePeer<C: Contender & PeerBuild>(_ kind: RouterKind, _ set: RouteSet, reason: Inexpressible?,
                                                       into routers: inout [RouterReport],
                                                       timers: inout [RouterKind: TurnTimer], make: () throws -> C) {
        if let reason {
            routers.append(RouterReport(router: kind, status: .skipped, note: reason.description))
            return
        }
        progress(set, kind, "building")
        do {
            let peer = try make()
            var figures = evaluate(peer, kind: kind, set: set, build: peer.build, timers: &timers)
            figures.bytesPerRoute = Double(peer.build.heapBytes) / Double(max(set.routes.count, 1))
            routers.append(figures)
        } catch {
            routers.append(RouterReport(router: kind, status: .buildFailed, note: "\(error)"))
        }
    }

    /// Gate, then single-thread figures, then thread scaling, for one router; a router that
    /// answers right also leaves a timer in `timers` for the ratios taken in turns.
    private func evaluate<C: Contender>(_ contender: C, kind: RouterKind, set: RouteSet, build: BuildCost,
                                        timers: inout [RouterKind: TurnTimer]) -> RouterReport {
        progress(set, kind, "correctness gate on \(set.requests.count) URLs")
        var worker = contender.makeWorker()
        let wrong = CorrectnessGate.check(&worker, set: set, kind: kind)
        guard wrong.isEmpty else {
            let verdict = kind.isFastRouter ? "WRONG" : "wrong answers, not measured on this set"
            progress(set, kind, "\(verdict): \(wrong.count) URLs, first \(wrong[0].url)")
            return RouterReport(router: kind, status: .wrongAnswer,
                                note: "\(wrong.count) wrong answers, first for \(wrong[0].url)", build: build,
                                wrongAnswers: wrong, wrongAnswerCount: wrong.count)
        }
        progress(set, kind, "timing")
        let lookups = LookupTiming.measure(&worker, count: set.requests.count, seconds: settings.seconds,
                                           repetitions: settings.repetitions)
        progress(set, kind, "\(Format.ns(lookups.nanosecondsPerLookup)) per lookup; threads 1…\(settings.maxThreads)")
        let threads = Throughput.scaling(contender, maximum: settings.maxThreads, count: set.requests.count,
                                         seconds: settings.seconds)
        if set.routes.count <= Self.routesTakenInTurns {
            timers[kind] = TurnTimer(contender, worker: worker, count: set.requests.count, seconds: settings.seconds / 2,
                                     runs: settings.repetitions)
        }
        return RouterReport(router: kind, status: .measured, build: build, lookups: lookups, threads: threads)
    }

    /// Largest set whose ratios are taken in turns. Past it, one router's run pushes the other's
    /// tables out of the caches, and the turns measure that instead: on scale-1M, `Router.match`
    /// measured right after the C API came out 2.3–3.2× it, right after itself 1.6–2.0×, against
    /// 1.3× from the two ns/lookup figures.
    static let routesTakenInTurns = 10_000

    /// The parts of a FastRouter table's memory, said on the way (a line per part, per route).
    private func reportMemory(_ breakdown: MemoryBreakdown, _ set: RouteSet, _ kind: RouterKind) -> [MemoryPart] {
        let parts = MemoryPart.parts(breakdown, routes: set.routes.count)
        for part in parts where part.bytes > 0 {
            progress(set, kind, String(format: "memory: %-32@ %8.1f B/route (%d items)", part.name, part.bytesPerRoute,
                                       part.items))
        }
        progress(set, kind, String(format: "memory: %-32@ %8.1f B/route", "total of the parts",
                                   Double(breakdown.totalBytes) / Double(max(set.routes.count, 1))))
        return parts
    }

    func progress(_ set: RouteSet, _ kind: RouterKind, _ message: String) {
        Progress.say("\(label) \(set.name)\(set.looksUpMethods ? " with methods" : ""): \(kind.rawValue): \(message)")
    }
}
