/// The routers a run can measure, in the order the table lists them.
enum RouterKind: String, CaseIterable, Codable, Sendable {
    case fastRouterC = "FastRouter C API"
    case fastRouterMatcher = "FastRouter Matcher"
    case fastRouterSwift = "FastRouter Router.match"
    case routingKit = "routing-kit TrieRouter"
    case r3 = "r3"

    /// FastRouter's own interfaces: a wrong answer from one of them fails the run.
    var isFastRouter: Bool {
        switch self {
        case .fastRouterC, .fastRouterMatcher, .fastRouterSwift: return true
        case .routingKit, .r3: return false
        }
    }

    /// The name `--routers` takes.
    var option: String {
        switch self {
        case .fastRouterC: return "c"
        case .fastRouterMatcher: return "matcher"
        case .fastRouterSwift: return "swift"
        case .routingKit: return "routing-kit"
        case .r3: return "r3"
        }
    }

    /// A short label for narrow table columns and the SVG legend.
    var shortName: String {
        switch self {
        case .fastRouterC: return "FR C API"
        case .fastRouterMatcher: return "FR Matcher"
        case .fastRouterSwift: return "FR Router.match"
        case .routingKit: return "routing-kit"
        case .r3: return "r3"
        }
    }
}

/// What a router answered for one request, read outside any timed region.
struct Answer {
    /// Index of the route reached, or `nil` for no route.
    var route: Int?
    /// Captured pairs: every pair for FastRouter, the path pairs for peers.
    var parameters: [Parameter]
    /// A status other than match / no match (an invalid-URL error, say).
    var failure: String?
}

/// A router built from one route set. Shared by every thread of a measurement, so it must be
/// safe to read from many threads at once; the per-thread state lives in its workers.
protocol Contender: AnyObject, Sendable {
    associatedtype Worker: LookupWorker
    /// State for one thread: a reusable match object, a match entry, a parameters bag.
    func makeWorker() -> Worker
}

/// One thread's handle on a contender.
protocol LookupWorker {
    /// The timed operation: look request `index` up and capture its parameters. Returns a value
    /// that depends on the answer, so the compiler cannot drop the work.
    mutating func lookup(_ index: Int) -> UInt64
    /// The same lookup, reported in full for the correctness gate (never timed).
    mutating func answer(_ index: Int) -> Answer
    /// `lookups` lookups from request `first` on, wrapping around after request `count - 1`:
    /// the timed loops. A router called through C runs them in C (`CBenchLoops`), so no Swift
    /// sits between its calls.
    mutating func run(from first: Int, lookups: Int, count: Int) -> UInt64
}

extension LookupWorker {
    /// The loop in Swift, for the Swift interfaces and routing-kit.
    @inline(__always)
    mutating func run(from first: Int, lookups: Int, count: Int) -> UInt64 {
        var accumulated: UInt64 = 0
        var index = first
        for _ in 0..<lookups {
            accumulated &+= lookup(index)
            index += 1
            if index == count { index = 0 }
        }
        return accumulated
    }
}

/// A contender whose routes can change while readers run (FastRouter only).
protocol MutableContender: Contender {
    /// Adds `pattern` under `id`; returns an error message on failure.
    func add(pattern: String, id: UInt64) -> String?
    /// Removes every route with `id`; `false` when none was there.
    @discardableResult func remove(id: UInt64) -> Bool
}

/// A router whose build was measured when it was created.
protocol PeerBuild {
    var build: BuildCost { get }
}

extension RoutingKitPeer: PeerBuild {}
extension R3Peer: PeerBuild {}
