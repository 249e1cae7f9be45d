/// One target of docs/SEMANTICS.md §6 next to what this run measured.
struct TargetCheck: Sendable, Codable {
    enum Outcome: String, Sendable, Codable {
        case met, missed
        /// The run did not measure what the target needs (set filtered out, peer missing, …).
        case notMeasured = "not measured"
        /// A figure shown beside a target that another tool checks (`make perf` counts the
        /// instructions docs/SEMANTICS.md §6 sets; the benchmark shows the time they take).
        case informational = "see make perf"
    }

    var figure: String
    var target: String
    var measured: String
    var outcome: Outcome
}

/// Reads the targets off a finished report. Targets are reported, never enforced: the
/// machine, its load and the run length all move the figures. The instruction targets
/// (docs/SEMANTICS.md §6) are `make perf`'s: the benchmark cannot count instructions.
enum Targets {
    /// Where the instruction targets are checked, printed under the targets table.
    static let instructionNote = "instructions per lookup through the C API (GitHub ≤ 600, static ≤ 400, Google+ ≤ 700, Parse ≤ 450, fewer than r3), Router.match ≤ 1.3× the C API's on every set, registration ≤ 10 000 per fr_router_add: make perf (callgrind)"

    static func evaluate(_ report: RunReport) -> [TargetCheck] {
        var checks: [TargetCheck] = []
        func set(_ name: String) -> SetReport? { report.sets.first { $0.name == name } }
        func measured(_ name: String, _ kind: RouterKind) -> RouterReport? {
            set(name)?.router(kind).flatMap { $0.status == .measured ? $0 : nil }
        }
        func ns(_ name: String, _ kind: RouterKind) -> Double? { measured(name, kind)?.nanosecondsPerLookup }
        func add(_ figure: String, _ target: String, _ measured: String?, _ met: Bool?) {
            checks.append(TargetCheck(figure: figure, target: target, measured: measured ?? "-",
                                      outcome: met.map { $0 ? .met : .missed } ?? .notMeasured))
        }
        /// "How many times faster than `kind`" on a set: the ratio taken in turns where there
        /// is one, the figure it came from named, and the quotient of the ns/lookup column beside it.
        func faster(_ name: String, than kind: RouterKind, _ label: String, atLeast minimum: Double) {
            let target = "≥ \(String(format: "%g", minimum))× faster"
            guard let router = measured(name, kind), let compared = router.comparedToCAPI else {
                let reason = set(name)?.router(kind)?.note.map { "\(kind.shortName): \($0)" }
                add(label, target, reason, nil)
                return
            }
            add(label, target, describe(compared, quotient: router.ratioToCAPI), compared.ratio >= minimum)
        }

        let github = ns("github", .fastRouterC)
        add("GitHub, C API, one thread", "≤ 40 ns per lookup", github.map { Format.ns($0) }, github.map { $0 <= 40 })
        faster("github", than: .r3, "GitHub vs r3", atLeast: 3)
        faster("github", than: .routingKit, "GitHub vs routing-kit", atLeast: 50)
        let staticNs = ns("static", .fastRouterC)
        add("static set, C API, one thread", "≤ 25 ns per lookup", staticNs.map { Format.ns($0) }, staticNs.map { $0 <= 25 })
        faster("static", than: .r3, "static vs r3", atLeast: 1.3)
        faster("gplus", than: .r3, "Google+ vs r3", atLeast: 1.3)
        faster("parse", than: .r3, "Parse vs r3", atLeast: 1.3)

        // Every set's rows, and its rows with methods under "NAME with methods".
        let rows = report.sets.flatMap { set in
            [(set.name, set.routers)] + (set.withMethods.map { [("\(set.name) with methods", $0.routers)] } ?? [])
        }
        for kind in [RouterKind.fastRouterC, .fastRouterMatcher] {
            let figures = rows.compactMap { name, routers in
                routers.first { $0.router == kind }?.lookups.map { (name, $0.allocationsPerLookup) }
            }
            let worst = figures.max { $0.1 < $1.1 }
            add("heap allocations per lookup, \(kind.rawValue)", "0 on every set",
                worst.map { "\(Format.allocations($0.1)) (worst: \($0.0))" }, worst.map { $0.1 == 0 })
        }

        let swiftRatios = rows.compactMap { name, routers -> (String, RouterReport, (ratio: Double, inTurns: Bool))? in
            guard let swift = routers.first(where: { $0.router == .fastRouterSwift }), swift.status == .measured,
                  let compared = swift.comparedToCAPI else { return nil }
            return (name, swift, compared)
        }
        let worstSwift = swiftRatios.max { $0.2.ratio < $1.2.ratio }
        // §6 sets this figure in instructions (`make perf`); the time it takes is shown beside it.
        checks.append(TargetCheck(figure: "Router.match vs C API, in time", target: "≤ 1.3× in instructions",
                                  measured: worstSwift.map { "\(describe($0.2, quotient: $0.1.ratioToCAPI)), worst: \($0.0)" } ?? "-",
                                  outcome: .informational))

        if let constrained = ns("github-constrained", .fastRouterC), let github {
            add("constrained vs plain placeholders (GitHub, C API)", "≤ 2×", Format.ratio(constrained / github),
                constrained / github <= 2)
        } else {
            add("constrained vs plain placeholders (GitHub, C API)", "≤ 2×", nil, nil)
        }

        scaleTargets(report, set("scale-1M"), add: add)
        if let big = ns("scale-1M", .fastRouterC), let small = ns("scale-1k", .fastRouterC) {
            add("1M routes: lookup vs the 1k set (C API)", "≤ 2.5×", Format.ratio(big / small), big / small <= 2.5)
        } else {
            add("1M routes: lookup vs the 1k set (C API)", "≤ 2.5×", nil, nil)
        }

        // Router.match too: a reference count that every thread's lookup touches (the router's,
        // a route's) shows here first.
        for (router, label) in [(RouterKind.fastRouterC, "C API"), (.fastRouterSwift, "Router.match")] {
            let scaling = measured("github", router)?.threads
            if let one = scaling?.first(where: { $0.threads == 1 }), let two = scaling?.first(where: { $0.threads == 2 }) {
                let speedup = two.lookupsPerSecond / one.lookupsPerSecond
                add("GitHub, \(label), 2 threads vs 1", "≥ 1.8×", Format.ratio(speedup), speedup >= 1.8)
            } else {
                add("GitHub, \(label), 2 threads vs 1", "≥ 1.8×", nil, nil)
            }
        }
        let writers = report.sets.compactMap { set in set.writer.map { (set.name, $0.retained) } }
        let worstWriter = writers.min { $0.1 < $1.1 }
        add("readers with a writer at 1000 adds+removes/s", "keep ≥ 90%",
            worstWriter.map { "\(Format.percent($0.1)) (worst: \($0.0))" }, worstWriter.map { $0.1 >= 0.9 })
        let updates = set("scale-100k")?.updates
        add("single add on 100k routes", "≤ 1 ms", updates.map { "p50 \(Format.micro($0.addP50Microseconds)), p99 \(Format.micro($0.addP99Microseconds))" },
            updates.map { $0.addP99Microseconds <= 1000 })
        add("single remove on 100k routes", "≤ 1 ms", updates.map { "p50 \(Format.micro($0.removeP50Microseconds)), p99 \(Format.micro($0.removeP99Microseconds))" },
            updates.map { $0.removeP99Microseconds <= 1000 })
        if let cost = set("github")?.withMethods?.methodCost {
            add("GitHub, C API: lookup with a method vs without", "≤ 1.1×",
                describe(cost.compared, quotient: cost.pairedRatio == nil ? nil : cost.ratio), cost.compared.ratio <= 1.1)
        } else {
            add("GitHub, C API: lookup with a method vs without", "≤ 1.1×", nil, nil)
        }
        return checks
    }

