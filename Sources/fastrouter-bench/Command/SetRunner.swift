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

/// Measures every router on one set: build, correctness gate, then the figures.
struct SetRunner {
    let settings: RunSettings
    let label: String

    /// The set's report and the problems that fail the run (FastRouter wrong or unbuildable).
    func run(_ set: RouteSet) -> (SetReport, [String]) {
        var report = SetReport(name: set.name, kind: set.kind, summary: set.summary, origin: set.origin,
                               routes: set.routes.count, requests: set.requests.count)
        var failures: [String] = []

        for kind in RouterKind.allCases where !settings.routers.contains(kind) {
            report.routers.append(RouterReport(router: kind, status: .skipped, note: "not selected (--routers)"))
        }
        if settings.routers.contains(.fastRouterC) { measureCAPI(set, into: &report) }
        let swiftKinds = [RouterKind.fastRouterMatcher, .fastRouterSwift].filter { settings.routers.contains($0) }
        if !swiftKinds.isEmpty { measureSwiftAPIs(swiftKinds, set, into: &report) }
        if settings.routers.contains(.routingKit) {
            measurePeer(.routingKit, set, reason: RoutingKitPeer.inexpressible(set), into: &report) { try RoutingKitPeer(set: set) }
        }
        if settings.routers.contains(.r3) {
            measurePeer(.r3, set, reason: R3Peer.inexpressible(set), into: &report) { try R3Peer(set: set) }
        }

        let reference = report.router(.fastRouterC)?.nanosecondsPerLookup
        for index in report.routers.indices {
            if let reference, let ns = report.routers[index].nanosecondsPerLookup, report.routers[index].status == .measured {
                report.routers[index].ratioToCAPI = ns / reference
            }
            let router = report.routers[index]
            guard router.router.isFastRouter else { continue }
            switch router.status {
            case .wrongAnswer:
                failures.append("\(set.name): \(router.router.rawValue) answered \(router.wrongAnswerCount) of \(set.requests.count) URLs wrongly, first: \(router.wrongAnswers.first.map { $0.description } ?? "?")")
            case .buildFailed:
                failures.append("\(set.name): \(router.router.rawValue) could not be built: \(router.note ?? "?")")
            case .measured, .skipped:
                break
            }
        }
        // Table order, whatever order the routers were measured in.
        report.routers.sort { RouterKind.allCases.firstIndex(of: $0.router)! < RouterKind.allCases.firstIndex(of: $1.router)! }
        return (report, failures)
    }

    /// FastRouter's C API, then the writer and single-update figures on the same router.
    private func measureCAPI(_ set: RouteSet, into report: inout SetReport) {
        progress(set, .fastRouterC, "building")
        do {
            let contender = try FastRouterCAPI(set: set)
            var router = evaluate(contender, kind: .fastRouterC, set: set, build: contender.build)
            router.bytesPerRoute = Double(contender.build.heapBytes) / Double(max(set.routes.count, 1))
            if router.status == .measured {
                progress(set, .fastRouterC, "writer load")
                report.writer = Updates.writerLoad(contender, set: set, readerThreads: max(1, settings.maxThreads - 1),
                                                   seconds: settings.seconds, addsPerSecond: settings.writerAddsPerSecond)
                progress(set, .fastRouterC, "single add/remove latency")
                report.updates = Updates.latency(contender, set: set, samples: settings.updateSamples)
            }
            report.routers.append(router)
        } catch {
            report.routers.append(RouterReport(router: .fastRouterC, status: .buildFailed, note: error.description))
        }
    }

    /// The Swift router is built once (batch add) and read by both Swift interfaces.
    private func measureSwiftAPIs(_ kinds: [RouterKind], _ set: RouteSet, into report: inout SetReport) {
        progress(set, .fastRouterSwift, "building")
        do {
            let (router, build) = try buildSwiftRouter(set: set)
            let bytesPerRoute = Double(build.heapBytes) / Double(max(set.routes.count, 1))
            for kind in kinds {
                var figures = kind == .fastRouterMatcher
                    ? evaluate(FastRouterMatcherAPI(router: router, build: build, set: set), kind: kind, set: set, build: build)
                    : evaluate(FastRouterSwiftAPI(router: router, build: build, set: set), kind: kind, set: set, build: build)
                figures.bytesPerRoute = bytesPerRoute
                report.routers.append(figures)
            }
        } catch {
            for kind in kinds {
                report.routers.append(RouterReport(router: kind, status: .buildFailed, note: error.description))
            }
        }
    }

    /// A peer, on the sets it can express.
    private func measurePeer<C: Contender & PeerBuild>(_ kind: RouterKind, _ set: RouteSet, reason: Inexpressible?,
                                                       into report: inout SetReport, make: () throws -> C) {
        if let reason {
            report.routers.append(RouterReport(router: kind, status: .skipped, note: reason.description))
            return
        }
        progress(set, kind, "building")
        do {
            let peer = try make()
            var figures = evaluate(peer, kind: kind, set: set, build: peer.build)
            figures.bytesPerRoute = Double(peer.build.heapBytes) / Double(max(set.routes.count, 1))
            report.routers.append(figures)
        } catch {
            report.routers.append(RouterReport(router: kind, status: .buildFailed, note: "\(error)"))
        }
    }

    /// Gate, then single-thread figures, then thread scaling, for one router.
    private func evaluate<C: Contender>(_ contender: C, kind: RouterKind, set: RouteSet, build: BuildCost) -> RouterReport {
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
        return RouterReport(router: kind, status: .measured, build: build, lookups: lookups, threads: threads)
    }

    private func progress(_ set: RouteSet, _ kind: RouterKind, _ message: String) {
        Progress.say("\(label) \(set.name): \(kind.rawValue): \(message)")
    }
}
