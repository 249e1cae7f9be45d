@testable import FastRouter
import Foundation
import Synchronization
import Testing

/// Counts deinitializations of ``TrackedValue``s.
final class DeinitCounter: Sendable {
    let count = Atomic<Int>(0)
}

/// A route value that reports its deinitialization.
final class TrackedValue: Sendable {
    let counter: DeinitCounter
    init(_ counter: DeinitCounter) { self.counter = counter }
    deinit { counter.count.add(1, ordering: .relaxed) }
}

/// Values of removed routes are released once no reader can hand them out, without waiting for
/// readers that sit idle, and the retire list stays small under a writer that never stops.
@Suite struct ReclamationTests {
    @Test func idleReadersDoNotPinRemovedValues() throws {
        let counter = DeinitCounter()
        let cycles = 100_000
        let router = Router<TrackedValue>()
        try router.add("/stable", id: 1, value: TrackedValue(counter))
        let parked = DispatchSemaphore(value: 0)
        let finished = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        // A registered reader that looked up once and then sits idle: its thread scratch and a
        // matcher that never matched both own reader slots that stop advancing.
        let thread = Thread {
            let match = try? router.match("/stable")
            let matcher = Matcher(router: router)
            precondition(match?.routeID == 1)
            parked.signal()
            finished.wait()
            withExtendedLifetime(matcher) {}
            done.signal()
        }
        thread.start()
        parked.wait()

        var mostPending = 0
        for cycle in 0..<cycles {
            try router.add("/churn/:id", id: 2, value: TrackedValue(counter))
            #expect(router.remove(id: 2) == 1)
            if cycle % 64 == 0 { mostPending = max(mostPending, router.core.retiredPayloadCount) }
        }
        mostPending = max(mostPending, router.core.retiredPayloadCount)
        drain(router)
        let released = counter.count.load(ordering: .relaxed)
        finished.signal()
        done.wait()

        // No reader holds anything of this router, so each value is released by its own removal.
        #expect(mostPending == 0, "retired values waiting: at most \(mostPending)")
        #expect(released == cycles, "\(released) of \(cycles) removed values released")
    }

    /// A matcher's current value stays readable until its next lookup or `clear()`, even after
    /// its route is removed; then the value is released.
    @Test func matcherHoldsItsResultUntilCleared() throws {
        let counter = DeinitCounter()
        let router = Router<TrackedValue>()
        try router.add("/held", id: 1, value: TrackedValue(counter))
        let matcher = Matcher(router: router)
        #expect(try matcher.match("/held"))
        #expect(router.remove(id: 1) == 1)
        try router.add("/other", id: 2, value: TrackedValue(counter))
        #expect(matcher.value != nil)
        #expect(counter.count.load(ordering: .relaxed) == 0, "released while the matcher could still read it")
        matcher.clear()
        #expect(router.remove(id: 2) == 1)
        drain(router)
        #expect(counter.count.load(ordering: .relaxed) == 2)
    }

    /// Keeps the writer busy until every retired value is released: reclamation runs only as
    /// part of updates.
    private func drain(_ router: Router<TrackedValue>) {
        let spare = DeinitCounter()
        let deadline = ContinuousClock.now + .seconds(10)
        var step: UInt64 = 0
        while router.core.retiredPayloadCount > 0 && ContinuousClock.now < deadline {
            step += 1
            _ = try? router.add("/drain/\(step)", id: 1_000_000 + step, value: TrackedValue(spare))
        }
        #expect(router.core.retiredPayloadCount == 0, "retired values still waiting after 10 s")
    }
}

/// How a lookup announces itself (docs/ARCHITECTURE.md, "Readers and writers"): with a plain
/// store where writers fence every thread of the process (membarrier), and the slot word says so
/// for good.
@Suite struct ReaderSlotTests {
    @Test func theSlotWordKeepsHowItsLookupsEnter() {
        let slot = ReaderSlot()
        let plain = ProcessFence.isAvailable ? ReaderSlot.plainEnter : 0
        #expect(slot.state.load(ordering: .relaxed) == plain)
        for holding in [false, true, false] {
            slot.enter(router: 1)
            let inside = slot.state.load(ordering: .relaxed)
            #expect(inside & ReaderSlot.plainEnter == plain && inside & ReaderSlot.inLookup != 0)
            slot.exit(holding: holding)
            let after = slot.state.load(ordering: .relaxed)
            #expect(after & ReaderSlot.plainEnter == plain && after & ReaderSlot.inLookup == 0)
            #expect(after & ReaderSlot.holding == (holding ? ReaderSlot.holding : 0))
            slot.drop()
            #expect(slot.state.load(ordering: .relaxed) & ~ReaderSlot.plainEnter == inside & ~(ReaderSlot.plainEnter | ReaderSlot.inLookup))
        }
        // Each lookup counts one generation; the flags stay out of the count.
        #expect(slot.state.load(ordering: .relaxed) >> 3 == 3)
    }

    /// A writer's fence returns, whichever way lookups enter (a no-op where they fence for
    /// themselves).
    @Test func writersFenceForTheReaders() {
        for _ in 0..<3 { ProcessFence.fence() }
    }
}
