/// The text report printed at the end of a run.
enum TableReport {
    static func render(_ report: RunReport) -> String {
        var out: [String] = []
        out.append("fastrouter-bench — \(report.date)")
        out.append("machine: \(report.machine.summary)")
        out.append("load: \(report.machine.loadSummary)")
        out.append("command: \(report.command)")
        out.append("settings: \(Format.number(report.settings.secondsPerMeasurement)) s per measurement, median of \(report.settings.repetitions) repetitions, 1…\(report.settings.maxThreads) threads\(report.settings.quick ? ", quick mode (figures are not meaningful)" : "")")
        out.append("allocations: \(report.allocationCounter)")
        out.append(contentsOf: legend(report))
        out.append("")
        let maxThreads = report.settings.maxThreads
        for set in report.sets {
            out.append("\(set.name) — \(set.summary): \(set.routes) routes, \(set.requests) URLs")
            out.append(routerTable(set.routers, maxThreads: maxThreads))
            if let writer = set.writer {
                out.append("  C API readers (\(writer.readerThreads) thread\(writer.readerThreads == 1 ? "" : "s")) with a writer adding and removing \(writer.targetAddsPerSecond) routes/s: \(Format.mega(writer.readersAlone)) → \(Format.mega(writer.readersWithWriter)) M lookups/s (\(Format.percent(writer.retained)) kept, the median of \(writer.pairRatios.map(Format.percent).joined(separator: " ")); writer reached \(String(format: "%.0f", writer.achievedAddsPerSecond)) adds/s\(writer.writerErrors > 0 ? ", \(writer.writerErrors) errors" : ""))")
            }
            if let order = set.buildOrder {
                out.append("  Matcher on the table built by single adds vs as a batch, each built and read in a process of its own: \(Format.ns(order.single.nanosecondsPerLookup)) vs \(Format.ns(order.batch.nanosecondsPerLookup)), \(Format.ratio(order.ratio)) (the median of \(order.pairRatios.map(Format.ratio).joined(separator: " ")) over \(order.pairRatios.count) pairs; builds \(Format.seconds(order.single.buildSeconds)) and \(Format.seconds(order.batch.buildSeconds)))")
                if let isolated = order.cSingle {
                    out.append("  C API on the table built by single C adds, in a process of its own: built in \(Format.seconds(isolated.buildSeconds))\(isolated.heapBytes.map { ", \(Format.bytes(Double($0) / Double(max(set.routes, 1)))) per route" } ?? ""), \(Format.ns(isolated.nanosecondsPerLookup)) per lookup; the batch table in its own: \(Format.seconds(order.batch.buildSeconds))\(order.batch.heapBytes.map { ", \(Format.bytes(Double($0) / Double(max(set.routes, 1)))) per route" } ?? "")")
                }
            } else if let note = set.buildOrderNote {
                out.append("  build order: not measured — \(note)")
            }
            if let updates = set.updates {
                out.append("  C API single update on \(updates.routes) routes: add p50 \(Format.micro(updates.addP50Microseconds)), p99 \(Format.micro(updates.addP99Microseconds)), max \(Format.micro(updates.addMaxMicroseconds)); remove p50 \(Format.micro(updates.removeP50Microseconds)), p99 \(Format.micro(updates.removeP99Microseconds)), max \(Format.micro(updates.removeMaxMicroseconds))")
            }
            if let removal = set.removal {
                out.append("  C API, every route removed one by one: \(Format.seconds(removal.seconds)); the emptied router holds \(removal.emptiedBytes) B, a new one \(removal.newEmptyBytes) B (\(String(format: "%+.3f", 100 * removal.leftShare))% of the \(removal.builtBytes) B built)\(removal.failures > 0 ? ", \(removal.failures) removals failed" : "")")
            }
            out.append(contentsOf: wrongAnswerLines(set.routers, requests: set.requests))
            if let methods = set.withMethods { out.append(contentsOf: methodLines(methods, maxThreads: maxThreads)) }
            out.append("")
        }
        if !report.targets.isEmpty {
            out.append("targets (docs/SEMANTICS.md §6; reported, not enforced)")
            var table = TextTable(header: ["figure", "target", "measured", "outcome"], leftColumns: 4)
            for check in report.targets {
                table.rows.append([check.figure, check.target, check.measured, check.outcome.rawValue])
            }
            out.append(table.render())
            out.append("  \(Targets.instructionNote)")
            out.append("")
        }
        if !report.failures.isEmpty {
            out.append("FAILED: \(report.failures.count) problem\(report.failures.count == 1 ? "" : "s"):")
            for failure in report.failures { out.append("  \(failure)") }
        }
        return out.joined(separator: "\n")
    }

