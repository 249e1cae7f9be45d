import Synchronization

/// A URL router: maps URLs to the best-matching registered route, its value and its parameters.
///
/// ```swift
/// let router = Router<String>()
/// try router.add("/users/:id", value: "user")
/// try router.add("myapp://settings(/:section)", value: "settings")
/// let match = try router.match("myapp://users/42?tab=posts")
/// match?.value                    // "user"
/// match?.parameters["id"]         // "42"
/// match?.parameters["tab"]        // "posts"
/// ```
///
/// Thread-safety: a router is safe to share. Any number of threads may match while others add or
/// remove routes; a lookup never blocks and sees the table either before or after each change.
/// `Router` is `Sendable` when `Value` is.
public final class Router<Value> {
    @usableFromInline package let core: RouterCore
    /// The routes' values, which the core's terminals point to.
    private let values: RouteValues<Value>
    private let nextAutomaticID = Atomic<UInt64>(UInt64.max - 1)

    /// The options the router was created with.
    public var options: RouterOptions { core.options }

    /// Creates an empty router.
    public init(options: RouterOptions = RouterOptions()) {
        let values = RouteValues<Value>()
        self.values = values
        core = RouterCore(options: options) { payload in values.release(payload) }
    }

    /// Registers a route.
    ///
    /// - Parameters:
    ///   - pattern: the route pattern (see the pattern language in the README).
    ///   - priority: higher priorities win before specificity is compared; default 0.
    ///   - id: the route id; several routes may share one. Defaults to a fresh id, counted down
    ///     from `UInt64.max - 1`.
    ///   - value: what a match of this route returns.
    /// - Returns: the route id.
    /// - Throws: ``RouterError`` with the byte offset of a pattern error, `.duplicateRoute`, or
    ///   `.outOfMemory` past 16M distinct parameter names in the process (names are never freed).
    /// - Complexity: O(pattern length).
    @discardableResult
    public func add(_ pattern: String, priority: Int32 = 0, id: UInt64? = nil, value: Value) throws(RouterError) -> UInt64 {
        try add(contentsOf: [Route(pattern, priority: priority, id: id, value: value)])[0]
    }

    /// Registers many routes at once: all of them, or none when one fails.
    ///
    /// - Returns: the route ids, in order.
    /// - Complexity: O(total pattern length); the fastest way to load a large table.
    @discardableResult
    public func add(contentsOf routes: [Route<Value>]) throws(RouterError) -> [UInt64] {
        var registrations: [RouterCore.Registration] = []
        registrations.reserveCapacity(routes.count)
        var ids: [UInt64] = []
        ids.reserveCapacity(routes.count)
        for route in routes {
            let id = route.id ?? nextAutomaticID.subtract(1, ordering: .relaxed).oldValue
            registrations.append(.init(text: route.pattern, priority: route.priority, id: id,
                                       payload: values.store(route.value, routeID: id),
                                       methods: route.methods))
            ids.append(id)
        }
        do {
            try core.add(registrations)
        } catch {
            for registration in registrations {
                values.release(registration.payload!)
            }
            throw error
        }
        return ids
    }

    /// Registers a route given as the C ABI takes it: the pattern's bytes (not necessarily
    /// UTF-8) and a comma-separated method list (empty for any method). For tests that send the
    /// Swift API what only C can.
    package func add(patternBytes: UnsafeBufferPointer<UInt8>, methodList: UnsafeBufferPointer<UInt8> = .init(start: nil, count: 0),
                     id: UInt64, value: Value) throws(RouterError) {
        let payload = values.store(value, routeID: id)
        do {
            try core.add(pattern: patternBytes, methods: methodList, priority: 0, id: id, payload: payload)
        } catch {
            values.release(payload)
            throw error
        }
    }

    /// Removes every route with `id` (every expansion of each).
    /// - Returns: the number of routes removed.
    @discardableResult
    public func remove(id: UInt64) -> Int {
        core.remove(id: id)
    }

    /// The number of routes as registered (a pattern with optional groups counts once).
    public var count: Int { core.count }

    /// Counters kept while matching.
    public var statistics: RouterStatistics {
        RouterStatistics(regexLimitHits: core.regexLimitHits.load(ordering: .relaxed))
    }

