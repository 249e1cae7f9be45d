import FastRouter
import Foundation
import Testing

/// Collects problems seen on worker threads; `#expect` runs once, on the test's thread.
final class ConcurrencyProblemLog: @unchecked Sendable {
    private let lock = NSLock()
    private var problems: [String] = []
    private var total = 0
    private var counters: [String: Int] = [:]

    func record(_ problem: String) {
        lock.lock()
        defer { lock.unlock() }
        total += 1
        if problems.count < 10 { problems.append(problem) }
    }

    func count(_ key: String, _ amount: Int = 1) {
        lock.lock()
        defer { lock.unlock() }
        counters[key, default: 0] += amount
    }

    var snapshot: (total: Int, first: [String], counters: [String: Int]) {
        lock.lock()
        defer { lock.unlock() }
        return (total, problems, counters)
    }
}

/// Runs each body on its own thread and waits for all of them.
func runOnOwnThreads(_ bodies: [@Sendable () -> Void]) {
    let group = DispatchGroup()
    for body in bodies {
        group.enter()
        let thread = Thread {
            body()
            group.leave()
        }
        thread.start()
    }
    group.wait()
}

/// docs/SEMANTICS.md §3.5: readers never block and see the table before or after each update, never between.
@Suite struct ConcurrencyTests {
    static let churnSlots = 32
    static let duration: Duration = .milliseconds(1200)

    /// Writer: toggles churn routes one at a time, a two-route batch sharing id 50, and a grouped route.
    /// Readers: every answer must be one that some version of the table gives.
    @Test func readersSeeWholeVersionsWhileAWriterChurns() throws {
        let router = Router<Int>()
        try router.add("/stable/:id", id: 1, value: 1)
        try router.add("/pair/:x", id: 2, value: 2)
        try router.add("/grp/*rest", id: 3, value: 3)
        let log = ConcurrencyProblemLog()
        let deadline = ContinuousClock.now + Self.duration

        let writer: @Sendable () -> Void = {
            var present = [Bool](repeating: false, count: Self.churnSlots)
            var pairPresent = false
            var groupPresent = false
            var step = 0
            while ContinuousClock.now < deadline {
                step += 1
                let slot = step % Self.churnSlots
                do {
                    if present[slot] {
                        let removed = router.remove(id: UInt64(1000 + slot))
                        if removed != 1 { log.record("remove churn \(slot) removed \(removed)") }
                    } else {
                        try router.add("/churn/\(slot)/x/:tail", id: UInt64(1000 + slot), value: slot)
                    }
                    present[slot].toggle()
                    if step % 7 == 0 {
                        if pairPresent {
                            let removed = router.remove(id: 50)
                            if removed != 2 { log.record("remove pair removed \(removed)") }
                        } else {
                            try router.add(contentsOf: [
                                Route("/pair/{x:alpha}", id: 50, value: 50),
                                Route("/pair/:x", priority: 1, id: 50, value: 51),
                            ])
                        }
                        pairPresent.toggle()
                    }
                    if step % 11 == 0 {
                        if groupPresent {
                            let removed = router.remove(id: 60)
                            if removed != 1 { log.record("remove group removed \(removed)") }
                        } else {
                            try router.add("/grp(/a)(/b)", id: 60, value: 60)
                        }
                        groupPresent.toggle()
                    }
                    log.count("writes")
                } catch {
                    log.record("writer step \(step): \(error)")
                }
            }
            let expected = 3 + present.filter { $0 }.count + (pairPresent ? 2 : 0) + (groupPresent ? 1 : 0)
            if router.count != expected { log.record("count \(router.count) after the run, expected \(expected)") }
        }

        let reader: @Sendable (Int) -> Void = { worker in
            var n = worker * 7919
            var pairVersions = Set<[Int]>()
            while ContinuousClock.now < deadline {
                n += 1
                do {
                    let stable = try router.match("/stable/\(n)")
                    if stable?.routeID != 1 || stable?.value != 1 || stable?.parameters["id"] != "\(n)" {
                        log.record("stable /stable/\(n) gave \(String(describing: stable?.routeID))")
                    }
                    let slot = n % Self.churnSlots
                    let churn = try router.matches("/churn/\(slot)/x/t\(n)")
                    if churn.count > 1 {
                        log.record("churn slot \(slot): \(churn.count) candidates")
                    } else if let match = churn.first {
                        if match.routeID != UInt64(1000 + slot) || match.value != slot
                            || match.parameters.map({ "\($0.name)=\($0.value)" }) != ["tail=t\(n)"] {
                            log.record("churn slot \(slot) gave #\(match.routeID) value \(match.value) \(Array(match.parameters))")
                        }
                        log.count("churn hits")
                    }
                    // The batch is one update: both of its routes or neither, never half.
                    let pair = try router.matches("/pair/abc").map(\.value)
                    if pair != [2] && pair != [51, 50, 2] { log.record("pair saw \(pair)") }
                    pairVersions.insert(pair)
                    // The grouped route's expansions arrive and leave together with its id.
                    let grp = try router.matches("/grp/a/b").map(\.routeID)
                    if grp != [3] && grp != [60, 3] { log.record("grp /grp/a/b saw \(grp)") }
                    let grpBare = try router.matches("/grp").map(\.routeID)
                    if grpBare != [3] && grpBare != [60, 3] { log.record("grp /grp saw \(grpBare)") }
                    log.count("reads")
                } catch {
                    log.record("reader \(worker): \(error)")
                }
            }
            log.count("pair versions seen", pairVersions.count)
        }

        runOnOwnThreads([writer, { reader(1) }, { reader(2) }])

        let result = log.snapshot
        #expect(result.total == 0, "\(result.total) problems, first: \(result.first)")
        #expect(result.counters["writes", default: 0] > 10, "the writer made progress: \(result.counters)")
        #expect(result.counters["reads", default: 0] > 10, "readers made progress: \(result.counters)")
        #expect(result.counters["churn hits", default: 0] > 0, "readers saw churned routes: \(result.counters)")
    }

