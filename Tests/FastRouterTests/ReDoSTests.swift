import FastRouter
import Synchronization
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// docs/SEMANTICS.md §3.4: PCRE2 runs under match and depth limits, so a catastrophic regex costs a bounded
/// time per lookup, counts in the router's statistics, fails to match (later candidates still
/// answer), and never stalls other threads; registering huge or deeply nested regexes is bounded.
///
/// The time bounds are hang guards, not benchmarks: a lookup that hits the match limit takes about
/// a millisecond; one second leaves room for sanitizers and a loaded machine.
@Suite struct ReDoSTests {
    static let bound: Duration = .seconds(1)

    /// `(a+)+$` against `a…ab`: exponential backtracking without limits.
    static func catastrophicURL(_ length: Int) -> String {
        "/redos/" + String(repeating: "a", count: length) + "b"
    }

    static func router() throws -> Router<Int> {
        let router = Router<Int>()
        try router.add("/redos/{x:(a+)+$}", id: 1, value: 1)
        try router.add("/redos/*rest", priority: -1, id: 2, value: 2)
        try router.add("/plain/:p", id: 3, value: 3)
        return router
    }

    @Test(arguments: [28, 200, 5_000, 60_000])
    func catastrophicLookupIsBoundedCountedAndDeclined(length: Int) throws {
        let router = try Self.router()
        let url = Self.catastrophicURL(length)
        let hitsBefore = router.statistics.regexLimitHits
        var matches: [Match<Int>] = []
        let elapsed = try ContinuousClock().measure { matches = try router.matches(url) }
        #expect(elapsed < Self.bound, "\(length + 1)-byte segment took \(elapsed)")
        // The constraint fails, so only the wildcard fallback answers.
        #expect(matches.map(\.routeID) == [2])
        #expect(router.statistics.regexLimitHits > hitsBefore)
        // A segment the regex accepts still matches it.
        #expect(try router.match("/redos/" + String(repeating: "a", count: length))?.routeID == 1)
    }

