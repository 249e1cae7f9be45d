import ArgumentParser
import Foundation

/// `fastrouter-bench`: FastRouter against its peers on the same URLs, in the same run.
@main
struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fastrouter-bench",
        abstract: "Load benchmark for FastRouter and its peers (routing-kit, r3).",
        discussion: """
            With no arguments it runs the embedded default suite: the GitHub, Google+, Parse and \
            static route sets, GitHub with constrained placeholders, a deep-link set, and generated \
            sets of 1k, 10k, 100k and 1M routes. Each router must answer every URL of a set correctly \
            before it is measured; a wrong answer from FastRouter fails the run (exit status 1). \
            Progress goes to stderr, the table to stdout. See docs/BENCHMARKS.md.
            """,
        subcommands: [Lint.self])

    @Option(help: ArgumentHelp("Write every figure as JSON to this file.", valueName: "file"))
    var json: String?

    @Option(help: ArgumentHelp("Write an SVG chart (ns per lookup per router and set, thread scaling).", valueName: "file"))
    var svg: String?

    @Option(help: ArgumentHelp("Measure your own routes: one per line, '[METHOD,...] pattern [priority]' (with methods, also measured as a server registers them). Request URLs come from --urls, else from urls/NAME.urls or NAME.urls beside the file, else one is built per route.", valueName: "file"))
    var routes: String?

    @Option(help: ArgumentHelp("Request URLs for --routes: one per line, '[METHOD] url', line i answered by route i.", valueName: "file"))
    var urls: String?

    @Option(parsing: .unconditional,
            help: ArgumentHelp("Measure on 1 to this many threads (default: the number of cores).", valueName: "n"))
    var threads: Int?

    @Option(parsing: .unconditional,
            help: ArgumentHelp("Seconds per measurement (default 0.5; 0.02 with --quick).", valueName: "seconds"))
    var duration: Double?

    @Option(help: ArgumentHelp("Only these sets: comma-separated names or name prefixes (e.g. github,scale).", valueName: "sets"))
    var filter: String?

    @Option(help: ArgumentHelp("Only these routers: comma-separated, from c, matcher, swift, routing-kit, r3.", valueName: "routers"))
    var routers: String?

    @Flag(help: "A few seconds in all: small sets, short measurements. Proves the tool works; the figures mean nothing.")
    var quick = false

    @Option(help: ArgumentHelp("Write each selected set as NAME.routes and NAME.urls (one pattern, one request URL per line) into this directory, and measure nothing.", valueName: "directory"))
    var writeSets: String?

    // What a run starts itself with for the build figures of a million routes: the build and
    // the lookups on one set's table built this way, printed as one JSON object.
    @Option(help: ArgumentHelp("Measure lookups on one set's table built by single adds or as a batch (Matcher), or by single C adds (the C API); print JSON.",
                               valueName: "single|batch|c-single", visibility: .hidden))
    var tableBuiltBy: TableBuild?

    func validate() throws {
        if routes == nil && urls != nil { throw ValidationError("--urls needs --routes") }
        if let threads, !(1...512).contains(threads) { throw ValidationError("--threads must be between 1 and 512") }
        if let duration, !(duration > 0 && duration <= 600) {
            throw ValidationError("--duration must be more than 0 and at most 600 seconds")
        }
        _ = try selectedRouters()
        if filter?.split(separator: ",").allSatisfy({ $0.trimmingCharacters(in: .whitespaces).isEmpty }) == true {
            throw ValidationError("--filter names no set")
        }
        // Checked before a run of minutes, not after it.
        for case let path? in [json, svg] { try checkWritable(path) }
    }

    /// Throws unless `path` can be written: an existing writable file, or a new file in an
    /// existing writable directory.
    private func checkWritable(_ path: String) throws {
        let file = URL(fileURLWithPath: path)
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: file.path, isDirectory: &isDirectory) {
            guard !isDirectory.boolValue else { throw ValidationError("cannot write \(path): it is a directory") }
            guard FileManager.default.isWritableFile(atPath: file.path) else {
                throw ValidationError("cannot write \(path): permission denied")
            }
            return
        }
        let directory = file.deletingLastPathComponent().path
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw ValidationError("cannot write \(path): no directory \(directory)")
        }
        guard FileManager.default.isWritableFile(atPath: directory) else {
            throw ValidationError("cannot write \(path): directory \(directory) is not writable")
        }
    }

    /// The routers named by `--routers`, or all of them.
    func selectedRouters() throws -> Set<RouterKind> {
        guard let routers else { return Set(RouterKind.allCases) }
        var selected = Set<RouterKind>()
        for name in routers.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces).lowercased() }) {
            guard let kind = RouterKind.allCases.first(where: { $0.option == name }) else {
                throw ValidationError("unknown router '\(name)'; routers: \(RouterKind.allCases.map(\.option).joined(separator: ", "))")
            }
            selected.insert(kind)
        }
        guard !selected.isEmpty else {
            throw ValidationError("--routers names no router; routers: \(RouterKind.allCases.map(\.option).joined(separator: ", "))")
        }
        return selected
    }

    func run() throws {
        Progress.start = Clock.now()
        let settings = RunSettings(seconds: duration ?? (quick ? 0.02 : 0.5), repetitions: quick ? 5 : 15,
                                   maxThreads: threads ?? ProcessInfo.processInfo.activeProcessorCount,
                                   writerAddsPerSecond: 1000, updateSamples: quick ? 20 : 200, quick: quick,
                                   routers: try selectedRouters())
        var entries: [SuiteEntry]
        if let routes {
            let set = try loadCustomSet(routes: routes, urls: urls)
            entries = [SuiteEntry(name: set.name) { set }]
        } else {
            entries = Suite.defaultEntries(quick: quick)
        }
        do {
            entries = try Suite.select(entries, filter: filter)
        } catch {
            throw ValidationError(error.description)
        }
        if let writeSets { return try SetWriter.write(entries, to: writeSets) }
        if let tableBuiltBy { return try runBuildOrderChild(entries, builtBy: tableBuiltBy, settings: settings) }

        var report = RunReport(date: ISO8601DateFormatter().string(from: Date()),
                               command: CommandLine.arguments.joined(separator: " "), machine: .current(),
                               settings: .init(secondsPerMeasurement: settings.seconds, repetitions: settings.repetitions,
                                               maxThreads: settings.maxThreads,
                                               writerAddsPerSecond: settings.writerAddsPerSecond,
                                               updateSamples: settings.updateSamples, quick: quick),
                               allocationCounter: "")
        if let problem = AllocationSelfTest.run() {
            report.allocationCounter = "self-test FAILED: \(problem)"
            report.failures.append("allocation counter: \(problem)")
        } else {
            report.allocationCounter = "counted by interposing malloc & co. in the executable (self-test passed)"
        }
        if case .failure(let reason) = R3Library.shared { Progress.say("r3: \(reason)") }
        if report.machine.loadAtStart > Double(report.machine.logicalCores) * 0.5 {
            Progress.say(String(format: "warning: load average %.2f on %d cores: other work will slow the figures",
                                report.machine.loadAtStart, report.machine.logicalCores))
        }

        Priming.run(settings.routers)
        for (number, entry) in entries.enumerated() {
            let label = "[\(number + 1)/\(entries.count)]"
            Progress.say("\(label) \(entry.name): preparing")
            let set: RouteSet
            do {
                set = try entry.make()
            } catch {
                report.failures.append("\(entry.name): cannot prepare the set: \(error)")
                continue
            }
            var (setReport, failures) = SetRunner(settings: settings, label: label).run(set)
            if BuildOrder.applies(to: set, settings) {
                do {
                    setReport.buildOrder = try BuildOrder.measure(set, settings: settings, label: label)
                } catch {
                    setReport.buildOrderNote = error.description
                    failures.append("\(set.name): build order: \(error.description)")
                }
            }
            report.sets.append(setReport)
            report.failures += failures
        }
        report.machine.loadAtEnd = MachineInfo.loadAverage()
        // A quick run's figures mean nothing, so they are not held against the targets.
        if !quick { report.targets = Targets.evaluate(report) }

        print(TableReport.render(report))
        if let json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            try write(encoder.encode(report), to: json)
            Progress.say("wrote \(json)")
        }
        if let svg {
            try write(Data(SVGReport.render(report).utf8), to: svg)
            Progress.say("wrote \(svg)")
        }
        if !report.failures.isEmpty { throw ExitCode(1) }
    }

    /// `--table-built-by`: one set, one table, its figures as JSON on stdout; exit status 1 when
    /// the table answered a URL wrongly.
    private func runBuildOrderChild(_ entries: [SuiteEntry], builtBy build: TableBuild, settings: RunSettings) throws {
        guard entries.count == 1 else { throw ValidationError("--table-built-by needs exactly one set (--filter NAME)") }
        let set = try entries[0].make()
        let run: BuildOrderRun
        do {
            run = try BuildOrder.run(set, builtBy: build, settings: settings)
        } catch {
            Progress.say("\(set.name): \(build) table: \(error.description)")
            throw ExitCode(1)
        }
        print(String(decoding: try JSONEncoder().encode(run), as: UTF8.self))
        if run.wrongAnswers > 0 { throw ExitCode(1) }
    }

    private func loadCustomSet(routes: String, urls: String?) throws -> RouteSet {
        do {
            return try RouteFile.load(routesPath: routes, urlsPath: urls)
        } catch {
            throw ValidationError(error.description)
        }
    }

    private func write(_ data: Data, to path: String) throws {
        do {
            try data.write(to: URL(fileURLWithPath: path))
        } catch {
            throw ValidationError("cannot write \(path): \(error.localizedDescription)")
        }
    }
}

extension TableBuild: ExpressibleByArgument {}
