import CAllocCounter
import Histogram

/// Single-thread figures for one router on one set.
struct LookupFigures: Sendable, Codable {
    /// Median over the repetitions of the measuring thread's CPU time per lookup.
    var nanosecondsPerLookup: Double
    /// CPU ns per lookup of each repetition, in the order run.
    var repetitions: [Double]
    /// Wall-clock ns per lookup of the same repetitions (higher when other work took the core).
    var wallRepetitions: [Double]
    /// Per-lookup latency percentiles (clock cost subtracted).
    var p50: Double
    var p99: Double
    var p999: Double
    var latencySamples: Int
    /// Heap allocations counted on the measuring thread, divided by lookups.
    var allocationsPerLookup: Double
    var allocationLookups: Int
}

/// The single-thread measurements. Generic over the worker so each router's loop is compiled
/// for that router: no dynamic dispatch inside the timed region.
enum LookupTiming {
    /// One lookup of every request, in order.
    @inline(__always)
    static func pass<W: LookupWorker>(_ worker: inout W, count: Int) -> UInt64 {
        worker.run(from: 0, lookups: count, count: count)
    }

    /// ns per lookup: warm-up, then `repetitions` timed runs of whole passes over the requests,
    /// each timed by the thread's CPU clock and by the wall clock.
    static func nanoseconds<W: LookupWorker>(_ worker: inout W, count: Int, repetitions: Int,
                                             seconds: Double) -> (median: Double, runs: [Double], wall: [Double]) {
        // Warm-up: caches, branch predictors, lazily grown buffers; also sizes the repetitions.
        let warmStart = Clock.now()
        var warmPasses = 0
        repeat {
            Sink.consume(pass(&worker, count: count))
            warmPasses += 1
        } while Clock.seconds(since: warmStart) < seconds / 5 || warmPasses < 2
        let passSeconds = Clock.seconds(since: warmStart) / Double(warmPasses)
        let passesPerRun = max(1, Int((seconds / Double(repetitions)) / max(passSeconds, 1e-9)))
        var runs: [Double] = []
        var wall: [Double] = []
        let lookups = Double(passesPerRun * count)
        for _ in 0..<repetitions {
            let cpuStart = Clock.threadCPUTime()
            let start = Clock.now()
            for _ in 0..<passesPerRun { Sink.consume(pass(&worker, count: count)) }
            let elapsed = Clock.now() &- start
            let cpu = Clock.threadCPUTime() &- cpuStart
            runs.append(Double(cpu) / lookups)
            wall.append(Double(elapsed) / lookups)
        }
        return (runs.sorted()[runs.count / 2], runs, wall)
    }

    /// Per-lookup latency: each lookup timed alone, the clock's own cost subtracted.
    static func latency<W: LookupWorker>(_ worker: inout W, count: Int, seconds: Double) -> Histogram<UInt64> {
        var histogram = Histogram<UInt64>(highestTrackableValue: 60_000_000_000, numberOfSignificantValueDigits: .three)
        let overhead = Clock.readCost
        let start = Clock.now()
        let budget = UInt64(seconds * 1e9)
        var accumulated: UInt64 = 0
        repeat {
            for index in 0..<count {
                let before = Clock.now()
                accumulated &+= worker.lookup(index)
                let after = Clock.now()
                let elapsed = after &- before
                histogram.record(elapsed > overhead ? elapsed - overhead : 0)
            }
        } while Clock.now() &- start < budget
        Sink.consume(accumulated)
        return histogram
    }

    /// Heap allocations per lookup, counted on this thread around at least `minimum` lookups
    /// of a worker that is already warm.
    static func allocations<W: LookupWorker>(_ worker: inout W, count: Int, minimum: Int = 2000) -> (perLookup: Double, lookups: Int) {
        let passes = max(1, (minimum + count - 1) / count)
        var accumulated: UInt64 = 0
        alloc_counter_begin()
        for _ in 0..<passes { accumulated &+= pass(&worker, count: count) }
        let allocations = alloc_counter_end()
        Sink.consume(accumulated)
        return (Double(allocations) / Double(passes * count), passes * count)
    }