    @Test func limitHitsAccumulateOnePerStoppedMatch() throws {
        let router = try Self.router()
        let matcher = Matcher(router: router)
        let start = router.statistics.regexLimitHits
        for _ in 0..<20 { #expect(try matcher.match(Self.catastrophicURL(40)) && matcher.routeID == 2) }
        #expect(router.statistics.regexLimitHits - start == 20)
        // Lookups that never reach the regex, or finish under the limit, count nothing.
        #expect(try matcher.match("/plain/x") && matcher.routeID == 3)
        #expect(try matcher.match("/redos/aaa") && matcher.routeID == 1)
        #expect(router.statistics.regexLimitHits - start == 20)
    }

    /// A HEAD request takes the HEAD and GET routes in one walk: its limit hit counts once, as
    /// does that of a request that ends in a 405.
    @Test func limitHitsCountOnceForAHeadRequest() throws {
        let router = Router<Int>()
        try router.add("/redos/{x:(a+)+$}", methods: [.head], value: 1)
        try router.add("/redos/*rest", methods: [.get], value: 2)
        let url = Self.catastrophicURL(40)
        for (method, expectedHits) in [(HTTPMethod.head, 1), (.get, 1), (.post, 1)] {
            let start = router.statistics.regexLimitHits
            let result = try router.match(url, method: method)
            #expect(router.statistics.regexLimitHits - start == expectedHits, "\(method)")
            switch method {
            case .post:
                if case .methodNotAllowed(let allowed) = result { #expect(allowed.headerValue == "GET, HEAD") }
                else { Issue.record("POST: expected 405, got \(result)") }
            default: #expect(result.match?.value == 2, "\(method)")
            }
        }
        let start = router.statistics.regexLimitHits
        #expect(try router.matches(url, method: .head).map(\.value) == [2])
        #expect(router.statistics.regexLimitHits - start == 1)
    }

    /// One thread loops on catastrophic lookups; another keeps matching and a writer keeps adding
    /// and removing routes: neither waits for the catastrophic lookups beyond their bounded cost.
    @Test func otherThreadsKeepWorkingDuringCatastrophicLookups() throws {
        final class Shared: Sendable {
            let stop = Atomic<Bool>(false)
            let attacks = Atomic<Int>(0)
            let slowest = Mutex<Duration>(.zero)
            let problems = Mutex<[String]>([])
        }
        let router = try Self.router()
        let shared = Shared()
        let attacker = spawnThread {
            let matcher = Matcher(router: router)
            while !shared.stop.load(ordering: .relaxed) {
                _ = try? matcher.match(Self.catastrophicURL(20_000))
                shared.attacks.add(1, ordering: .relaxed)
            }
        }
        let clock = ContinuousClock()
        let readerStart = clock.now
        let reader = spawnThread {
            let matcher = Matcher(router: router)
            for index in 0..<2_000 {
                let begin = clock.now
                let ok = (try? matcher.match("/plain/\(index)")) == true && matcher.parameter("p") == "\(index)"
                let took = begin.duration(to: clock.now)
                shared.slowest.withLock { $0 = max($0, took) }
                if !ok { shared.problems.withLock { $0.append("lookup \(index) of /plain failed") } }
            }
        }
        pthread_join(reader, nil)
        let readerTime = readerStart.duration(to: clock.now)
        var writerSlowest = Duration.zero
        for index in 0..<50 {
            let took = try clock.measure {
                try router.add("/churn/\(index)", id: 100, value: 100)
                router.remove(id: 100)
            }
            writerSlowest = max(writerSlowest, took)
        }
        shared.stop.store(true, ordering: .relaxed)
        pthread_join(attacker, nil)
        #expect(shared.problems.withLock { $0 }.isEmpty, "\(shared.problems.withLock { $0 })")
        #expect(shared.slowest.withLock { $0 } < Self.bound)
        #expect(readerTime < .seconds(20), "2,000 lookups took \(readerTime) beside the attacker")
        #expect(writerSlowest < Self.bound, "an add and remove took \(writerSlowest)")
        #expect(shared.attacks.load(ordering: .relaxed) > 0)
        #expect(router.statistics.regexLimitHits >= shared.attacks.load(ordering: .relaxed))
    }

    /// Huge, deeply nested or expensive regexes either compile quickly or fail with a clear error.
    @Test(arguments: [
        ("deep nesting", "/{x:" + String(repeating: "(", count: 4_000) + "a" + String(repeating: ")", count: 4_000) + "}"),
        ("nesting at PCRE2's limit", "/{x:" + String(repeating: "(", count: 240) + "a" + String(repeating: ")", count: 240) + "}"),
        ("long alternation", "/{x:" + Array(repeating: "(?:ab|cd)", count: 900).joined() + "}"),
        ("huge repetition", "/{x:(?:(?:a{65535}){65535}){65535}}"),
        ("nested quantifiers", "/{x:(?:(?:(?:a*)*)*)*b}"),
        ("recursion", "/{x:a(?R)?b}"),
        ("back-references", "/{x:(a*)*\\1\\1\\1$}"),
        ("many classes", "/{x:" + String(repeating: "[\\p{L}\\p{N}]", count: 700) + "}"),
        ("over the pattern limit", "/{x:" + String(repeating: "a", count: 8_200) + "}"),
    ])
    func registrationOfHugeOrNestedRegexesIsBounded(_ name: String, _ pattern: String) throws {
        let router = Router<Int>()
        try router.add("/redos/*rest", id: 2, value: 2)
        var outcome: RouterError?
        let elapsed = ContinuousClock().measure {
            do {
                try router.add(pattern, id: 1, value: 1)
            } catch let error as RouterError {
                outcome = error
            } catch {
                Issue.record("\(name): unexpected \(error)")
            }
        }
        #expect(elapsed < Self.bound, "\(name): registration took \(elapsed)")
        if let outcome {
            #expect(outcome.code == .invalidRegex || outcome.code == .invalidPattern, "\(name): \(outcome)")
            #expect(outcome.offset < pattern.utf8.count && !outcome.message.isEmpty, "\(name): \(outcome)")
            #expect(router.count == 1)
            return
        }
        // Registered: lookups against it stay bounded too.
        for url in ["/" + String(repeating: "a", count: 30_000) + "c", "/" + String(repeating: "ab", count: 5_000) + "x"] {
            let lookup = try ContinuousClock().measure { _ = try router.matches(url) }
            #expect(lookup < Self.bound, "\(name): lookup took \(lookup)")
        }
    }
}

/// Starts a thread running `body`; join it with `pthread_join`.
func spawnThread(_ body: @escaping @Sendable () -> Void) -> pthread_t {
    final class Box {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }
    var thread = pthread_t()
    let box = Unmanaged.passRetained(Box(body)).toOpaque()
    let status = pthread_create(&thread, nil, { argument in
        Unmanaged<Box>.fromOpaque(argument!).takeRetainedValue().body()
        return nil
    }, box)
    precondition(status == 0, "pthread_create failed: \(status)")
    return thread
}
