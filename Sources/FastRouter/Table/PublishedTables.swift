import Synchronization

/// A router's tables and their publication to readers (docs/SEMANTICS.md §3.5): one copy, and
/// a pointer to its current ``TableRoots``.
///
/// Readers load ``current`` after announcing themselves in their slot and never wait. A writer
/// (one at a time, under the router's writer lock) builds the new version with a
/// ``TreeEditor`` (new blocks for what changes, the rest shared), publishes its roots with one
/// atomic store, waits until no reader is still inside a lookup that could have loaded the old
/// roots (the grace period, see ``ReaderRegistry``), and only then frees the blocks the new
/// version replaced.
@usableFromInline
struct PublishedTables: ~Copyable {
    private let roots = Atomic<UInt>(0)
    /// Whether the last publication lets a lookup of a plain path answer by the whole path
    /// (``RouterCore/lookupByPath``): its global table has no dynamic route, and the router
    /// compares paths byte for byte. Only a hint: a lookup that follows it checks the roots it
    /// loads, and one that does not walks, so a reader that sees it late still answers right.
    @usableFromInline let answersByPath = Atomic<Bool>(false)
    /// False for a router whose paths are compared case-insensitively: the map of static paths
    /// holds their bytes as registered, so such a router walks.
    private let pathsCompareExactly: Bool
    /// Blocks (nodes and chunks) the last publication wrote and replaced: what one update
    /// copied. Tests check they stay bounded by the tree's depth and chunk levels, never by a
    /// node's fan-out.
    private let lastWritten = Atomic<Int>(0)
    private let lastReplaced = Atomic<Int>(0)
    var blocksWrittenByLastPublication: Int { lastWritten.load(ordering: .relaxed) }
    var blocksReplacedByLastPublication: Int { lastReplaced.load(ordering: .relaxed) }
    /// When set (tests, fuzzers), every publication first checks the new version's structure
    /// and that it reaches nothing it is about to free.
    // Read without the runtime's exclusivity check (it costs about as much as a block's
    // allocation, on every publication): set only while no router is in use.
    @exclusivity(unchecked) nonisolated(unsafe) package static var checksEveryUpdate = false
    /// Where the tree's blocks live (the writer's, like every block it frees).
    private let arena = BlockArena()
    /// Blocks that publications since the last grace period replaced: they wait in `retired`
    /// for the next one (see ``publish(_:maxCaptures:router:retired:waits:)``).
    private let blocksAwaitingGrace = Atomic<Int>(0)
    /// Replaced blocks that make an add wait for a grace period: a wait costs a
    /// process-wide barrier (``ProcessFence``) and a scan of the readers, about as much as the
    /// rest of a single add, so adds share one, holding back a few tens of kilobytes meanwhile.
    static var blocksPerGracePeriod: Int { 512 }

    init(pathsCompareExactly: Bool) {
        self.pathsCompareExactly = pathsCompareExactly
        let none = UnsafeBufferPointer<Terminal>(start: nil, count: 0)
        let empty = Node.make(label: UnsafeBufferPointer(start: nil, count: 0), literals: .none, parameter: nil,
                              edges: UnsafeBufferPointer(start: nil, count: 0), terminals: none, wildcards: none, in: arena)
        roots.store(UInt(bitPattern: TableRoots.make([(nil, empty)], maxCaptures: 0, version: 1, in: arena).base),
                    ordering: .sequentiallyConsistent)
    }

    /// The roots a lookup reads, for the whole lookup. The reader announces itself in its slot
    /// first, so a writer waits for it before freeing anything reachable from them.
    @inline(__always)
    var current: TableRoots {
        // Safety: the pointer is always a live block: it is replaced before it is freed, and
        // freed only after every reader that could have loaded it has left.
        TableRoots(UnsafeMutableRawPointer(bitPattern: roots.load(ordering: .sequentiallyConsistent)).unsafelyUnwrapped)
    }

    /// The published roots; only unchanging while the caller holds the writer lock.
    var published: TableRoots { TableRoots(UnsafeMutableRawPointer(bitPattern: roots.load(ordering: .relaxed))!) }

