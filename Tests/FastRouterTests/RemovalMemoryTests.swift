@testable import FastRouter
import Testing

/// Removing routes gives their memory back (docs/ARCHITECTURE.md, "Tree memory"): a router whose
/// routes were all removed, one by one, holds what a new empty router holds, give or take 1% of
/// what the routes took. Measured in a child process, where no other test allocates meanwhile.
@Suite struct RemovalMemoryTests {
    @Test(.enabled(if: HeapUsage.isMeasurable, "mallinfo2 does not see this process's allocations"))
    func removingEveryRouteLeavesAnEmptyRoutersMemory() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) {
            RemovalMemoryTests.addThenRemoveEverything()
        }
        if let result { print(String(decoding: result.standardOutputContent, as: UTF8.self), terminator: "") }
    }

    /// In the child: a router's bytes with routes past the arena's system share (so its regions
    /// are mapped), then once each was removed, against a new empty router's. A router's bytes
    /// are the live bytes it accounts for: the process's with it, less the process's without it
    /// (what the process keeps for good, such as interned names, counts for neither).
    static func addThenRemoveEverything() {
        #if DEBUG
        let count = 30_000
        #else
        let count = 100_000
        #endif
        let shapes = ["", "/:id", "/{id:int}/edit", "/files/*path", "/new"]
        let patterns = (0..<count).map { index in
            "/service-\(index / 50)/resource-\(index % 10)-\(index / 10 % 5)\(shapes[index % shapes.count])"
        }
        let base = HeapUsage.liveBytes()!
        var router: Router<Int>? = Router<Int>()
        for (index, pattern) in patterns.enumerated() {
            do { try router!.add(pattern, id: UInt64(index), value: index) } catch { fatalError("add \(pattern): \(error)") }
        }
        let full = HeapUsage.liveBytes()! - base
        for index in 0..<count { router!.remove(id: UInt64(index)) }
        precondition(router!.count == 0)
        let emptied = HeapUsage.liveBytes()!
        router = nil
        let without = HeapUsage.liveBytes()!
        let fresh = Router<Int>()
        let newEmpty = HeapUsage.liveBytes()! - without
        let left = emptied - without
        print("removal: \(count) routes took \(full) B; emptied one by one, the router holds \(left) B, a new one \(newEmpty) B")
        precondition(abs(left - newEmpty) * 100 <= full, "removing every route left \(left - newEmpty) bytes of \(full)")
        _ = fresh.count
    }
}
