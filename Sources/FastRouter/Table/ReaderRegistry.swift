import CProcessFence
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// How a reader announces what it may still be using, so writers know when a table side they
/// have just retired is no longer read (a grace period, as in read-copy-update) and when the
/// payloads of removed routes can no longer be handed out.
///
/// Each reader (a ``MatchScratch``: one per thread) owns a slot on its own cache line with one
/// word: the number of lookups it has started, a bit that is set while it is inside a lookup and
/// a bit that is set while it still holds the payloads its last lookup returned. Only the owner
/// writes the word; there is no shared reference count and no lock on the lookup path.
///
/// Entering a lookup is one store to memory no other thread writes, which must be ordered before
/// the lookup loads the tables, as a writer's publication is before it reads the slots. Where
/// the kernel offers it (``ProcessFence``), that order costs the lookup nothing: it stores plainly
/// behind a compiler barrier, and the writer makes every thread of the process fence before it
/// reads the slots (an asymmetric fence). Elsewhere the store is sequentially consistent (a locked
/// instruction on x86). The slot word says which (``plainEnter``), so a lookup tests a word it
/// has loaded anyway.
///
/// A reader that keeps its results (a ``Matcher``) also lists the payloads it holds, up to
/// ``heldCapacity`` of them, so that while it sits idle it holds back only those, not every
/// payload removed after its lookup (hazard pointers, published once per lookup).
@usableFromInline
package final class ReaderSlot: Sendable {
    /// A cache line's worth of bytes.
    private typealias LinePadding = (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64)
    // Keeps whatever the allocator placed before this slot off the slot's written words: a
    // reader on another thread writing there would stall every lookup of this one.
    private let leadingPadding: LinePadding = (0, 0, 0, 0, 0, 0, 0, 0)
    /// Set while the owner is inside a lookup.
    static let inLookup: UInt64 = 1
    /// Set while the owner may still read payloads returned by its last lookup.
    static let holding: UInt64 = 2
    /// Set for good when the slot is made, when writers fence every thread before they read the
    /// slots (``ProcessFence/isAvailable``): ``enter(router:)`` then stores plainly.
    static let plainEnter: UInt64 = 4
    /// The word's lookup count unit: the count sits above the three flag bits.
    static let generation: UInt64 = 8

    /// Lookups started (times ``generation``) plus the flags; the count never goes back.
    @usableFromInline let state: Atomic<UInt64>
    /// The router of the latest lookup (its address), so one router's writers neither wait
    /// for nor keep payloads back because of readers of another.
    let router = Atomic<UInt>(0)
    /// True while a ``MatchScratch`` owns the slot.
    let inUse = Atomic<Bool>(false)
    /// How many payloads the owner listed with its last `holding` exit; more than
    /// ``heldCapacity`` means too many to list (it may hold any payload of its router).
    let heldCount = Atomic<Int>(0)
    // The listed payloads (addresses). Four stored words rather than an array: one per
    // candidate of the last lookup, and lookups rarely find more than four.
    let held0 = Atomic<UInt>(0)
    let held1 = Atomic<UInt>(0)
    let held2 = Atomic<UInt>(0)
    let held3 = Atomic<UInt>(0)
    /// Payloads a slot can list.
    static let heldCapacity = 4
    /// The version of its router's tables the owner keeps for declines (0: none): writers free
    /// no node of that version or a later one while it is set (see ``PublishedTables``).
    let pinned = Atomic<UInt64>(0)
    // The same after the slot's written words.
    private let trailingPadding: LinePadding = (0, 0, 0, 0, 0, 0, 0, 0)

    /// A slot whose lookups enter plainly where writers fence every thread (``plainEnter``).
    init() {
        state = Atomic(ProcessFence.isAvailable ? Self.plainEnter : 0)
    }

    /// Marks the start of a lookup in `router`, which also drops whatever the previous lookup
    /// returned. Ordered before the reader loads the tables: by the writers' process-wide fence
    /// (``plainEnter``), else by a full fence here.
    @inline(__always)
    func enter(router: UInt) {
        // Released before the new state: a writer that sees another router here knows every
        // read of the previous lookup's results is over. Stored every time (a plain store on
        // this line, which the state's store below writes anyway) rather than tested first.
        self.router.store(router, ordering: .releasing)
        let value = state.load(ordering: .relaxed)
        let entered = (value & ~3) &+ Self.generation | Self.inLookup
        // Tested on the new word, which keeps the bit: one register for both.
        if entered & Self.plainEnter != 0 {
            state.store(entered, ordering: .releasing)
            // Keeps the compiler from moving the tables' load above the store; the hardware
            // may, until a writer's ``ProcessFence/fence()``.
            fastrouter_compiler_fence()
        } else {
            state.store(entered, ordering: .sequentiallyConsistent)
        }
    }

    /// Marks the end of a lookup. `holding` says whether the caller will still read payloads
    /// of the candidates it found; if so it must call ``drop()`` when done with them (or start
    /// another lookup). The release store orders every read of the table before it.
    @inline(__always)
    func exit(holding: Bool) {
        let value = state.load(ordering: .relaxed)
        state.store((value & ~3) | (holding ? Self.holding : 0), ordering: .releasing)
    }

    /// Lists the payloads the owner will hold after this lookup: `count` of them, the i-th given by
    /// `payload(i)`. Called inside the lookup, before ``exit(holding:)`` with `holding` true.
    /// Release stores: a writer that reads one of these words also sees the ``enter(router:)``
    /// of the same lookup, so it can tell a list being rewritten from a settled one.
    @inline(__always)
    func list(count: Int, _ payload: (Int) -> UnsafeMutableRawPointer?) {
        heldCount.store(count, ordering: .releasing)
        guard count <= Self.heldCapacity else { return }
        for index in 0..<count {
            let address = UInt(bitPattern: payload(index))
            switch index {
            case 0: held0.store(address, ordering: .releasing)
            case 1: held1.store(address, ordering: .releasing)
            case 2: held2.store(address, ordering: .releasing)
            default: held3.store(address, ordering: .releasing)
            }
        }
    }

    /// Appends the payloads an idle holder listed to `held`, when the slot is still exactly in
    /// the `holding` state `settled` (read just before) and listed few enough; `false` otherwise.
    /// A seqlock read: the list is trusted only if the state did not move while it was read.
    func readHeld(settled: UInt64, into held: inout [UInt]) -> Bool {
        let count = heldCount.load(ordering: .acquiring)
        guard count <= Self.heldCapacity else { return false }
        let start = held.count
        for index in 0..<count {
            switch index {
            case 0: held.append(held0.load(ordering: .acquiring))
            case 1: held.append(held1.load(ordering: .acquiring))
            case 2: held.append(held2.load(ordering: .acquiring))
            default: held.append(held3.load(ordering: .acquiring))
            }
        }
        guard state.load(ordering: .sequentiallyConsistent) == settled else {
            held.removeSubrange(start...)
            return false
        }
        return true
    }

    /// Keeps `version` of the current router's tables for declines. Called inside a lookup,
    /// before ``exit(holding:)``: a writer that waited for that exit sees the pin.
    @inline(__always)
    func pin(_ version: UInt64) {
        pinned.store(version, ordering: .releasing)
    }

    /// Lets writers free the pinned version.
    @inline(__always)
    func unpin() {
        if pinned.load(ordering: .relaxed) != 0 { pinned.store(0, ordering: .releasing) }
    }

    /// Declares the payloads of the last lookup unused from now on. Inlinable: the Swift API's
    /// caller runs it after reading the route's value.
    @inlinable @inline(__always)
    package func drop() {
        let value = state.load(ordering: .relaxed)
        guard value & 3 != 0 else { return }
        state.store(value & ~3, ordering: .releasing)
    }
}

