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
    /// Buffers of the last registration call, reused by the next (see ``RouterCore/add(_:)``).
    var spareBatch: BatchPreparation?
    /// Most parameters of any route registered so far: the captures a walk may record. Never
    /// lowered, so a reader's buffers sized for one version suit every later one.
    var maxCaptures = 0
    /// Versions of the tables replaced while readers kept them for declines.
    var retired: [RetiredVersion] = []

    /// Releases what the last grace period freed; O(readers), never waits.
    mutating func reclaimPayloads(router: UInt) {
        guard let release = releasePayload else { return }
        reclaimer.advance(router: router, release: release)
    }
}
