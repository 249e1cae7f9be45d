@testable import FastRouter
import Testing

/// The writer's in-place list (Support/WriterBuffer.swift): elements kept through growth, changed
/// in place, and destroyed exactly once (when emptied or when the list goes).
@Suite struct WriterBufferTests {
    private final class Census { var alive = 0 }
    private final class Tracked {
        let census: Census
        init(_ census: Census) { self.census = census; census.alive += 1 }
        deinit { census.alive -= 1 }
    }

    @Test func growsKeepingItsElementsAndChangesThemInPlace() {
        var buffer = WriterBuffer<[Int]>()
        for index in 0..<100 { buffer.append([index]) }
        #expect(buffer.count == 100 && buffer.capacity >= 100)
        for index in 0..<100 { buffer[index].append(index * 2) }
        #expect((0..<100).allSatisfy { buffer[$0] == [$0, $0 * 2] })
        let capacity = buffer.capacity
        buffer.removeAll()
        #expect(buffer.count == 0 && buffer.capacity == capacity)
        buffer.append([7])
        #expect(buffer.count == 1 && buffer[0] == [7], "emptied, it takes elements again in its room")
    }

    @Test func destroysEachElementOnce() {
        let census = Census()
        do {
            var buffer = WriterBuffer<Tracked>()
            for _ in 0..<10 { buffer.append(Tracked(census)) }
            #expect(census.alive == 10)
            buffer.removeAll()
            #expect(census.alive == 0)
            for _ in 0..<40 { buffer.append(Tracked(census)) }
            #expect(census.alive == 40)
        }
        #expect(census.alive == 0, "the list's elements go with it")
    }
}
