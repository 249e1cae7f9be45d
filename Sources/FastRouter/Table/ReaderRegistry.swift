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
/// writes the word; entering a lookup costs one sequentially consistent store to memory no other
/// thread writes; there is no shared reference count and no lock on the lookup path.
final class ReaderSlot: Sendable {
    /// Set while the owner is inside a lookup.
    static let inLookup: UInt64 = 1
    /// Set while the owner may still read payloads returned by its last lookup.
    static let holding: UInt64 = 2
    /// The word's lookup count unit: the count sits above the two flag bits.
    static let generation: UInt64 = 4

    /// Lookups started (times ``generation``) plus the flags; the count never goes back.
    let state = Atomic<UInt64>(0)
    /// The router of the latest lookup (its address), so one router's writers neither wait
    /// for nor keep payloads back because of readers of another.
    let router = Atomic<UInt>(0)
    /// True while a ``MatchScratch`` owns the slot.
    let inUse = Atomic<Bool>(false)
    // Keeps neighbouring slots off this cache line.
    private let padding: (UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0)

    /// Marks the start of a lookup in `router`, which also drops whatever the previous lookup
    /// returned. The full fence orders it before the reader loads the active side.
    @inline(__always)
    func enter(router: UInt) {
        // Released before the new state: a writer that sees another router here knows every
        // read of the previous lookup's results is over.
        if self.router.load(ordering: .relaxed) != router { self.router.store(router, ordering: .releasing) }
        let value = state.load(ordering: .relaxed)
        state.store((value & ~3) &+ Self.generation | Self.inLookup, ordering: .sequentiallyConsistent)
    }

    /// Marks the end of a lookup. `holding` says whether the caller will still read payloads
    /// of the candidates it found; if so it must call ``drop()`` when done with them (or start
    /// another lookup). The release store orders every read of the table before it.
    @inline(__always)
    func exit(holding: Bool) {
        let value = state.load(ordering: .relaxed)
        state.store((value & ~3) | (holding ? Self.holding : 0), ordering: .releasing)
    }

    /// Declares the payloads of the last lookup unused from now on.
    @inline(__always)
    func drop() {
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
        // A new count with no flags tells pending reclamation that this reader holds nothing.
        let value = slot.state.load(ordering: .relaxed)
        slot.state.store((value & ~3) &+ ReaderSlot.generation, ordering: .sequentiallyConsistent)
        slot.inUse.store(false, ordering: .sequentiallyConsistent)
        free.withLock { $0.append(slot) }
    }

    /// Waits until every reader that was inside a lookup in `router` when this was called has
    /// left it. Called by writers only, after publishing a new side.
    static func waitForReaders(in router: UInt) {
        let current = slots.withLock { $0 }
        for slot in current {
            let seen = slot.state.load(ordering: .sequentiallyConsistent)
            guard seen & ReaderSlot.inLookup != 0, slot.router.load(ordering: .acquiring) == router else { continue }
            var spins = 0
            while slot.state.load(ordering: .sequentiallyConsistent) == seen {
                spins += 1
                if spins > 64 { sched_yield() }
            }
        }
    }

    /// Replaces `holders` with the readers that may hold something of `router` right now:
    /// inside a lookup in it, or still using the payloads of their last one. Readers that hold
    /// nothing, or hold another router's, are left out: whatever was removed from `router`
    /// before this call is out of their reach.
    static func holders(of router: UInt, into holders: inout [(slot: ReaderSlot, seen: UInt64)]) {
        holders.removeAll(keepingCapacity: true)
        slots.withLock { slots in
            for slot in slots {
                let seen = slot.state.load(ordering: .sequentiallyConsistent)
                if seen & 3 != 0, slot.router.load(ordering: .acquiring) == router { holders.append((slot, seen)) }
            }
        }
    }

    /// True when every reader in `holders` has dropped what it held then: it holds nothing now,
    /// or it has started a newer lookup (which forgets the previous results), or was released.
    static func haveDropped(_ holders: [(slot: ReaderSlot, seen: UInt64)]) -> Bool {
        holders.allSatisfy { slot, seen in
            let now = slot.state.load(ordering: .sequentiallyConsistent)
            return now & 3 == 0 || now & ~3 != seen & ~3
        }
    }
}