    /// The best match for `url`, or `nil` when no route matches.
    ///
    /// - Throws: ``RouterError`` `.invalidURL` for a malformed URL (docs/SEMANTICS.md §3.4).
    /// - Complexity: one lookup, plus the strings of the result that are read. For lookups
    ///   without allocation use a ``Matcher``.
    @inlinable @inline(__always)
    public func match(_ url: String) throws(RouterError) -> Match<Value>? {
        // Inlined, so the generic part (reading the value) is specialised in the caller, and
        // the URL's bytes and the thread's scratch are found there too: the lookup itself is not
        // generic, and one call does all of it but that read.
        // Tables without dynamic routes answer most paths by the whole path: a lookup of its own.
        let found = RouterCore.withLookupInput(core, url) { core, url, scratch in
            core.mayAnswerByPath ? core.bestMatchByPath(url, scratch) : core.bestMatch(url, scratch)
        }
        guard let payload = found.payload else {
            if found.status == .invalidURL { throw RouterError.invalidURL }
            return nil
        }
        return Match(found, value: RouteValues<Value>.value(at: payload))
    }

    /// Every route matching `url`, best first: the order in which a handler chain declines.
    ///
    /// - Throws: ``RouterError`` `.invalidURL` for a malformed URL.
    @inlinable
    public func matches(_ url: String) throws(RouterError) -> [Match<Value>] {
        var results: [Match<Value>] = []
        let status = core.withCandidates(of: url) { results.append(Match<Value>($0)) }
        if status == .invalidURL { throw RouterError.invalidURL }
        return results
    }
}

/// What ``RouterCore/bestMatch(_:_:)`` hands the caller's generic code: the route and the match's
/// parameters, and the route's payload, which this thread holds (see ``ReaderSlot``) until
/// ``release()``. Holds no counted reference of its own, so that passing it around costs nothing.
/// Four words, returned in registers: the status shares a word with the route id, which only a
/// found route has.
@usableFromInline
struct FoundMatch {
    /// The route id when `payload` is set, else the status's raw value.
    @usableFromInline let routeIDOrStatus: UInt64
    /// The route's slot in its router's ``RouteValues``, `nil` unless the status is `.found`.
    @usableFromInline let payload: UnsafeMutableRawPointer?
    /// The match's parameters, retained for the caller, which takes them over once.
    @usableFromInline let parameters: Unmanaged<ParameterStorage>?
    @usableFromInline let scratch: Unmanaged<MatchScratch>

    /// A found route's result.
    @inline(__always)
    init(routeID: UInt64, payload: UnsafeMutableRawPointer, parameters: Unmanaged<ParameterStorage>?,
         scratch: Unmanaged<MatchScratch>) {
        routeIDOrStatus = routeID
        self.payload = payload
        self.parameters = parameters
        self.scratch = scratch
    }

    /// Any other answer.
    @inline(__always)
    init(status: LookupStatus, scratch: Unmanaged<MatchScratch>) {
        routeIDOrStatus = UInt64(truncatingIfNeeded: status.rawValue)
        payload = nil
        parameters = nil
        self.scratch = scratch
    }

    /// The lookup's status.
    @inlinable
    var status: LookupStatus {
        payload != nil ? .found : LookupStatus(rawValue: Int32(truncatingIfNeeded: routeIDOrStatus)).unsafelyUnwrapped
    }

    /// The found route's id.
    @inlinable
    var routeID: UInt64 { routeIDOrStatus }

    /// Lets writers free the payload: the caller has copied what it reads of it.
    @inlinable @inline(__always)
    func release() {
        scratch._withUnsafeGuaranteedRef { $0.slot.drop() }
    }

    /// The methods the routes of the URL accept, after `.methodNotAllowed`; `nil` otherwise.
    @usableFromInline
    var allowed: AllowedMethods? {
        status == .methodNotAllowed ? scratch._withUnsafeGuaranteedRef { $0.allowedMethods } : nil
    }
}

