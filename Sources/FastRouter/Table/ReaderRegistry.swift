import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// How readers announce that they are inside a lookup, so a writer knows when a table side it
/// has just retired is no longer read (a grace period, as in read-copy-update).
///
/// Each reader (a ``MatchScratch``: one per thread) owns a slot on its own cache line with a
/// counter that is odd while the reader is inside a lookup. Entering costs one sequentially
/// consistent store to memory no other thread writes; there is no shared reference count and no
/// lock on the lookup path. Writers snapshot the counters and wait only for readers that were
/// inside a lookup at that moment.
final class ReaderSlot: Sendable {
    /// Odd while the owner is inside a lookup; grows by 2 per lookup and never goes back.
    let counter = Atomic<UInt64>(0)
    /// True while a ``MatchScratch`` owns the slot.
    let inUse = Atomic<Bool>(false)
    // Keeps neighbouring slots off this cache line.
    private let padding: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0)

    /// Marks the start of a lookup. The full fence orders it before the reader loads the active side.
    @inline(__always)
    func enter() {
        let value = counter.load(ordering: .relaxed)
        counter.store(value &+ 1, ordering: .sequentiallyConsistent)
    }

    /// Marks the end of a lookup.
    @inline(__always)
    func exit() {
        let value = counter.load(ordering: .relaxed)
        counter.store(value &+ 1, ordering: .releasing)
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
        // Moving the counter on tells pending reclamation that this reader holds nothing any more.
        let value = slot.counter.load(ordering: .relaxed)
        slot.counter.store((value | 1) &+ 1, ordering: .sequentiallyConsistent)
        slot.inUse.store(false, ordering: .sequentiallyConsistent)
        free.withLock { $0.append(slot) }
    }

    /// Waits until every reader that was inside a lookup when this was called has left it.
    /// Called by writers only, after publishing a new side.
    static func waitForReaders() {
        let current = slots.withLock { $0 }
        for slot in current {
            let seen = slot.counter.load(ordering: .sequentiallyConsistent)
            guard seen & 1 == 1 else { continue }
            var spins = 0
            while slot.counter.load(ordering: .sequentiallyConsistent) == seen {
                spins += 1
                if spins > 64 { sched_yield() }
            }
        }
    }

    /// A snapshot of every reader's progress, for reclaiming things readers may still hold
    /// between lookups (values handed out by the last lookup).
    static func snapshot() -> [(ReaderSlot, UInt64)] {
        slots.withLock { slots in
            slots.compactMap { slot in
                slot.inUse.load(ordering: .sequentiallyConsistent)
                    ? (slot, slot.counter.load(ordering: .sequentiallyConsistent)) : nil
            }
        }
    }

    /// True when every reader in `snapshot` has started a newer lookup or was released.
    static func allAdvanced(since snapshot: [(ReaderSlot, UInt64)]) -> Bool {
        snapshot.allSatisfy { slot, seen in
            let now = slot.counter.load(ordering: .sequentiallyConsistent)
            // An idle reader must start a new lookup; one inside a lookup must start the one after.
            let needed = seen & 1 == 1 ? seen &+ 2 : seen &+ 1
            return now >= needed
        }
    }
}
