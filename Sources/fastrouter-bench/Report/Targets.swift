/// One target of docs/SEMANTICS.md §6 next to what this run measured.
struct TargetCheck: Sendable, Codable {
    enum Outcome: String, Sendable, Codable {
        case met, missed
        /// The run did not measure what the target needs (set filtered out, peer missing, …).
        case notMeasured = "not measured"
    }

    var figure: String
    var target: String
    var measured: String
    var outcome: Outcome
}

/// Reads the targets off a finished report. Targets are reported, never enforced: the
/// machine, its load and the run length all move the figures.
enum Targets {
    static func evaluate(_ report: RunReport) -> [TargetCheck] {
        var checks: [TargetCheck] = []
        func set(_ name: String) -> SetReport? { report.sets.first { $0.name == name } }
        func ns(_ name: String, _ kind: RouterKind) -> Double? {
            set(name)?.router(kind).flatMap { $0.status == .measured ? $0.nanosecondsPerLookup : nil }
        }
        func add(_ figure: String, _ target: String, _ measured: String?, _ met: Bool?) {
            checks.append(TargetCheck(figure: figure, target: target, measured: measured ?? "-",
                                      outcome: met.map { $0 ? .met : .missed } ?? .notMeasured))
        }

        let github = ns("github", .fastRouterC)
        add("GitHub, C API, one thread", "≤ 40 ns per lookup", github.map { Format.ns($0) }, github.map { $0 <= 40 })
        // A peer's ratio is the one taken in turns with the C API.
        func ratio(_ name: String, _ kind: RouterKind) -> Double? {
            set(name)?.router(kind).flatMap { $0.status == .measured ? $0.comparedToCAPI?.ratio : nil }
        }
        if let peer = ratio("github", .routingKit) {
            add("GitHub vs routing-kit", "≥ 50× faster", Format.ratio(peer), peer >= 50)
        } else {
            add("GitHub vs routing-kit", "≥ 50× faster", nil, nil)
        }
        if let peer = ratio("github", .r3) {
            add("GitHub vs r3", "≥ 4× faster", Format.ratio(peer), peer >= 4)
        } else {
            add("GitHub vs r3", "≥ 4× faster", set("github")?.router(.r3)?.note, nil)
        }
        let staticNs = ns("static", .fastRouterC)
        add("static set, C API", "≤ 25 ns per lookup", staticNs.map { Format.ns($0) }, staticNs.map { $0 <= 25 })

        for kind in [RouterKind.fastRouterC, .fastRouterMatcher] {
            let figures = report.sets.compactMap { set in set.router(kind)?.lookups.map { (set.name, $0.allocationsPerLookup) } }
            let worst = figures.max { $0.1 < $1.1 }
            add("heap allocations per lookup, \(kind.rawValue)", "0 on every set",
                worst.map { "\(Format.allocations($0.1)) (worst: \($0.0))" }, worst.map { $0.1 == 0 })
        }

        let swiftRatios = report.sets.compactMap { set -> (String, Double)? in
            guard let swift = set.router(.fastRouterSwift)?.comparedToCAPI?.ratio else { return nil }
            return (set.name, swift)
        }
        let worstSwift = swiftRatios.max { $0.1 < $1.1 }
        add("Router.match vs C API", "≤ 2× on every set", worstSwift.map { "\(Format.ratio($0.1)) (worst: \($0.0))" },
            worstSwift.map { $0.1 <= 2 })

        if let constrained = ns("github-constrained", .fastRouterC), let github {
            add("constrained vs plain placeholders (GitHub)", "≤ 2×", Format.ratio(constrained / github), constrained / github <= 2)
        } else {
            add("constrained vs plain placeholders (GitHub)", "≤ 2×", nil, nil)
        }

        let million = set("scale-1M")
        let buildSeconds = million?.router(.fastRouterSwift)?.build?.seconds
        add("1M routes: build (batch add)", "≤ 2 s", buildSeconds.map { Format.seconds($0) }, buildSeconds.map { $0 <= 2 })
        let bytes = million?.router(.fastRouterC)?.bytesPerRoute
        add("1M routes: memory", "≤ 200 bytes per route", bytes.map { Format.bytes($0) }, bytes.map { $0 <= 200 })
        if let big = ns("scale-1M", .fastRouterC), let small = ns("scale-1k", .fastRouterC) {
            add("1M routes: lookup vs the 1k set", "≤ 2×", Format.ratio(big / small), big / small <= 2)
        } else {
            add("1M routes: lookup vs the 1k set", "≤ 2×", nil, nil)
        }

        let scaling = set("github")?.router(.fastRouterC)?.threads
        if let one = scaling?.first(where: { $0.threads == 1 }), let two = scaling?.first(where: { $0.threads == 2 }) {
            let speedup = two.lookupsPerSecond / one.lookupsPerSecond
            add("GitHub, 2 threads vs 1", "≥ 1.8×", Format.ratio(speedup), speedup >= 1.8)
        } else {
            add("GitHub, 2 threads vs 1", "≥ 1.8×", nil, nil)
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
        add("instructions per lookup (GitHub, C API)", "≤ 600", "measured by make perf (callgrind)", nil)
        return checks
    }
}