extension RouterCore {
    /// The current candidate of `scratch` copied out of it when `status` is `.found`; then the
    /// scratch forgets it (as ``MatchScratch/clearResult()``, written out: one call less). Any
    /// other answer is left in the scratch, where ``FoundMatch/allowed`` reads a 405's methods,
    /// until the thread's next lookup clears it.
    @inline(__always)
    func found(_ status: LookupStatus, _ scratch: MatchScratch) -> FoundMatch {
        guard status == .found else {
            return FoundMatch(status: status, scratch: Unmanaged.passUnretained(scratch))
        }
        let state = scratch.state
        let payload = state.pointee.current.unsafelyUnwrapped.payload
        let found = FoundMatch(routeID: state.pointee.routeID, payload: payload,
                               parameters: ParameterStorage.make(state).map { Unmanaged.passRetained($0) },
                               scratch: Unmanaged.passUnretained(scratch))
        if state.pointee.leftovers { scratch.slot.unpin() }
        state.pointee.clearResult()
        return found
    }

    /// Ends a lookup whose candidates were copied out: forgets the result and lets writers release the
    /// payloads it held.
    @usableFromInline
    func endMatch(_ scratch: Unmanaged<MatchScratch>) {
        scratch._withUnsafeGuaranteedRef { scratch in
            scratch.clearResult()
            // The match owns its value now: removed routes' values need not wait for this thread.
            scratch.slot.drop()
        }
    }

    /// Matches `url` with this thread's scratch and calls `body` with the scratch on each
    /// candidate, best first. Returns the lookup's status.
    @usableFromInline
    func withCandidates(of url: String, method: HTTPMethod? = nil, _ body: (MatchScratch) -> Void) -> LookupStatus {
        ThreadScratch.withCurrent(scratchKey) { scratch in
            var status = matchAll(string: url, method: method, into: scratch)
            let first = status
            while status == .found {
                body(scratch)
                status = scratch.next()
            }
            endMatch(Unmanaged.passUnretained(scratch))
            return first
        }
    }
}

extension RouterError {
    /// The error of a malformed URL or one over a limit (docs/SEMANTICS.md §3.4).
    @usableFromInline
    static var invalidURL: RouterError { RouterError(.invalidURL, offset: 0, "the URL is malformed or over a limit") }
}

extension Router: @unchecked Sendable where Value: Sendable {}

extension Router where Value == Void {
    /// Registers a route without a value.
    @discardableResult
    public func add(_ pattern: String, priority: Int32 = 0, id: UInt64? = nil) throws(RouterError) -> UInt64 {
        try add(pattern, priority: priority, id: id, value: ())
    }
}

/// A route to register in a batch with ``Router/add(contentsOf:)``.
public struct Route<Value> {
    /// The route pattern.
    public var pattern: String
    /// The HTTP methods the route accepts; empty (the default) for any method.
    public var methods: [HTTPMethod]
    /// Higher wins before specificity; default 0.
    public var priority: Int32
    /// The route id, or `nil` for a fresh one.
    public var id: UInt64?
    /// What a match returns.
    public var value: Value

    /// Describes a route; `methods` empty for any method.
    public init(_ pattern: String, methods: [HTTPMethod] = [], priority: Int32 = 0, id: UInt64? = nil, value: Value) {
        self.pattern = pattern
        self.methods = methods
        self.priority = priority
        self.id = id
        self.value = value
    }
}

extension Route: Sendable where Value: Sendable {}

/// Counters a router keeps while matching.
public struct RouterStatistics: Sendable, Equatable {
    /// Regex constraints that hit PCRE2's match or depth limit and were treated as not matching.
    public var regexLimitHits: Int
}

extension Router {
    /// Where this router keeps its bytes, part by part (``RouterCore/memoryBreakdown()``), with
    /// its values' slots (``RouteValues``).
    package func memoryBreakdown() -> MemoryBreakdown {
        var breakdown = core.memoryBreakdown()
        breakdown.add("Swift values", bytes: values.byteCount, items: core.count)
        return breakdown
    }
}

/// Runs `body` on the UTF-8 bytes of `string` without copying native strings.
@inlinable @inline(__always)
package func withUTF8<R>(_ string: String, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
    if let result = string.utf8.withContiguousStorageIfAvailable(body) { return result }
    var copy = string
    return copy.withUTF8(body)
}
