import FastRouter
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One soak run: a router with fixed routes, churn slots, one writer and several readers.
///
/// Fixed routes (never removed) give every churn URL a fallback candidate, so each lookup checks
/// a whole decline list: `/churn/:slot/*rest` (id 1) and `/batch/:slot/*rest` (id 2), plus a few
/// stable routes whose answers never change.
final class Soak: Sendable {
    enum SlotKind {
        /// `/churn/S/{rN:int}`: one route at a time, a built-in constraint.
        case single
        /// `/churn/S/{rN:[0-9]+}`: the same with a PCRE2 regex, shared and released with the routes.
        case regex
        /// `/batch/S/{aN:int}` (priority 1) and `/batch/S/:bN` in one batch under one id.
        case batch
    }

    let options: SoakOptions
    let router = Router<UInt64>()
    let log: VersionLog
    let report = SoakReport()
    let stop = Atomic<Bool>(false)
    /// The `completed` version each reader saw before its current lookup (`UInt64.max` when idle),
    /// so the writer prunes only history no reader can still ask about.
    let readerFloors: [ReaderFloor]

    static let stable: [(url: String, id: UInt64, parameters: [(String, String)])] = [
        ("/users/42", 3, [("id", "42")]),
        ("/users/42/posts/7?tab=a", 4, [("id", "42"), ("post", "7"), ("tab", "a")]),
        ("/re/abc", 5, [("word", "abc")]),
        ("myapp://settings/privacy#top", 6, [("section", "privacy")]),
        ("https://a.example.com/files/x/y%2Fz", 7, [("path", "x/y/z")]),
    ]

    /// Versions of history kept below every reader's floor.
    static let pruneMargin: UInt64 = 65536

    init(_ options: SoakOptions) throws(RouterError) {
        self.options = options
        log = VersionLog(slots: options.slots)
        readerFloors = (0..<options.readers).map { _ in ReaderFloor() }
        try router.add(contentsOf: [
            Route("/churn/:slot/*rest", id: 1, value: 1),
            Route("/batch/:slot/*rest", id: 2, value: 2),
            Route("/users/{id:int}", id: 3, value: 3),
            Route("/users/{id:int}/posts/:post", id: 4, value: 4),
            Route("/re/{word:[a-z]+}", id: 5, value: 5),
            Route("myapp://settings(/:section)", id: 6, value: 6),
            Route("https://*.example.com/files/*path", id: 7, value: 7),
        ])
    }

    func kind(of slot: Int) -> SlotKind {
        switch slot % 4 {
        case 3: return .batch
        case 1: return .regex
        default: return .single
        }
    }

    // MARK: Running

    /// Runs the writer and readers for the configured time while sampling memory; prints a report.
    /// - Returns: `true` when every answer was consistent and memory stayed flat.
    func run() -> Bool {
        let begin = monotonicSeconds()
        let warmUp = min(max(options.seconds * 0.1, 1), options.seconds / 2)
        var threads: [pthread_t] = []
        // An idle reader: one lookup, then nothing until the run ends.
        let idle = options.idleReader ? Matcher(router: router) : nil
        if let idle, (try? idle.match(Self.stable[0].url)) != true { report.problem("the idle reader's lookup failed") }
        threads.append(spawn { self.writeLoop() })
        for reader in 0..<options.readers {
            threads.append(spawn { self.readLoop(reader) })
        }
        var startRSS = 0
        var peakRSS = residentBytes()
        let initialRSS = peakRSS
        var lastProgress = begin
        while true {
            usleep(100_000)
            let now = monotonicSeconds()
            let rss = residentBytes()
            peakRSS = max(peakRSS, rss)
            if startRSS == 0 && now - begin >= warmUp { startRSS = rss }
            if now - lastProgress >= 10 {
                lastProgress = now
                printError("  \(decimal(now - begin, 0)) s: \(report.lookups.load(ordering: .relaxed)) lookups, "
                           + "\(report.writes.load(ordering: .relaxed)) writes, RSS \(decimal(mib(rss))) MiB")
            }
            if now - begin >= options.seconds { break }
        }
        stop.store(true, ordering: .relaxed)
        for thread in threads { pthread_join(thread, nil) }
        withExtendedLifetime(idle) {}
        let endRSS = residentBytes()
        peakRSS = max(peakRSS, endRSS)
        let elapsed = monotonicSeconds() - begin
        let growth = Double(endRSS - startRSS) / 1_048_576
        let problems = report.problems
        let lookups = report.lookups.load(ordering: .relaxed)
        let writes = report.writes.load(ordering: .relaxed)
        print("fastrouter-soak: \(decimal(elapsed)) s, \(options.readers) readers\(options.idleReader ? " and an idle one" : ""), "
              + "\(options.slots) slots\(options.uniqueNames ? ", a new parameter name per route" : "")")
        print("  lookups \(lookups) (\(decimal(Double(lookups) / elapsed, 0))/s), invalid-URL lookups "
              + "\(report.invalidURLs.load(ordering: .relaxed)), writer operations \(writes) "
              + "(\(decimal(Double(writes) / elapsed, 0))/s), routes at end \(router.count)")
        print("  resident memory: initial \(decimal(mib(initialRSS))) MiB, after warm-up \(decimal(mib(startRSS))) MiB, "
              + "peak \(decimal(mib(peakRSS))) MiB, end \(decimal(mib(endRSS))) MiB "
              + "(growth \(decimal(growth)) MiB, limit \(decimal(options.maxGrowthMiB, 0)))")
        print("  regex limit hits \(router.statistics.regexLimitHits)")
        print("  inconsistencies \(problems.count)")
        for problem in problems.first { print("    \(problem)") }
        let flat = growth <= options.maxGrowthMiB
        if !flat { print("  FAIL: resident memory grew by \(decimal(growth)) MiB") }
        let ok = problems.count == 0 && flat && lookups > 0 && writes > 0
        print(ok ? "  PASS" : "  FAIL")
        return ok
    }

