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

    func router(_ kind: RouterKind) -> RouterReport? { routers.first { $0.router == kind } }
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
    var lookups: LookupFigures?
    var threads: [ThreadFigure] = []
    /// ns per lookup over the FastRouter C API's on the same set: the median of `pairedRatios`.
    var ratioToCAPI: Double?
    /// This router's CPU time per lookup over the C API's, one ratio per round of runs taken in
    /// turns with it (empty for the C API itself).
    var pairedRatios: [Double] = []
    /// Every wrong answer, and how many there were.
    var wrongAnswers: [WrongAnswer] = []
    var wrongAnswerCount = 0

    var nanosecondsPerLookup: Double? { lookups?.nanosecondsPerLookup }
}
