import FastRouter
import Foundation

/// How the table of a build-order run is built (`--table-built-by`).
enum TableBuild: String, CaseIterable, Codable, Sendable {
    /// One `Router.add` per route: the same registration as one `fr_router_add` (a batch of
    /// one), plus the route's value.
    case single
    /// One `Router.add(contentsOf:)` for the whole set.
    case batch
    /// One `fr_router_add` per route, through the C API (`FastRouterCAPI`), read through the C
    /// API: the build the target of single C adds is set on, in a process of its own.
    case cSingle = "c-single"
}

/// What one process measured on one table (`--table-built-by`): its stdout, one JSON object.
struct BuildOrderRun: Sendable, Codable {
    var builtBy: TableBuild
    var buildSeconds: Double
    /// Growth of the process's live bytes across the build (`BuildCost.heapBytes`).
    var heapBytes: Int64?
    /// `Matcher` lookups, median of the repetitions of CPU time per lookup, as the table's rows.
    var nanosecondsPerLookup: Double
    var repetitions: [Double]
    var wrongAnswers: Int
}

/// Lookups on a table built by single adds against lookups on one built as a batch
/// (docs/SEMANTICS.md §6: within 1.2×), each table built and read in a process of its own, so
/// that neither inherits the other's heap, page mappings or caches; the pairs of processes
/// alternate their order, so a drift of the host's load favours neither.
struct BuildOrderFigures: Sendable, Codable {
    /// The two runs of the pair whose ratio is the median.
    var single: BuildOrderRun
    var batch: BuildOrderRun
    /// The table built by single C adds, in a process of its own: the 1M build and memory
    /// targets read it, and the batch runs, rather than the rows of the parent process.
    var cSingle: BuildOrderRun?
    /// single / batch of that pair: above 1, the single-add table is slower to read.
    var ratio: Double
    /// The ratio of every pair, in the order they ran.
    var pairRatios: [Double]
}

enum BuildOrder {
    /// Sets this large get the figure: the target is set at a million routes, and each pair of
    /// processes builds the set twice.
    static let minimumRoutes = 1_000_000
    /// Pairs of processes; the median pair is reported.
    static let pairs = 3

    static func applies(to set: RouteSet, _ settings: RunSettings) -> Bool {
        set.kind == .scale && set.routes.count >= minimumRoutes && settings.routers.contains(.fastRouterMatcher)
    }

    /// The child's side: builds `set` as `build` says, checks every answer, times `Matcher`
    /// lookups as the table's rows are timed.
    static func run(_ set: RouteSet, builtBy build: TableBuild, settings: RunSettings) throws(BuildFailure) -> BuildOrderRun {
        if build == .cSingle { return try runCSingle(set, settings: settings) }
        let router: Router<Int>
        let cost: BuildCost
        switch build {
        case .cSingle:
            preconditionFailure("handled above")
        case .batch:
            (router, cost) = try buildSwiftRouter(set: set)
        case .single:
            router = Router<Int>()
            var failure: String?
            ((), cost) = BuildCost.measure {
                for (index, spec) in set.routes.enumerated() {
                    do throws(RouterError) {
                        try router.add(spec.pattern, priority: spec.priority, id: UInt64(index), value: index)
                    } catch {
                        failure = "Router.add(\(spec.pattern)): \(error)"
                        return
                    }
                }
            }
            if let failure { throw BuildFailure(description: failure) }
        }
        let matcher = FastRouterMatcherAPI(router: router, build: cost, set: set)
        var worker = matcher.makeWorker()
        let wrong = CorrectnessGate.check(&worker, set: set, kind: .fastRouterMatcher)
        guard wrong.isEmpty else {
            return BuildOrderRun(builtBy: build, buildSeconds: cost.seconds, heapBytes: cost.heapBytes, nanosecondsPerLookup: 0,
                                 repetitions: [], wrongAnswers: wrong.count)
        }
        let (median, runs, _) = LookupTiming.nanoseconds(&worker, count: set.requests.count,
                                                          repetitions: settings.repetitions, seconds: settings.seconds)
        return BuildOrderRun(builtBy: build, buildSeconds: cost.seconds, heapBytes: cost.heapBytes, nanosecondsPerLookup: median,
                             repetitions: runs, wrongAnswers: 0)
    }