    // MARK: Writer

    private func writeLoop() {
        var random = ThreadRandom(seed: 0xC0FF_EE00)
        var present: [UInt64?] = Array(repeating: nil, count: options.slots)
        var generation: UInt64 = 0
        var version: UInt64 = 0
        while !stop.load(ordering: .relaxed) {
            let slot = random.below(options.slots)
            version += 1
            if let id = present[slot] {
                log.record(slot: slot, version: version, state: SlotState(id: nil))
                log.started.store(version, ordering: .sequentiallyConsistent)
                let removed = router.remove(id: id)
                let expected = kind(of: slot) == .batch ? 2 : 1
                if removed != expected { report.problem("remove(id: \(id)) removed \(removed), expected \(expected)") }
                present[slot] = nil
            } else {
                generation += 1
                let id = UInt64(slot) << 32 | generation
                log.record(slot: slot, version: version, state: SlotState(id: id))
                log.started.store(version, ordering: .sequentiallyConsistent)
                do {
                    switch kind(of: slot) {
                    case .single:
                        try router.add("/churn/\(slot)/{\(name("r", id)):int}", id: id, value: id)
                    case .regex:
                        try router.add("/churn/\(slot)/{\(name("r", id)):[0-9]+}", id: id, value: id)
                    case .batch:
                        try router.add(contentsOf: [
                            Route("/batch/\(slot)/{\(name("a", id)):int}", priority: 1, id: id, value: id),
                            Route("/batch/\(slot)/:\(name("b", id))", id: id, value: id),
                        ])
                    }
                } catch {
                    report.problem("adding id \(id) to slot \(slot) failed: \(error)")
                }
                present[slot] = id
            }
            log.completed.store(version, ordering: .sequentiallyConsistent)
            report.writes.add(1, ordering: .relaxed)
            if version % 4096 == 0 && version > Self.pruneMargin {
                // The margin covers a reader paused between reading `completed` and publishing it.
                let floor = readerFloors.reduce(version - Self.pruneMargin) { min($0, $1.version.load(ordering: .sequentiallyConsistent)) }
                log.prune(before: floor)
            }
        }
    }

    // MARK: Readers

    /// One candidate as a reader saw it.
    struct Seen: Equatable, CustomStringConvertible {
        var id: UInt64
        var parameters: [String]

        var description: String { "#\(id)(\(parameters.joined(separator: ", ")))" }
    }

    private func readLoop(_ reader: Int) {
        var random = ThreadRandom(seed: UInt64(reader + 1) &* 0x9E37_79B9_7F4A_7C15)
        let matcher = Matcher(router: router)
        var lookups = 0
        while !stop.load(ordering: .relaxed) {
            let roll = random.below(100)
            if roll < 8 {
                checkStable(random.below(Self.stable.count), matcher, useMatcher: roll % 2 == 0)
            } else if roll < 10 {
                checkInvalid(matcher)
            } else {
                checkSlot(random.below(options.slots), value: random.below(1_000_000), reader: reader,
                          matcher: matcher, useMatcher: roll % 3 != 0)
            }
            lookups += 1
            if lookups % 256 == 0 { report.lookups.add(256, ordering: .relaxed) }
        }
        report.lookups.add(lookups % 256, ordering: .relaxed)
    }