    /// All single-thread figures, in an order where each step finds the worker warm.
    static func measure<W: LookupWorker>(_ worker: inout W, count: Int, seconds: Double,
                                         repetitions: Int) -> LookupFigures {
        let (median, runs, wall) = nanoseconds(&worker, count: count, repetitions: repetitions, seconds: seconds)
        let (allocations, allocationLookups) = self.allocations(&worker, count: count)
        let histogram = latency(&worker, count: count, seconds: seconds / 2)
        return LookupFigures(nanosecondsPerLookup: median, repetitions: runs, wallRepetitions: wall,
                             p50: Double(histogram.valueAtPercentile(50)), p99: Double(histogram.valueAtPercentile(99)),
                             p999: Double(histogram.valueAtPercentile(99.9)), latencySamples: Int(histogram.totalCount),
                             allocationsPerLookup: allocations, allocationLookups: allocationLookups)
    }
}

/// One router's timed run, ready to be taken in turns with another router's: ratios between
/// routers then come from runs next to each other in time, so a burst of load from elsewhere
/// on a shared host slows both sides of a ratio instead of one router's whole measurement.
/// Type-erased so that routers of different types share one list; the timed loop itself is
/// compiled for each router, as in ``LookupTiming/nanoseconds(_:count:repetitions:seconds:)``.
final class TurnTimer {
    private let run: () -> Double

    /// A timer over `worker` of `contender`, which it keeps alive: the worker the router's own
    /// figures were measured with, so that both use the same buffers at the same addresses
    /// (a fresh match object elsewhere in memory can run a tenth faster or slower). One run
    /// lasts about `seconds / runs`, sized on a warm-up.
    init<C: Contender>(_ contender: C, worker: C.Worker, count: Int, seconds: Double, runs: Int) {
        let box = WorkerBox(worker: worker, count: count)
        box.calibrate(secondsPerRun: seconds / Double(max(runs, 1)))
        run = { withExtendedLifetime(contender) { box.run() } }
    }

    /// The CPU time per lookup of one run, in ns.
    func time() -> Double { run() }

    private final class WorkerBox<W: LookupWorker> {
        var worker: W
        let count: Int
        var passes = 1

        init(worker: W, count: Int) {
            self.worker = worker
            self.count = count
        }

        func calibrate(secondsPerRun: Double) {
            let start = Clock.now()
            var warmPasses = 0
            repeat {
                Sink.consume(LookupTiming.pass(&worker, count: count))
                warmPasses += 1
            } while Clock.seconds(since: start) < secondsPerRun || warmPasses < 2
            let passSeconds = Clock.seconds(since: start) / Double(warmPasses)
            passes = max(1, Int(secondsPerRun / max(passSeconds, 1e-9)))
        }

        func run() -> Double {
            // One pass untimed first: the other router's run has used the caches meanwhile.
            Sink.consume(LookupTiming.pass(&worker, count: count))
            let cpuStart = Clock.threadCPUTime()
            for _ in 0..<passes { Sink.consume(LookupTiming.pass(&worker, count: count)) }
            return Double(Clock.threadCPUTime() &- cpuStart) / Double(passes * count)
        }
    }

    /// `rounds` runs of each timer in turn (the order swapped every other round) and the ratio
    /// `other / reference` of each round.
    static func pairedRatios(_ other: TurnTimer, to reference: TurnTimer, rounds: Int) -> [Double] {
        (0..<rounds).map { round in
            var referenceTime = 0.0
            var otherTime = 0.0
            if round % 2 == 0 {
                referenceTime = reference.time()
                otherTime = other.time()
            } else {
                otherTime = other.time()
                referenceTime = reference.time()
            }
            return referenceTime > 0 ? otherTime / referenceTime : 0
        }
    }
}
