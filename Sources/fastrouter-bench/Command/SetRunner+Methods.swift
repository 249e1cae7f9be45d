extension SetRunner {
    /// The rows with methods: every selected router on `methodSet` (the set read with its
    /// methods), their ratios to the C API row with methods, and the C API's lookup with a method
    /// against `without`, the C API row of the same URLs looked up without one (docs/SEMANTICS.md
    /// §6: at most 1.1×), in turns with that row's timer in `timers` where the set has one.
    func measureWithMethods(_ methodSet: RouteSet, without: RouterReport?,
                            timers: [RouterKind: TurnTimer]) -> MethodRowsReport {
        // The writer and update figures stay the set's own: a scratch report takes none here.
        var scratch = SetReport(name: methodSet.name, kind: methodSet.kind, summary: methodSet.summary,
                                origin: methodSet.origin, routes: methodSet.routes.count,
                                requests: methodSet.requests.count)
        var methodTimers: [RouterKind: TurnTimer] = [:]
        var routers: [RouterReport] = []
        measureRouters(methodSet, into: &routers, report: &scratch, timers: &methodTimers)
        var report = MethodRowsReport(routes: methodSet.routes.count,
                                      paths: Set(methodSet.routes.map(\.pattern)).count,
                                      requests: methodSet.requests.count, routers: routers)
        let with = routers.first { $0.router == .fastRouterC && $0.status == .measured }
        if let with, let withNs = with.nanosecondsPerLookup, let without, without.status == .measured,
           let withoutNs = without.nanosecondsPerLookup {
            var cost = MethodCost(ratio: withNs / withoutNs)
            if let withTimer = methodTimers[.fastRouterC], let withoutTimer = timers[.fastRouterC] {
                progress(methodSet, .fastRouterC, "in turns with the C API without methods")
                cost.pairedRatios = TurnTimer.pairedRatios(withTimer, to: withoutTimer, rounds: settings.repetitions)
                cost.pairedRatio = cost.pairedRatios.sorted()[cost.pairedRatios.count / 2]
            }
            report.methodCost = cost
        }
        return report
    }
}
