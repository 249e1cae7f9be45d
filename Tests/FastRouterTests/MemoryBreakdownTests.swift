@testable import FastRouter
import Testing

/// Where a router's bytes go (``RouterCore/memoryBreakdown()``): each part counts what it
/// names, at the size the allocator gives it.
@Suite struct MemoryBreakdownTests {
    private static func part(_ name: String, _ breakdown: MemoryBreakdown) -> MemoryBreakdown.Part? {
        breakdown.parts.first { $0.name == name }
    }

    @Test func partsCountTheTreeTheRecordsAndTheValues() throws {
        let router = Router<Int>()
        let patterns = (0..<100).map { "/a/r\($0)" }
        try router.add(contentsOf: patterns.enumerated().map { Route($1, id: UInt64($0), value: $0) })
        let breakdown = router.memoryBreakdown()
        // A route's leaf: a 40-byte header and a 24-byte terminal, one cache line.
        #expect(Self.part("tree: leaf nodes", breakdown)?.items == 100)
        #expect(Self.part("tree: leaf nodes", breakdown)?.bytes == 100 * 64)
        // The root and `a`, whose 100 children are more than an index holds: chunks.
        #expect(Self.part("tree: inner nodes", breakdown)?.items == 2)
        #expect((Self.part("tree: literal chunks", breakdown)?.items ?? 0) >= 1)
        #expect(Self.part("route records", breakdown)?.items == 100)
        // Front-coded: each pattern after a restart costs two length bytes and what differs.
        let textBytes = patterns.reduce(0) { $0 + $1.utf8.count }
        #expect((Self.part("pattern text", breakdown)?.items ?? 0) < textBytes * 2 / 3)
        // Each value in a 16-byte slot with its route id, in chunks of 16, 32 and 64 slots.
        #expect(Self.part("Swift values", breakdown)?.items == 100)
        #expect(Self.part("Swift values", breakdown)?.bytes == (16 + 32 + 64) * 16)
        #expect(breakdown.totalBytes == breakdown.parts.reduce(0) { $0 + $1.bytes })

        for id in 0..<100 { router.remove(id: UInt64(id)) }
        let emptied = router.memoryBreakdown()
        #expect(Self.part("tree: leaf nodes", emptied)?.items == 1, "an empty table keeps its root")
        #expect(Self.part("route records", emptied)?.bytes == 0)
        #expect(Self.part("pattern text", emptied)?.bytes == 0)
        // No reader held a value: every slot is freed at once, and the chunks with the last.
        #expect(Self.part("Swift values", emptied)?.items == 0)
        #expect(Self.part("Swift values", emptied)?.bytes == 0)
    }
}