/// The process-wide list of reader slots. Slots are recycled, never freed, so a writer can scan
/// the list while readers come and go.
enum ReaderRegistry {
    private static let slots = Mutex<[ReaderSlot]>([])
    private static let free = Mutex<[ReaderSlot]>([])

    /// A slot for a new reader.
    static func acquire() -> ReaderSlot {
        if let slot = free.withLock({ $0.popLast() }) {
            slot.inUse.store(true, ordering: .sequentiallyConsistent)
            return slot
        }
        let slot = ReaderSlot()
        slot.inUse.store(true, ordering: .sequentiallyConsistent)
        slots.withLock { $0.append(slot) }
        return slot
    }

    /// Gives a slot back when its reader is freed.
    static func release(_ slot: ReaderSlot) {
        // A reader that goes away keeps no version for declines.
        slot.unpin()
        // A new count with no flags tells pending reclamation that this reader holds nothing.
        let value = slot.state.load(ordering: .relaxed)
        slot.state.store((value & ~3) &+ ReaderSlot.generation, ordering: .sequentiallyConsistent)
        slot.inUse.store(false, ordering: .sequentiallyConsistent)
        free.withLock { $0.append(slot) }
    }

    /// Waits until every reader that was inside a lookup in `router` when this was called has
    /// left it. Called by writers only, after publishing a new side.
    static func waitForReaders(in router: UInt) {
        // Every lookup that entered before this point is now visible in its slot; one that
        // enters later loads the side just published (see ``ProcessFence``).
        ProcessFence.fence()
        // The scan under the lock is short; the wait is outside it, and allocates only when some
        // reader is inside a lookup in this router.
        var inside: [(slot: ReaderSlot, seen: UInt64)] = []
        slots.withLock { slots in
            for slot in slots {
                let seen = slot.state.load(ordering: .sequentiallyConsistent)
                if seen & ReaderSlot.inLookup != 0, slot.router.load(ordering: .acquiring) == router {
                    inside.append((slot, seen))
                }
            }
        }
        for (slot, seen) in inside {
            var spins = 0
            while slot.state.load(ordering: .sequentiallyConsistent) == seen {
                spins += 1
                if spins > 64 { sched_yield() }
            }
        }
    }