    /// Publishes what `editor` built and frees what it replaced once no reader can reach it:
    /// after a grace period, unless a reader keeps an old version for declines (a pin, see
    /// ``ReaderSlot/pin(_:)``); then it waits in `retired` until no reader pins a version that
    /// reaches it.
    ///
    /// The grace period is this publication's when `waits` is set (a removal: the payloads it
    /// retires count on it, see ``PayloadReclaimer``) or when enough replaced blocks await one
    /// (``blocksPerGracePeriod``); otherwise the replaced version waits in `retired` for a
    /// later publication's. Either way a block is freed only after a grace period that began
    /// after the publication that replaced it.
    /// Returns `true` when the replaced version is kept (for a pinned reader, or for the next
    /// grace period): what the caller stops using after this (regexes, templates) must then
    /// live as long as that version (``RetiredVersions/Version/keepAlive``).
    @discardableResult
    func publish(_ editor: inout TreeEditor, maxCaptures: Int, router: UInt, retired: inout RetiredVersions,
                 waits: Bool = false) -> Bool {
        let old = published
        editor.freeze(into: arena)
        let dynamicRoutes = old.dynamicRoutes + editor.dynamicDelta
        var paths = StaticPathsEditor(old.staticPaths)
        paths.update(from: old, global: editor.frozenRoots[0].root, dynamicRoutes: dynamicRoutes, edits: editor.staticEdits)
        for block in paths.replaced { editor.replaced.append(block) }
        let fresh = TableRoots.make(editor.frozenRoots, maxCaptures: maxCaptures, version: old.version &+ 1,
                                    staticPaths: paths.map, dynamicRoutes: dynamicRoutes, in: arena)
        if Self.checksEveryUpdate { TreeInvariants.check(fresh, freed: Array(editor.replaced.elements)) }
        lastWritten.store(editor.written, ordering: .relaxed)
        lastReplaced.store(editor.replaced.count, ordering: .relaxed)
        roots.store(UInt(bitPattern: fresh.base), ordering: .sequentiallyConsistent)
        answersByPath.store(pathsCompareExactly && dynamicRoutes == 0 && paths.map.root != nil, ordering: .relaxed)
        retired.append(version: old.version, roots: old, blocks: editor.replaced.elements)
        let awaiting = blocksAwaitingGrace.load(ordering: .relaxed) + editor.replaced.count + 1
        defer { arena.settleAccount() }
        guard waits || awaiting >= Self.blocksPerGracePeriod else {
            blocksAwaitingGrace.store(awaiting, ordering: .relaxed)
            return true
        }
        blocksAwaitingGrace.store(0, ordering: .relaxed)
        ReaderRegistry.waitForReaders(in: router)
        // What a version replaced is reachable from that version and older ones only.
        let oldestPin = ReaderRegistry.oldestPin(of: router)
        retired.free(olderThan: oldestPin, into: arena)
        return retired.newest == old.version
    }

    /// Frees every table, and the `retired` versions; no reader or writer may use them afterwards.
    func deallocate(retired: RetiredVersions) {
        var retired = retired
        retired.free(olderThan: nil, into: arena)
        let tables = published
        for entry in tables.all { free(entry.root) }
        tables.staticPaths.deallocate()
        tables.deallocate(in: arena)
        arena.settleAccount()
    }

    /// Frees `node`, its chunks (``LiteralChunk``) and everything below; a stack, not recursion
    /// (a path may be thousands of nodes deep).
    private func free(_ node: Node) {
        var stack = [node]
        while let node = stack.popLast() {
            stack += node.children
            for chunk in node.chunkBlocks { arena.deallocate(chunk) }
            node.deallocate(in: arena)
        }
    }
}

/// The versions of the tables replaced and not freed yet, oldest first: each one's roots and the
/// blocks (nodes and chunks) no later version reaches, kept while a reader pins that version or
/// an older one.
///
/// The blocks of every version are in one list, each version's after the one's before: a
/// single add replaces a few blocks and waits a hundred adds or so for its grace period, and a
/// list of its own would be one more allocation per add.
struct RetiredVersions {
    struct Version {
        var version: UInt64
        var roots: TableRoots
        /// How many of ``RetiredVersions/blocks`` are its, after those of the versions before.
        var blockCount: Int
        /// Regexes and partial templates its edges use that the router no longer holds.
        var keepAlive: [AnyObject] = []
    }

    private(set) var versions: [Version] = []
    private var blocks: [UnsafeMutableRawPointer] = []

    var isEmpty: Bool { versions.isEmpty }
    /// The newest version retired.
    var newest: UInt64? { versions.last?.version }

    /// Retires version `version`, its `roots` and the blocks it alone reached.
    mutating func append(version: UInt64, roots: TableRoots, blocks replaced: UnsafeBufferPointer<UnsafeMutableRawPointer>) {
        versions.append(Version(version: version, roots: roots, blockCount: replaced.count))
        // One at a time: `append(contentsOf:)` costs more than the few blocks an add replaces.
        for block in replaced { blocks.append(block) }
    }

    /// Keeps `objects` alive with the newest version.
    mutating func keepAliveWithNewest(_ objects: [AnyObject]) {
        versions[versions.count - 1].keepAlive += objects
    }

    /// Frees, into `arena`, the blocks and roots of the versions older than `oldestPin` (all of
    /// them when it is `nil`), which every reader has left: the tables' arena gives back to the
    /// system allocator what came from it, such as the ``StaticPaths`` blocks.
    mutating func free(olderThan oldestPin: UInt64?, into arena: BlockArena) {
        var freedVersions = 0
        var freedBlocks = 0
        while freedVersions < versions.count, oldestPin.map({ versions[freedVersions].version < $0 }) ?? true {
            for block in blocks[freedBlocks..<(freedBlocks + versions[freedVersions].blockCount)] { arena.deallocate(block) }
            versions[freedVersions].roots.deallocate(in: arena)
            freedBlocks += versions[freedVersions].blockCount
            freedVersions += 1
        }
        guard freedVersions > 0 else { return }
        if freedVersions == versions.count {
            versions.removeAll(keepingCapacity: true)
            blocks.removeAll(keepingCapacity: true)
        } else {
            versions.removeFirst(freedVersions)
            blocks.removeFirst(freedBlocks)
        }
    }
}
