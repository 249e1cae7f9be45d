import Synchronization

/// A router's tables and their publication to readers: two identical ``TableSide``s and which
/// one lookups read (docs/SEMANTICS.md §3.5).
///
/// Readers take ``current`` and never wait. A writer (one at a time, under the router's writer
/// lock) changes the side readers do not use, publishes it with one atomic store, waits for
/// readers still inside the other side to leave (a grace period, see ``ReaderRegistry``), then
/// applies the same change there and sends readers back to it.
struct PublishedTables: ~Copyable {
    /// The two sides; `activeSide` says which one readers use.
    private let sides: UnsafeMutablePointer<TableSide>
    private let activeSide = Atomic<Int>(0)

    init() {
        sides = .allocate(capacity: 2)
        sides.initialize(to: TableSide())
        (sides + 1).initialize(to: TableSide())
    }

    /// Frees both sides; no reader or writer may use them afterwards.
    func deallocate() {
        sides[0].deallocate()
        sides[1].deallocate()
        sides.deinitialize(count: 2)
        sides.deallocate()
    }

    /// The side a lookup reads, for the whole lookup: the reader announces itself in its slot
    /// first, so a writer waits for it before changing this side.
    @inline(__always)
    var current: UnsafeMutablePointer<TableSide> {
        // Safety: `sides` holds two initialized sides until `deallocate()`, which runs only when
        // no reader can reach the router.
        sides + activeSide.load(ordering: .sequentiallyConsistent)
    }

    /// The side readers use; only unchanging while the caller holds the writer lock.
    var published: TableSide { sides[activeSide.load(ordering: .relaxed)] }

    /// Applies a change to the inactive side, publishes it, waits out readers of the other side,
    /// applies the same change there and sends readers back to it. `body` must be deterministic:
    /// both sides stay identical.
    ///
    /// Readers return to the same side after every update, so the other copy is read only for
    /// the microseconds an update takes: readers of a table larger than the caches do not
    /// alternate between two cold copies while a writer keeps changing it.
    ///
    /// `body` may throw only before it changes anything, and only on the first side: then
    /// nothing is published and both sides stay as they were. (The second application repeats
    /// one that succeeded on an identical side, so it cannot throw.)
    func apply<Failure: Error>(router: UInt, _ body: (inout TableSide) throws(Failure) -> Void) throws(Failure) {
        let home = activeSide.load(ordering: .relaxed)
        // The sides are reached through local pointers: the writer's accesses are to the sides'
        // memory, never to this struct's storage, which readers load `sides` from concurrently.
        let (homeSide, otherSide) = (sides + home, sides + (1 - home))
        try body(&otherSide.pointee)
        publish(1 - home, router: router)
        do {
            try body(&homeSide.pointee)
        } catch {
            preconditionFailure("a table change failed on the second side after succeeding on the first")
        }
        publish(home, router: router)
    }

    /// Like ``apply(router:_:)`` for large batches: the second side becomes a copy of the first instead
    /// of replaying the work. When `body` throws, the side it changed is restored from the
    /// published one and nothing is published.
    ///
    /// Before it is published and copied, the changed side gives back the room its buffers grew
    /// into and do not use (up to half of each, growth doubling them): the copy is then exactly
    /// as large as the tables, and the next addition grows a buffer by remapping its pages.
    func applyBatch<Result>(router: UInt, _ body: (inout TableSide) throws(RouterError) -> Result) throws(RouterError) -> Result {
        let home = activeSide.load(ordering: .relaxed)
        let (homeSide, otherSide) = (sides + home, sides + (1 - home))
        let result: Result
        do {
            result = try body(&otherSide.pointee)
            otherSide.pointee.shrinkToFit()
        } catch {
            otherSide.pointee.deallocate()
            otherSide.pointee = homeSide.pointee.clone()
            throw error
        }
        publish(1 - home, router: router)
        homeSide.pointee.deallocate()
        homeSide.pointee = otherSide.pointee.clone()
        publish(home, router: router)
        return result
    }

    /// Makes `side` the one new lookups read and waits until no lookup reads the other one,
    /// which the writer may then change.
    private func publish(_ side: Int, router: UInt) {
        activeSide.store(side, ordering: .sequentiallyConsistent)
        ReaderRegistry.waitForReaders(in: router)
    }
}
