import Synchronization

/// The untyped engine behind ``Router`` and the C ABI: tables, registration, removal, lookup.
///
/// Thread-safety: any number of threads may call ``match(url:into:)`` (each with its own
/// ``MatchScratch``) while others add or remove routes. Readers never block: the tables are
/// kept once, as a tree whose published nodes never change; a writer builds the new version
/// beside it (sharing what it does not change), publishes it with one atomic store, waits for
/// readers still inside the old one to leave (a grace period, see ``ReaderRegistry``), then
/// frees what it replaced (see ``PublishedTables``). Writers are serialized.
@usableFromInline
package final class RouterCore: @unchecked Sendable {
    package let options: RouterOptions
    /// ``WalkInput/foldLimit`` of a plain path under these options: every byte folds with
    /// ``RouterOptions/caseInsensitivePaths``, none without. Kept ready for the scan.
    let plainPathFoldLimit: Int
    let webSchemes: WebSchemes
    /// The published tables.
    @usableFromInline let tables: PublishedTables
    let writer = Mutex(WriterState())
    /// Regex constraints that hit PCRE2's match or depth limit (docs/SEMANTICS.md §3.4).
    let regexLimitHits = Atomic<Int>(0)
    let routeCount = Atomic<Int>(0)
    /// Where parameter names are interned: the process-wide table, or a small one in tests.
    let names: NameTable.Store
    /// True when routes carry payloads that readers read after a lookup (the Swift router);
    /// such a reader announces it holds them until it drops them (see ``ReaderSlot``).
    let holdsPayloads: Bool
    /// Never reused, unlike an address: how a match names the router its declines need.
    let identity = LiveRouters.register()
    /// The method names routes use, numbered (docs/SEMANTICS.md §3.7).
    let methods = MethodTable()
    /// ``ThreadScratch/key``, read once here rather than at every lookup (a lazy global's read is
    /// a call).
    @usableFromInline let scratchKey = ThreadScratch.key

    /// A router core; `releasePayload` releases a removed route's payload once no reader can
    /// hold it (nil when routes carry none, as through the C ABI).
    package init(options: RouterOptions, names: NameTable.Store = NameTable.shared,
         releasePayload: (@Sendable (UnsafeMutableRawPointer) -> Void)? = nil) {
        self.options = options
        plainPathFoldLimit = options.caseInsensitivePaths ? Int.max : 0
        tables = PublishedTables(pathsCompareExactly: !options.caseInsensitivePaths)
        self.names = names
        holdsPayloads = releasePayload != nil
        webSchemes = WebSchemes(options.webSchemes)
        writer.withLock { $0.releasePayload = releasePayload }
    }

    deinit {
        // Declines on this router's matches have finished and will find it gone.
        LiveRouters.unregister(identity)
        writer.withLock { state in
            guard let release = state.releasePayload else { return }
            // No reader can use a router that is being freed. The payloads of the routes still
            // registered go with their owner (``RouteValues``).
            state.reclaimer.releaseAll(release: release)
        }
        tables.deallocate(retired: writer.withLock { $0.retired })
        webSchemes.deallocate()
    }

    /// Routes as registered (a route with optional groups counts once).
    package var count: Int { routeCount.load(ordering: .relaxed) }

    /// Payloads of removed routes not released yet (readers may still hold them).
    var retiredPayloadCount: Int { writer.withLock { $0.reclaimer.pendingCount } }

    /// Whether a lookup of a plain path may be answered by the whole path: the hint the entry
    /// points read to choose ``lookupByPath`` (see ``PublishedTables/answersByPath``).
    @inlinable @inline(__always)
    package var mayAnswerByPath: Bool { tables.answersByPath.load(ordering: .relaxed) }

    /// This router's address: how readers' slots name the router they read.
    @inline(__always)
    var tag: UInt { UInt(bitPattern: ObjectIdentifier(self)) }

    // MARK: Introspection

    /// The registered routes, in registration order.
    package var routes: [RouteRecord] { withStableSnapshot { records, _ in records } }

    /// The registered routes with `id`, in registration order.
    func routes(withID id: UInt64) -> [RouteRecord] {
        writer.withLock { state in state.routes.indexes(withID: id).map { record(state, $0) } }
    }

    /// A stored route as introspection shows it; the caller holds the writer lock.
    private func record(_ state: borrowing WriterState, _ index: UInt32) -> RouteRecord {
        let store = state.routes
        let record = store.records[Int(index)]
        return RouteRecord(id: record.id, priority: record.priority, pattern: store.pattern(of: index),
                           methods: methods.methods(in: state.methodSets[Int(record.methodSet)]),
                           scheme: store.scheme(of: index), sequence: record.sequence, index: index)
    }

    /// Runs `body` on the registered routes (in registration order) and the published tables,
    /// both read under one hold of the writer lock, so they describe the same version.
    func withStableSnapshot<R>(_ body: ([RouteRecord], TableRoots) -> R) -> R {
        writer.withLock { state in
            let records = state.routes.liveIndexes.map { record(state, $0) }.sorted { $0.sequence < $1.sequence }
            return body(records, tables.published)
        }
    }
}


/// A registered route as introspection shows it.
package struct RouteRecord: Sendable {
    package var id: UInt64
    package var priority: Int32
    package var pattern: String
    /// The methods it accepts in `Allow` order; empty for any method.
    package var methods: [HTTPMethod]
    /// Lower-cased scheme, `nil` for the global table.
    package var scheme: String?
    /// Registration order.
    package var sequence: UInt64
    /// Where the route is stored: the `record` of its variants and of a match's candidates.
    package var index: UInt32
}
