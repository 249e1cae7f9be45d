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
