import CFastRouter
import Histogram

/// Readers' throughput with and without a writer changing the table.
struct WriterFigures: Sendable, Codable {
    var readerThreads: Int
    /// Route adds per second the writer aimed at (each followed by one remove).
    var targetAddsPerSecond: Int
    /// The readers' lookups per second alone and with the writer, in the pair of phases whose
    /// ratio is the median (see `Updates.writerPairs`).
    var readersAlone: Double
    var readersWithWriter: Double
    /// readersWithWriter / readersAlone of that median pair.
    var retained: Double
    /// The ratio of every pair, in the order they ran.
    var pairRatios: [Double]
    /// Adds (and as many removes) per second the writer achieved.
    var achievedAddsPerSecond: Double
    var writerErrors: Int
}

/// Latency of one add and one remove on a router holding the whole set, no readers running.
struct UpdateFigures: Sendable, Codable {
    var routes: Int
    var samples: Int
    var addP50Microseconds: Double
    var addP99Microseconds: Double
    var addMaxMicroseconds: Double
    var removeP50Microseconds: Double
    var removeP99Microseconds: Double
    var removeMaxMicroseconds: Double
}

/// Every route of a scale set removed one by one through the C API (sets of a million routes):
/// what the router holds then, against what a new empty router holds.
struct RemovalFigures: Sendable, Codable {
    var routes: Int
    var seconds: Double
    /// The router's live bytes once built, once emptied, and a new empty router's: each the
    /// process's live bytes with that router less those without it.
    var builtBytes: Int64
    var emptiedBytes: Int64
    var newEmptyBytes: Int64
    var failures: Int

    /// (emptied - new) over built: docs/SEMANTICS.md §6 wants it within ±1%.
    var leftShare: Double { Double(emptiedBytes - newEmptyBytes) / Double(max(builtBytes, 1)) }
}

enum Updates {
    /// Route ids for benchmark-added routes: far above any set's indices.
    static let firstID: UInt64 = 1 << 48

    /// Builds `set` by single C adds in a router of its own, removes every route one call each
    /// (ids are the routes' indexes), then frees it and makes a new empty router, measuring the
    /// process's live bytes at each step.
    static func removeAll(_ set: RouteSet) throws(BuildFailure) -> RemovalFigures {
        var contender: FastRouterCAPI? = try FastRouterCAPI(set: set)
        let built = contender!.build.heapBytes
        var failures = 0
        let start = Clock.now()
        for index in set.routes.indices where !contender!.remove(id: UInt64(index)) { failures += 1 }
        let seconds = Clock.seconds(since: start)
        MemoryProbe.trim()
        let emptied = MemoryProbe.heapInUse()
        contender = nil
        MemoryProbe.trim()
        let without = MemoryProbe.heapInUse()
        let fresh = fr_router_new(0)
        MemoryProbe.trim()
        let withNew = MemoryProbe.heapInUse()
        fr_router_free(fresh)
        return RemovalFigures(routes: set.routes.count, seconds: seconds, builtBytes: built, emptiedBytes: emptied - without,
                              newEmptyBytes: withNew - without, failures: failures)
    }

    /// A fresh route next to the set's own routes: under an existing first segment when the
    /// set has one, so the update walks a populated part of the trie.
    static func prefix(beside set: RouteSet) -> String {
        let first = set.routes.lazy.compactMap { spec -> Substring? in
            guard spec.pattern.hasPrefix("/") else { return nil }
            return spec.pattern.split(separator: "/").first
        }.first(where: { !$0.contains(where: { "{}:*()%".contains($0) }) })
        return first.map { "/\($0)" } ?? ""
    }

    static func pattern(number: Int, prefix: String) -> String {
        "\(prefix)/bench-update-\(number)/items/:id"
    }

    /// Pairs of reader phases, alone and with the writer, run one after another, the order
    /// swapped every other pair so that a slow drift of the host's load favours neither phase.
    /// A burst of load from elsewhere on a shared machine then skews one or two pairs, not the
    /// figure: the figure is the pair with the median ratio.
    static let writerPairs = 5