    /// The oldest version of `router`'s tables a reader keeps for declines, `nil` when none does.
    /// Called by writers after a grace period: a reader pins inside a lookup, which the grace
    /// period waited for.
    static func oldestPin(of router: UInt) -> UInt64? {
        slots.withLock { slots in
            var oldest: UInt64?
            for slot in slots {
                let version = slot.pinned.load(ordering: .acquiring)
                if version != 0, slot.router.load(ordering: .acquiring) == router { oldest = min(oldest ?? version, version) }
            }
            return oldest
        }
    }

    /// Replaces `holders` with the readers that may hold something of `router` right now:
    /// inside a lookup in it, or still using the payloads of their last one. Readers that hold
    /// nothing, or hold another router's, are left out: whatever was removed from `router`
    /// before this call is out of their reach. Called after the publication that removed it,
    /// whose grace period fenced every thread (``waitForReaders(in:)``).
    static func holders(of router: UInt, into holders: inout [(slot: ReaderSlot, seen: UInt64)]) {
        holders.removeAll(keepingCapacity: true)
        slots.withLock { slots in
            for slot in slots {
                let seen = slot.state.load(ordering: .sequentiallyConsistent)
                if seen & 3 != 0, slot.router.load(ordering: .acquiring) == router { holders.append((slot, seen)) }
            }
        }
    }

    /// Collects in `held` what the readers in `holders` may still use of what they held then.
    /// A reader that has dropped it (it holds nothing now, started a newer lookup, which forgets
    /// the previous results, or was released) adds nothing; an idle holder adds the payloads it
    /// listed. Returns `false`, with `held` incomplete, when a reader is still inside the lookup
    /// it was in or holds more payloads than it could list: it may hold any of them.
    static func stillHeld(by holders: [(slot: ReaderSlot, seen: UInt64)], into held: inout [UInt]) -> Bool {
        held.removeAll(keepingCapacity: true)
        for (slot, seen) in holders {
            let now = slot.state.load(ordering: .sequentiallyConsistent)
            if now & 3 == 0 || now & ~3 != seen & ~3 { continue }
            guard now & ReaderSlot.inLookup == 0, slot.readHeld(settled: now, into: &held) else { return false }
        }
        return true
    }
}
