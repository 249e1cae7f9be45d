import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Lookups per second with several reader threads on one shared router.
struct ThreadFigure: Sendable, Codable {
    var threads: Int
    var lookupsPerSecond: Double
}

/// Start and stop signals shared by the readers of one measurement.
private final class Race: Sendable {
    let ready = Atomic<Int>(0)
    let started = Atomic<Bool>(false)
    let stopped = Atomic<Bool>(false)
    /// Sum over readers of lookups per second, in millionths, so it fits an atomic integer.
    let microRate = Atomic<Int>(0)
}

enum Throughput {
    /// Runs `threads` readers for `seconds`, each with its own worker, each starting at a
    /// different request; `during` runs on the calling thread between start and stop (a writer,
    /// or nothing). Returns the readers' total lookups per second.
    static func readers<C: Contender>(_ contender: C, threads: Int, count: Int, seconds: Double,
                                      during: (_ stop: UInt64) -> Void = { Clock.sleep(until: $0) }) -> Double {
        let race = Race()
        var handles: [NativeThread] = []
        for thread in 0..<threads {
            handles.append(NativeThread {
                var worker = contender.makeWorker()
                Sink.consume(LookupTiming.pass(&worker, count: count))
                race.ready.add(1, ordering: .releasing)
                while !race.started.load(ordering: .acquiring) { sched_yield() }
                var index = (count * thread) / max(threads, 1)
                var lookups = 0
                var accumulated: UInt64 = 0
                let chunk = 64
                let start = Clock.now()
                while !race.stopped.load(ordering: .relaxed) {
                    accumulated &+= worker.run(from: index, lookups: chunk, count: count)
                    index = (index + chunk) % count
                    lookups += chunk
                }
                let elapsed = Clock.seconds(since: start)
                Sink.consume(accumulated)
                race.microRate.add(Int(Double(lookups) / elapsed * 1e6), ordering: .relaxed)
            })
        }
        while race.ready.load(ordering: .acquiring) < threads { sched_yield() }
        race.started.store(true, ordering: .releasing)
        during(Clock.now() + UInt64(seconds * 1e9))
        race.stopped.store(true, ordering: .relaxed)
        for handle in handles { handle.join() }
        return Double(race.microRate.load(ordering: .relaxed)) / 1e6
    }

    /// Lookups per second on 1 … `maximum` threads.
    static func scaling<C: Contender>(_ contender: C, maximum: Int, count: Int, seconds: Double) -> [ThreadFigure] {
        (1...max(1, maximum)).map { threads in
            ThreadFigure(threads: threads, lookupsPerSecond: readers(contender, threads: threads, count: count, seconds: seconds))
        }
    }
}