    /// Readers on `readerThreads` threads, alone and then with a writer that adds one route
    /// and removes the oldest extra one every `1 / addsPerSecond` seconds, ``writerPairs`` times.
    static func writerLoad<C: MutableContender>(_ contender: C, set: RouteSet, readerThreads: Int,
                                                seconds: Double, addsPerSecond: Int = 1000) -> WriterFigures {
        let count = set.requests.count
        let prefix = self.prefix(beside: set)
        var adds = 0
        var errors = 0
        var live: [UInt64] = []
        var writerSeconds = 0.0
        var pairs: [(alone: Double, withWriter: Double)] = []
        for pair in 0..<writerPairs {
            let aloneFirst = pair % 2 == 0
            var alone = aloneFirst ? Throughput.readers(contender, threads: readerThreads, count: count, seconds: seconds) : 0
            let withWriter = Throughput.readers(contender, threads: readerThreads, count: count, seconds: seconds) { stop in
                let start = Clock.now()
                let interval = UInt64(1e9 / Double(addsPerSecond))
                var deadline = start
                while deadline < stop {
                    let id = firstID + UInt64(adds)
                    if contender.add(pattern: pattern(number: adds, prefix: prefix), id: id) == nil {
                        live.append(id)
                    } else {
                        errors += 1
                    }
                    adds += 1
                    if live.count > 64 { if !contender.remove(id: live.removeFirst()) { errors += 1 } }
                    deadline += interval
                    Clock.sleep(until: deadline)
                }
                writerSeconds += Clock.seconds(since: start)
            }
            if !aloneFirst { alone = Throughput.readers(contender, threads: readerThreads, count: count, seconds: seconds) }
            pairs.append((alone, withWriter))
        }
        for id in live { contender.remove(id: id) }
        func ratio(_ pair: (alone: Double, withWriter: Double)) -> Double {
            pair.alone > 0 ? pair.withWriter / pair.alone : 0
        }
        let median = pairs.sorted { ratio($0) < ratio($1) }[pairs.count / 2]
        return WriterFigures(readerThreads: readerThreads, targetAddsPerSecond: addsPerSecond,
                             readersAlone: median.alone, readersWithWriter: median.withWriter, retained: ratio(median),
                             pairRatios: pairs.map(ratio),
                             achievedAddsPerSecond: writerSeconds > 0 ? Double(adds) / writerSeconds : 0,
                             writerErrors: errors)
    }

    /// `samples` single adds, each followed by its remove, each timed alone.
    static func latency<C: MutableContender>(_ contender: C, set: RouteSet, samples: Int) -> UpdateFigures {
        var addTimes = Histogram<UInt64>(highestTrackableValue: 600_000_000_000, numberOfSignificantValueDigits: .three)
        var removeTimes = addTimes
        let prefix = self.prefix(beside: set)
        let patterns = (0..<samples).map { pattern(number: 1_000_000 + $0, prefix: prefix) }
        for (number, pattern) in patterns.enumerated() {
            let id = firstID + 1_000_000 + UInt64(number)
            let addStart = Clock.now()
            let failure = contender.add(pattern: pattern, id: id)
            addTimes.record(Clock.now() &- addStart)
            guard failure == nil else { continue }
            let removeStart = Clock.now()
            contender.remove(id: id)
            removeTimes.record(Clock.now() &- removeStart)
        }
        func micro(_ value: UInt64) -> Double { Double(value) / 1000 }
        return UpdateFigures(routes: set.routes.count, samples: samples,
                             addP50Microseconds: micro(addTimes.valueAtPercentile(50)),
                             addP99Microseconds: micro(addTimes.valueAtPercentile(99)),
                             addMaxMicroseconds: micro(addTimes.max),
                             removeP50Microseconds: micro(removeTimes.valueAtPercentile(50)),
                             removeP99Microseconds: micro(removeTimes.valueAtPercentile(99)),
                             removeMaxMicroseconds: micro(removeTimes.max))
    }
}