    /// Reusable matchers on several threads share one router; each keeps its own results.
    @Test func matchersOnSeveralThreadsKeepTheirOwnResults() throws {
        let router = Router<Int>()
        try router.add("/users/:id", id: 1, value: 1)
        try router.add("/users/:id/posts/{post:int}", id: 2, value: 2)
        try router.add("myapp://users/:id", id: 3, value: 3)
        try router.add("/users/me", id: 4, value: 4)
        let log = ConcurrencyProblemLog()
        let deadline = ContinuousClock.now + .milliseconds(600)

        let worker: @Sendable (Int) -> Void = { worker in
            let matcher = Matcher(router: router)
            var n = worker * 100_000
            while ContinuousClock.now < deadline {
                n += 1
                do {
                    guard try matcher.match("/users/u\(n)/posts/\(n)?w=\(worker)") else {
                        log.record("no match for posts \(n)")
                        continue
                    }
                    if matcher.routeID != 2 || matcher.parameter("id") != "u\(n)" || matcher.parameter("post") != "\(n)"
                        || matcher.parameter("w") != "\(worker)" {
                        log.record("worker \(worker) n \(n): #\(matcher.routeID) \(String(describing: matcher.parameter("id")))")
                    }
                    guard try matcher.match("myapp://users/me") else {
                        log.record("no match for myapp://users/me")
                        continue
                    }
                    var ids: [UInt64] = []
                    repeat { ids.append(matcher.routeID) } while matcher.next() && ids.count < 8
                    if ids != [3, 4, 1] { log.record("decline order \(ids)") }
                    log.count("reads")
                } catch {
                    log.record("worker \(worker): \(error)")
                }
            }
        }

        let churner: @Sendable () -> Void = {
            var k = 0
            while ContinuousClock.now < deadline {
                k += 1
                do {
                    try router.add("/other/\(k % 16)/:x", id: UInt64(500 + k % 16), value: 0)
                } catch {
                    _ = router.remove(id: UInt64(500 + k % 16))
                }
            }
        }

        runOnOwnThreads([{ worker(1) }, { worker(2) }, { worker(3) }, churner])
        let result = log.snapshot
        #expect(result.total == 0, "\(result.total) problems, first: \(result.first)")
        #expect(result.counters["reads", default: 0] > 10)
    }

    /// Invalid URLs on many threads at once only ever fail cleanly.
    @Test func badInputOnManyThreadsFailsCleanly() throws {
        let router = Router<Int>()
        try router.add("/*rest", id: 1, value: 1)
        let log = ConcurrencyProblemLog()
        let urls = ["/%G1", "/%00", "/%C3%28", String(repeating: "/a", count: 1025), "/ok/%41"]
        DispatchQueue.concurrentPerform(iterations: 4) { worker in
            for round in 0..<2000 {
                let url = urls[(round + worker) % urls.count]
                let result = routerOutcome { () throws(RouterError) in try router.match(url) }
                switch (url, result) {
                case ("/ok/%41", .success(let match)):
                    if match?.parameters["rest"] != "ok/A" { log.record("ok gave \(String(describing: match))") }
                case ("/ok/%41", .failure(let error)):
                    log.record("ok threw \(error)")
                case (_, .failure(let error)):
                    if error.code != .invalidURL { log.record("\(url.prefix(20)) threw \(error.code)") }
                case (_, .success):
                    log.record("\(url.prefix(20)) was accepted")
                }
            }
        }
        let result = log.snapshot
        #expect(result.total == 0, "\(result.total) problems, first: \(result.first)")
    }
}