    private func lookUp(_ url: String, _ matcher: Matcher<UInt64>, useMatcher: Bool) -> [Seen]? {
        do {
            if useMatcher {
                var seen: [Seen] = []
                if try matcher.match(url) {
                    repeat {
                        var parameters: [String] = []
                        for index in 0..<matcher.parameterCount {
                            guard let (name, value) = matcher.parameter(at: index) else { break }
                            parameters.append(String(decoding: name, as: UTF8.self) + "=" + String(decoding: value, as: UTF8.self))
                        }
                        if matcher.value != matcher.routeID {
                            report.problem("\(url): route \(matcher.routeID) carries value \(String(describing: matcher.value))")
                        }
                        seen.append(Seen(id: matcher.routeID, parameters: parameters))
                    } while matcher.next()
                }
                return seen
            }
            return try router.matches(url).map { match in
                if match.value != match.routeID {
                    report.problem("\(url): route \(match.routeID) carries value \(match.value)")
                }
                return Seen(id: match.routeID, parameters: match.parameters.map { $0.name + "=" + $0.value })
            }
        } catch {
            report.problem("\(url): threw \(error)")
            return nil
        }
    }

    private func checkStable(_ index: Int, _ matcher: Matcher<UInt64>, useMatcher: Bool) {
        let entry = Self.stable[index]
        guard let seen = lookUp(entry.url, matcher, useMatcher: useMatcher) else { return }
        let expected = Seen(id: entry.id, parameters: entry.parameters.map { $0.0 + "=" + $0.1 })
        if seen.first != expected {
            report.problem("\(entry.url): best \(seen.first.map(\.description) ?? "none"), expected \(expected)")
        }
    }

    private func checkInvalid(_ matcher: Matcher<UInt64>) {
        do {
            _ = try matcher.match("/churn/1/%zz")
            report.problem("/churn/1/%zz was accepted")
        } catch {
            if error.code != .invalidURL { report.problem("/churn/1/%zz threw \(error)") }
            report.invalidURLs.add(1, ordering: .relaxed)
        }
    }

    private func checkSlot(_ slot: Int, value: Int, reader: Int, matcher: Matcher<UInt64>, useMatcher: Bool) {
        let kind = kind(of: slot)
        let url = (kind == .batch ? "/batch/" : "/churn/") + "\(slot)/\(value)"
        let first = log.completed.load(ordering: .sequentiallyConsistent)
        readerFloors[reader].version.store(first, ordering: .sequentiallyConsistent)
        defer { readerFloors[reader].version.store(UInt64.max, ordering: .relaxed) }
        let seen = lookUp(url, matcher, useMatcher: useMatcher)
        let last = log.started.load(ordering: .sequentiallyConsistent)
        guard let seen else { return }
        let states = log.states(slot: slot, from: first, through: last)
        let acceptable = states.map { expected(for: $0, kind: kind, slot: slot, value: value) }
        if !acceptable.contains(seen) {
            report.problem("\(url) between versions \(first) and \(last): saw \(seen), expected one of \(acceptable)")
        }
    }

    /// The parameter name a churned route carries: derived from its id, so an answer whose id and
    /// parameters come from different routes shows. By default one of 61 names per prefix, because
    /// the router keeps every parameter name it has seen for the life of the process (results
    /// point into that table); `--unique-names` gives every route its own name to show that growth.
    private func name(_ prefix: String, _ id: UInt64) -> String {
        prefix + String(options.uniqueNames ? id : id % 61)
    }

    /// The full decline list a slot URL gets when the slot is in `state`.
    private func expected(for state: SlotState, kind: SlotKind, slot: Int, value: Int) -> [Seen] {
        let fallback = Seen(id: kind == .batch ? 2 : 1, parameters: ["slot=\(slot)", "rest=\(value)"])
        guard let id = state.id else { return [fallback] }
        switch kind {
        case .single, .regex:
            return [Seen(id: id, parameters: ["\(name("r", id))=\(value)"]), fallback]
        case .batch:
            return [Seen(id: id, parameters: ["\(name("a", id))=\(value)"]),
                    Seen(id: id, parameters: ["\(name("b", id))=\(value)"]), fallback]
        }
    }
}

/// A reader's published floor: the oldest version its current lookup may be checked against.
final class ReaderFloor: Sendable {
    let version = Atomic<UInt64>(UInt64.max)
}

/// Starts a thread running `body`.
private func spawn(_ body: @escaping @Sendable () -> Void) -> pthread_t {
    final class Box {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }
    var thread = pthread_t()
    let box = Unmanaged.passRetained(Box(body)).toOpaque()
    let status = pthread_create(&thread, nil, { argument in
        let box = Unmanaged<Box>.fromOpaque(argument!).takeRetainedValue()
        box.body()
        return nil
    }, box)
    precondition(status == 0, "pthread_create failed: \(status)")
    return thread
}