    /// ``run(_:builtBy:settings:)`` for the table built by single C adds, read through the C API.
    private static func runCSingle(_ set: RouteSet, settings: RunSettings) throws(BuildFailure) -> BuildOrderRun {
        let contender = try FastRouterCAPI(set: set)
        var worker = contender.makeWorker()
        let wrong = CorrectnessGate.check(&worker, set: set, kind: .fastRouterC)
        guard wrong.isEmpty else {
            return BuildOrderRun(builtBy: .cSingle, buildSeconds: contender.build.seconds, heapBytes: contender.build.heapBytes,
                                 nanosecondsPerLookup: 0, repetitions: [], wrongAnswers: wrong.count)
        }
        let (median, runs, _) = LookupTiming.nanoseconds(&worker, count: set.requests.count,
                                                          repetitions: settings.repetitions, seconds: settings.seconds)
        return BuildOrderRun(builtBy: .cSingle, buildSeconds: contender.build.seconds, heapBytes: contender.build.heapBytes,
                             nanosecondsPerLookup: median, repetitions: runs, wrongAnswers: 0)
    }

    /// The parent's side: `pairs` pairs of child processes on `set`, alternating which table
    /// goes first. Throws a message when a child fails or answers wrongly.
    static func measure(_ set: RouteSet, settings: RunSettings, label: String) throws(BuildFailure) -> BuildOrderFigures {
        var results: [(single: BuildOrderRun, batch: BuildOrderRun)] = []
        for pair in 0..<pairs {
            let order: [TableBuild] = pair % 2 == 0 ? [.single, .batch] : [.batch, .single]
            var runs: [TableBuild: BuildOrderRun] = [:]
            for build in order {
                Progress.say("\(label) \(set.name): build order, pair \(pair + 1)/\(pairs): a process reading the \(build) table")
                let run = try child(set, builtBy: build, settings: settings)
                if run.wrongAnswers > 0 {
                    throw BuildFailure(description: "Matcher on the \(build)-built table answered \(run.wrongAnswers) URLs wrongly")
                }
                runs[build] = run
            }
            results.append((runs[.single]!, runs[.batch]!))
        }
        let ratios = results.map { $0.single.nanosecondsPerLookup / $0.batch.nanosecondsPerLookup }
        let median = ratios.indices.sorted { ratios[$0] < ratios[$1] }[ratios.count / 2]
        Progress.say("\(label) \(set.name): a process building the table by single C adds")
        let cSingle = try child(set, builtBy: .cSingle, settings: settings)
        if cSingle.wrongAnswers > 0 {
            throw BuildFailure(description: "the C API on the table built by single C adds answered \(cSingle.wrongAnswers) URLs wrongly")
        }
        return BuildOrderFigures(single: results[median].single, batch: results[median].batch, cSingle: cSingle,
                                 ratio: ratios[median], pairRatios: ratios)
    }

    /// Runs this executable on `set` alone with `--table-built-by`, and reads its JSON.
    private static func child(_ set: RouteSet, builtBy build: TableBuild, settings: RunSettings) throws(BuildFailure) -> BuildOrderRun {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executablePath())
        process.arguments = ["--filter", set.name, "--table-built-by", build.rawValue,
                             "--duration", String(settings.seconds)]
        let output = Pipe()
        process.standardOutput = output
        do {
            try process.run()
        } catch {
            throw BuildFailure(description: "cannot run \(executablePath()): \(error)")
        }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard let run = try? JSONDecoder().decode(BuildOrderRun.self, from: data) else {
            throw BuildFailure(description: "the \(build) process exited with status \(process.terminationStatus) without figures")
        }
        return run
    }

    /// This executable's own path (the kernel's, whatever the command line said).
    private static func executablePath() -> String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    }
}
