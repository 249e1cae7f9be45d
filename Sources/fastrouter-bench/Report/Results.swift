import FastRouter

/// Everything a run measured; `--json` writes it as is.
struct RunReport: Sendable, Codable {
    var tool = "fastrouter-bench"
    var date: String
    var command: String
    var machine: MachineInfo
    var settings: Settings
    /// How allocations were counted and whether the counter passed its self-test.
    var allocationCounter: String
    var sets: [SetReport] = []
    /// Wrong answers from FastRouter and other errors that make the run fail.
    var failures: [String] = []
    var targets: [TargetCheck] = []

    struct Settings: Sendable, Codable {
        var secondsPerMeasurement: Double
        var repetitions: Int
        var maxThreads: Int
        var writerAddsPerSecond: Int
        var updateSamples: Int
        var quick: Bool
    }
}

/// One set's figures for every router.
struct SetReport: Sendable, Codable {
    var name: String
    var kind: RouteSet.Kind
    var summary: String
    var origin: String
    var routes: Int
    var requests: Int
    var routers: [RouterReport] = []
    /// FastRouter C API with a writer adding and removing routes.
    var writer: WriterFigures?
    /// FastRouter C API, single add and remove.
    var updates: UpdateFigures?
    /// FastRouter C API, every route removed one by one (sets of a million routes).
    var removal: RemovalFigures?
    /// `Matcher` lookups on a table built by single adds against one built as a batch, each in
    /// a process of its own (sets of a million routes), or why there is no such figure.
    var buildOrder: BuildOrderFigures?
    var buildOrderNote: String?
    /// The same list read with its methods (route lists, `--routes` files with methods).
    var withMethods: MethodRowsReport?

    func router(_ kind: RouterKind) -> RouterReport? { routers.first { $0.router == kind } }
}

/// A set's rows with methods: each line of its list a route of its own methods, each request
/// looked up with its method (docs/SEMANTICS.md §3.7). `ratioToCAPI` and `pairedRatio` of these
/// rows compare with the C API row with methods.
struct MethodRowsReport: Sendable, Codable {
    /// Routes registered: one per line of the list (GitHub: 203).
    var routes: Int
    /// Distinct patterns among them (GitHub: 142, the set's routes without methods).
    var paths: Int
    var requests: Int
    var routers: [RouterReport]
    /// The C API with a method against the set's C API row without one, on the same URLs.
    var methodCost: MethodCost?

    func router(_ kind: RouterKind) -> RouterReport? { routers.first { $0.router == kind } }
}

/// What a method costs a C API lookup: the C API row with methods against the C API row of the
/// same URLs without them (docs/SEMANTICS.md §6: at most 1.1×).
struct MethodCost: Sendable, Codable {
    /// The two rows' ns/lookup, with over without.
    var ratio: Double
    /// The median of `pairedRatios`: runs of the two taken in turns, as the "in turns" column.
    var pairedRatio: Double?
    var pairedRatios: [Double] = []

    /// The figure the target reads: in turns where there is one.
    var compared: (ratio: Double, inTurns: Bool) { pairedRatio.map { ($0, true) } ?? (ratio, false) }
}

/// One router on one set.
struct RouterReport: Sendable, Codable {
    enum Status: String, Sendable, Codable {
        case measured
        /// The router cannot express the set (or is not installed); `note` says why.
        case skipped
        /// The router answered a request wrongly; for FastRouter this fails the run.
        case wrongAnswer = "wrong-answer"
        case buildFailed = "build-failed"
    }

    var router: RouterKind
    var status: Status
    var note: String?
    var build: BuildCost?
    var bytesPerRoute: Double?
    /// Where FastRouter's bytes go, part by part (scale sets only).
    var memory: [MemoryPart]?
    var lookups: LookupFigures?
    var threads: [ThreadFigure] = []
    /// `nanosecondsPerLookup` over the FastRouter C API's on the same set: the quotient of two
    /// figures of the table's ns/lookup column, each from its router's own runs.
    var ratioToCAPI: Double?
    /// The median of `pairedRatios` (the table's "in turns" column): a measurement of its own,
    /// so it can differ a little from `ratioToCAPI`. `nil` for the C API itself and on sets
    /// whose ratios are not taken in turns.
    var pairedRatio: Double?
    /// This router's CPU time per lookup over the C API's, one ratio per round of runs taken in
    /// turns with it (empty for the C API itself).
    var pairedRatios: [Double] = []
    /// Every wrong answer, and how many there were.
    var wrongAnswers: [WrongAnswer] = []
    var wrongAnswerCount = 0

    var nanosecondsPerLookup: Double? { lookups?.nanosecondsPerLookup }

    /// The ratio to the C API the targets read: the one taken in turns where there is one (load
    /// from elsewhere moves it least), else the quotient of the ns/lookup figures.
    var comparedToCAPI: (ratio: Double, inTurns: Bool)? {
        if let pairedRatio { return (pairedRatio, true) }
        return ratioToCAPI.map { ($0, false) }
    }
}

/// One part of a FastRouter table's memory (`MemoryBreakdown`), per route of its set.
struct MemoryPart: Sendable, Codable {
    var name: String
    var bytes: Int
    var items: Int
    var bytesPerRoute: Double

    /// The parts of `breakdown` for a set of `routes` routes.
    static func parts(_ breakdown: MemoryBreakdown, routes: Int) -> [MemoryPart] {
        breakdown.parts.map { MemoryPart(name: $0.name, bytes: $0.bytes, items: $0.items,
                                         bytesPerRoute: Double($0.bytes) / Double(max(routes, 1))) }
    }
}
