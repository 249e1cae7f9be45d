import Synchronization

/// The untyped engine behind ``Router`` and the C ABI: tables, registration, removal, lookup.
///
/// Thread-safety: any number of threads may call ``match(url:into:)`` (each with its own
/// ``MatchScratch``) while others add or remove routes. Readers never block: the router keeps
/// two identical ``TableSide``s; a writer changes the one readers do not use, publishes it with
/// one atomic store, waits for readers still inside the old one to leave (a grace period, see
/// ``ReaderRegistry``), then applies the same change to the old one. Writers are serialized.
@usableFromInline
package final class RouterCore: @unchecked Sendable {
    package let options: RouterOptions
    let webSchemes: WebSchemes
    /// The tables, kept as two identical sides, and which one readers use.
    let tables = PublishedTables()
    let writer = Mutex(WriterState())
    /// Regex constraints that hit PCRE2's match or depth limit (docs/SEMANTICS.md §3.4).
    let regexLimitHits = Atomic<Int>(0)
    let routeCount = Atomic<Int>(0)
    /// Where parameter names are interned: the process-wide table, or a small one in tests.
    let names: NameTable.Store
    /// True when routes carry payloads that readers read after a lookup (the Swift router);
    /// such a reader announces it holds them until it drops them (see ``ReaderSlot``).
    private let holdsPayloads: Bool

    /// A router core; `releasePayload` releases a removed route's payload once no reader can
    /// hold it (nil when routes carry none, as through the C ABI).
    package init(options: RouterOptions, names: NameTable.Store = NameTable.shared,
         releasePayload: (@Sendable (UnsafeMutableRawPointer) -> Void)? = nil) {
        self.options = options
        self.names = names
        holdsPayloads = releasePayload != nil
        webSchemes = WebSchemes(options.webSchemes)
        writer.withLock { $0.releasePayload = releasePayload }
    }

    deinit {
        writer.withLock { state in
            guard let release = state.releasePayload else { return }
            // Every expansion of a route carries the route's one payload.
            for index in state.routes.liveIndexes {
                let first = state.routes.records[Int(index)].firstVariant
                if let payload = tables.published.variants[Int(first)].payload { release(payload) }
            }
            // No reader can use a router that is being freed.
            state.reclaimer.releaseAll(release: release)
        }
        tables.deallocate()
        webSchemes.deallocate()
    }

    /// Routes as registered (a route with optional groups counts once).
    package var count: Int { routeCount.load(ordering: .relaxed) }

    /// Payloads of removed routes not released yet (readers may still hold them).
    var retiredPayloadCount: Int { writer.withLock { $0.reclaimer.pendingCount } }

    /// This router's address: how readers' slots name the router they read.
    @inline(__always)
    var tag: UInt { UInt(bitPattern: ObjectIdentifier(self)) }

    // MARK: Publication

    /// Applies a change to both table sides, publishing it to readers in between (see
    /// ``PublishedTables/apply(router:_:)``). Writers call it under the writer lock.
    func apply<Failure: Error>(_ body: (inout TableSide) throws(Failure) -> Void) throws(Failure) {
        try tables.apply(router: tag, body)
    }

    /// Applies a large batch to one side and copies it to the other (see
    /// ``PublishedTables/applyBatch(router:_:)``).
    func applyBatch<Result>(_ body: (inout TableSide) throws(RouterError) -> Result) throws(RouterError) -> Result {
        try tables.applyBatch(router: tag, body)
    }

    // MARK: Lookup

    /// Finds every candidate for `url`, best first, and makes the best one current in `scratch`.
    /// Returns `.found`, `.noMatch` or `.invalidURL`.
    /// - Complexity: one pass over the URL plus the trie paths it can follow; no heap allocation
    ///   once `scratch` has served a lookup at least as large.
    package func match(url: UnsafeBufferPointer<UInt8>, into scratch: MatchScratch) -> LookupStatus {
        let state = scratch.state
        state.pointee.clearResult()
        let url = state.pointee.holdsURL(url) ? state.pointee.setAside(url) : url
        guard state.pointee.load(url: url, webSchemes: webSchemes, plusAsSpace: options.plusAsSpace) else { return .invalidURL }
        let regexScratch = scratch.regexScratch
        let rankBuffers = state.pointee.rankBuffers
        let scheme = state.pointee.scheme
        let limitHits = state.pointer(to: \.limitHits)!
        limitHits.pointee = 0
        scratch.slot.enter(router: tag)
        let side = tables.current
        // One walker serves both tables; built in place, it reads the URL from the scratch.
        let walker = TrieWalker(side: side.pointee, input: state.pointee.lookupInput(foldAll: options.caseInsensitivePaths),
                                candidates: state.pointer(to: \.candidates)!, regexScratch: regexScratch,
                                limitHits: limitHits)
        var groupStart = 0
        if let scheme {
            let root = side.pointee.root(forScheme: scheme, count: state.pointee.schemeLength)
            if root != 0 {
                walker.visit(root, 0)
                // Checked here: reaching the method through `pointee` copies the side first.
                if state.pointee.candidates.count > 1 {
                    side.pointee.sortCandidates(state.pointee.candidates.base, 0..<state.pointee.candidates.count,
                                                rankBuffers: rankBuffers, rankCapacity: MatchScratch.rankCapacity)
                }
                groupStart = state.pointee.candidates.count
            }
        }
        if scheme == nil || options.globalFallback {
            walker.visit(TableSide.globalRoot, 0)
            if state.pointee.candidates.count - groupStart > 1 {
                side.pointee.sortCandidates(state.pointee.candidates.base, groupStart..<state.pointee.candidates.count,
                                            rankBuffers: rankBuffers, rankCapacity: MatchScratch.rankCapacity)
            }
        }
        let candidateCount = state.pointee.candidates.count
        for index in 0..<candidateCount {
            let variant = side.pointee.variants.base + Int(state.pointee.candidates[index])
            let count = Int(variant.pointee.nameCount)
            var slotStart = -1
            if variant.pointee.hasPartial {
                // Slices of partial segments are found again by re-matching; plain layouts are static.
                slotStart = state.pointee.resolvedPositions.count
                let slots = state.pointee.resolvedPositions.extend(by: count)
                _ = side.pointee.parameterSlots(of: variant, walker.input, regexScratch: regexScratch, into: slots)
            }
            state.pointee.resolved.append(ResolvedCandidate(
                routeID: variant.pointee.routeID, payload: variant.pointee.payload, layout: variant.pointee.layout,
                record: variant.pointee.record, slotStart: Int32(slotStart), parameterCount: Int32(count),
                endsWithWildcard: variant.pointee.endsWithWildcard))
        }
        if holdsPayloads && candidateCount > 0 {
            scratch.slot.list(count: candidateCount) { state.pointee.resolved[$0].payload }
            scratch.slot.exit(holding: true)
        } else {
            scratch.slot.exit(holding: false)
        }
        if limitHits.pointee != 0 { regexLimitHits.add(limitHits.pointee, ordering: .relaxed) }
        guard candidateCount > 0 else { return .noMatch }
        state.pointee.activate(0)
        return .found
    }

    // MARK: Introspection

    /// The registered routes, in registration order.
    package var routes: [RouteRecord] { withStableSnapshot { records, _ in records } }

    /// The registered routes with `id`, in registration order.
    func routes(withID id: UInt64) -> [RouteRecord] {
        writer.withLock { state in state.routes.indexes(withID: id).map { record(state.routes, $0) } }
    }

    /// A stored route as introspection shows it; the caller holds the writer lock.
    private func record(_ store: borrowing RouteStore, _ index: UInt32) -> RouteRecord {
        let first = publishedSide.variants[Int(store.records[Int(index)].firstVariant)]
        return RouteRecord(id: first.routeID, priority: first.priority, pattern: store.pattern(of: index),
                           scheme: store.scheme(of: index), sequence: first.sequence, index: index)
    }

    /// Runs `body` on the registered routes (in registration order) and the current side, both
    /// read under one hold of the writer lock, so they describe the same version of the table.
    func withStableSnapshot<R>(_ body: ([RouteRecord], TableSide) -> R) -> R {
        writer.withLock { state in
            let records = state.routes.liveIndexes.map { record(state.routes, $0) }.sorted { $0.sequence < $1.sequence }
            return body(records, publishedSide)
        }
    }

    /// The side readers use; only unchanging while the caller holds the writer lock.
    var publishedSide: TableSide { tables.published }

    /// Runs `body` on the current side under the writer lock (no writer can change it meanwhile).
    func withStableSide<R>(_ body: (TableSide) -> R) -> R {
        writer.withLock { _ in body(tables.published) }
    }
}


/// A registered route as introspection shows it.
package struct RouteRecord: Sendable {
    package var id: UInt64
    package var priority: Int32
    package var pattern: String
    /// Lower-cased scheme, `nil` for the global table.
    package var scheme: String?
    /// Registration order.
    package var sequence: UInt64
    /// Where the route is stored: the `record` of its variants and of a match's candidates.
    package var index: UInt32
}