    /// One set's rows: a line per router, a note in place of the figures of one not measured.
    static func routerTable(_ routers: [RouterReport], maxThreads: Int) -> String {
        var table = TextTable(header: ["router", "ns/lookup", "vs C API", "in turns", "p50 ns", "p99 ns", "allocs",
                                       "build ms", "B/route"]
                              + (1...maxThreads).map { "M/s \($0)t" })
        for router in routers {
            guard router.status == .measured, let lookups = router.lookups else {
                let label = router.status == .skipped ? "skipped" : router.status.rawValue
                table.rows.append(["\(router.router.rawValue): \(label)" + (router.note.map { " — \($0)" } ?? "")])
                continue
            }
            var row = [router.router.rawValue, Format.number(lookups.nanosecondsPerLookup),
                       router.ratioToCAPI.map(Format.ratio) ?? "-",
                       router.pairedRatio.map(Format.ratio) ?? "-",
                       String(format: "%.0f", lookups.p50), String(format: "%.0f", lookups.p99),
                       Format.allocations(lookups.allocationsPerLookup),
                       router.build.map { Format.milliseconds($0.seconds) } ?? "-",
                       router.bytesPerRoute.map { String(format: "%.0f", $0) } ?? "-"]
            for threads in 1...maxThreads {
                row.append(router.threads.first { $0.threads == threads }.map { Format.mega($0.lookupsPerSecond) } ?? "-")
            }
            table.rows.append(row)
        }
        return table.render()
    }

    /// The wrong answers of the routers that gave some: ten for FastRouter, three for a peer.
    static func wrongAnswerLines(_ routers: [RouterReport], requests: Int) -> [String] {
        var out: [String] = []
        for router in routers where router.status == .wrongAnswer {
            let shown = min(router.wrongAnswers.count, router.router.isFastRouter ? 10 : 3)
            let listed = shown < router.wrongAnswerCount ? ", the first \(shown) (--json lists them all)" : ""
            out.append("  \(router.router.rawValue) answered \(router.wrongAnswerCount) of \(requests) URLs wrongly\(router.router.isFastRouter ? "" : " (not measured on this set)")\(listed):")
            for wrong in router.wrongAnswers.prefix(shown) { out.append("    \(wrong)") }
        }
        return out
    }

    /// The rows with methods under a set's own, and what a method costs the C API.
    static func methodLines(_ methods: MethodRowsReport, maxThreads: Int) -> [String] {
        var out = ["  with methods — \(methods.routes) routes on \(methods.paths) paths, each URL looked up with its method (vs C API and in turns: against the C API row with methods):"]
        out.append(routerTable(methods.routers, maxThreads: maxThreads))
        out.append(contentsOf: wrongAnswerLines(methods.routers, requests: methods.requests))
        if let cost = methods.methodCost {
            let inTurns = cost.pairedRatio.map { "\(Format.ratio($0)) in turns (the median of \(cost.pairedRatios.count)), " } ?? ""
            out.append("  C API lookup with a method vs without, on the same URLs: \(inTurns)\(Format.ratio(cost.ratio)) from ns/lookup (target ≤ 1.1×)")
        } else {
            out.append("  C API lookup with a method vs without: not measured (the C API row with or without methods is missing)")
        }
        return out
    }

    /// What the ratio columns are, since two of them come from different measurements.
    static func legend(_ report: RunReport) -> [String] {
        let runs = report.settings.repetitions
        return [
            "columns: ns/lookup is the router's CPU time per lookup, the median of \(runs) runs of it alone; vs C API is",
            "  that figure over the C API's ns/lookup above it (the same runs); in turns is a measurement of its own: the",
            "  median of \(runs) ratios to the C API from short runs alternating with the C API's, taken on sets of up to",
            "  \(SetRunner.routesTakenInTurns) routes (load from elsewhere then slows both sides of a ratio), which the targets read",
            "  where there is one; p50/p99 time lookups one by one; M/s is lookups per second on 1…N threads",
        ]
    }
}
