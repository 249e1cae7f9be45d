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
        // A route's leaf: a 40-byte header and a 40-byte terminal, in a block of two cache lines.
        #expect(Self.part("tree: leaf nodes", breakdown)?.items == 100)
        #expect(Self.part("tree: leaf nodes", breakdown)?.bytes == 100 * 128)
        // The root and `a`, whose 100 children are more than an index holds: chunks.
        #expect(Self.part("tree: inner nodes", breakdown)?.items == 2)
        #expect((Self.part("tree: literal chunks", breakdown)?.items ?? 0) >= 1)
        #expect(Self.part("route records", breakdown)?.items == 100)
        #expect(Self.part("pattern text", breakdown)?.items == patterns.reduce(0) { $0 + $1.utf8.count })
        #expect(Self.part("Swift value boxes", breakdown)?.items == 100)
        #expect(breakdown.totalBytes == breakdown.parts.reduce(0) { $0 + $1.bytes })

        for id in 0..<100 { router.remove(id: UInt64(id)) }
        let emptied = router.memoryBreakdown()
        #expect(Self.part("tree: leaf nodes", emptied)?.items == 1, "an empty table keeps its root")
        #expect(Self.part("route records", emptied)?.bytes == 0)
        #expect(Self.part("pattern text", emptied)?.bytes == 0)
        #expect(Self.part("Swift value boxes", emptied)?.items == 0)
    }
}