    /// The 1M-route set: memory, both builds, and lookups on the two tables the builds give.
    private static func scaleTargets(_ report: RunReport, _ million: SetReport?,
                                     add: (String, String, String?, Bool?) -> Void) {
        // Each build mode in a process of its own (the build-order children) where there is one,
        // else the rows of this process.
        let order = million?.buildOrder
        let routes = Double(max(million?.routes ?? 1, 1))
        let single = million?.router(.fastRouterC)
        let batch = million?.router(.fastRouterSwift)
        let singleBytes = order?.cSingle?.heapBytes.map { Double($0) / routes } ?? single?.bytesPerRoute
        let batchBytes = order?.batch.heapBytes.map { Double($0) / routes } ?? batch?.bytesPerRoute
        let memory = [(singleBytes, "single adds, C API"), (batchBytes, "batch, Swift")]
            .compactMap { bytes, label in bytes.map { (bytes: $0, label: label) } }
        let isolated = order?.cSingle != nil ? ", a process per build" : ""
        add("1M routes: memory", "≤ 200 bytes per route",
            memory.isEmpty ? nil : memory.map { "\(Format.bytes($0.bytes)) (\($0.label))" }.joined(separator: ", ") + isolated,
            memory.isEmpty ? nil : memory.allSatisfy { $0.bytes <= 200 })
        let batchSeconds = order?.batch.buildSeconds ?? batch?.build?.seconds
        add("1M routes: build as a batch (Swift add(contentsOf:))", "≤ 2 s",
            batchSeconds.map { Format.seconds($0) + isolated }, batchSeconds.map { $0 <= 2 })
        let singleSeconds = order?.cSingle?.buildSeconds ?? (single?.status == .measured ? single?.build?.seconds : nil)
        add("1M routes: build by single C adds", "≤ 3 s", singleSeconds.map { Format.seconds($0) + isolated },
            singleSeconds.map { $0 <= 3 })
        let removal = million?.removal
        add("1M routes removed one by one: memory vs a new router", "± 1% of the built",
            removal.map { "\(String(format: "%+.3f", 100 * $0.leftShare))% (\(Format.seconds($0.seconds)))" },
            removal.map { abs($0.leftShare) <= 0.01 && $0.failures == 0 })
        add("1M routes: lookups, single-add table vs batch", "≤ 1.2×",
            order.map { "\(Format.ratio($0.ratio)) (Matcher, a process per table)" }, order.map { $0.ratio <= 1.2 })
    }

    /// A ratio to the C API with the measurement it came from, and the ns/lookup quotient beside
    /// a ratio taken in turns.
    static func describe(_ compared: (ratio: Double, inTurns: Bool), quotient: Double?) -> String {
        guard compared.inTurns else { return "\(Format.ratio(compared.ratio)) (from ns/lookup)" }
        return "\(Format.ratio(compared.ratio)) (in turns; \(quotient.map(Format.ratio) ?? "-") from ns/lookup)"
    }
}
