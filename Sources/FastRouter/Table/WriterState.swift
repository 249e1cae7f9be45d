/// Everything only the (single) writer of a ``RouterCore`` touches, under its lock.
struct WriterState: ~Copyable {
    /// The registered routes.
    var routes = RouteStore()
    /// Compiled regexes shared by every route using the same source, with their use counts.
    var regexes: [String: (regex: CompiledRegex, uses: Int)] = [:]
    /// Partial-segment templates shared by every route using the same shape, with their use counts.
    var templates: [[DuplicateKey.Piece]: (template: PartialTemplate, uses: Int)] = [:]
    /// The next route's registration order.
    var nextSequence: UInt64 = 1
    /// Payloads of removed routes, released once no reader can hold them.
    var reclaimer = PayloadReclaimer()
    var releasePayload: (@Sendable (UnsafeMutableRawPointer) -> Void)?
    /// What a registration call collects, its buffers kept for the next (see ``RouterCore/add(_:)``).
    var preparation = BatchPreparation()
    /// The editor of the change under way, used where it lies; between changes it keeps its
    /// buffers for the next (see ``TreeEditor/end()``).
    var editor = TreeEditor()
    /// Most parameters of any route registered so far: the captures a walk may record. Never
    /// lowered, so a reader's buffers sized for one version suit every later one.
    var maxCaptures = 0
    /// Versions of the tables replaced and not freed yet: waiting for a grace period (see
    /// ``PublishedTables/publish(_:maxCaptures:router:retired:waits:)``) or kept for readers
    /// that pin them for declines.
    var retired = RetiredVersions()
    /// The distinct method sets of registered routes, any method first: a route's record holds
    /// an index here (``RouteStore/Record/methodSet``). Never shrinks.
    var methodSets: [MethodSet] = [.any]
    private var methodSetIndexes: [MethodSet: UInt16] = [.any: 0]

    /// The index of `methods` in ``methodSets``, adding it when new.
    /// - Throws: `.invalidArgument` past 65 536 distinct method sets.
    mutating func methodSetIndex(_ methods: MethodSet) throws(RouterError) -> UInt16 {
        if methods.isAny { return 0 }
        if let index = methodSetIndexes[methods] { return index }
        guard methodSets.count <= Int(UInt16.max) else {
            throw RouterError(.invalidArgument, offset: 0, "too many distinct method sets in one router (65536)")
        }
        let index = UInt16(methodSets.count)
        methodSets.append(methods)
        methodSetIndexes[methods] = index
        return index
    }

    /// Releases what the last grace period freed; O(readers), never waits.
    mutating func reclaimPayloads(router: UInt) {
        guard let release = releasePayload else { return }
        reclaimer.advance(router: router, release: release)
    }
}
