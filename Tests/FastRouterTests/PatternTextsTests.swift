import Testing
@testable import FastRouter

/// Front-coded pattern texts (``PatternTexts``): every entry reads back as appended, across
/// restarts, blocks, two-byte lengths, forgetting and compaction.
@Suite struct PatternTextsTests {
    /// Patterns that share prefixes of every length with their neighbours, some long enough for
    /// two-byte lengths and to fill a block with few entries.
    private static func patterns(count: Int) -> [[UInt8]] {
        var generator = DifferentialScenario.SplitMix64(seed: 2911)
        var previous: [UInt8] = []
        return (0..<count).map { _ in
            let keep = previous.isEmpty ? 0 : Int(generator.next() % UInt64(previous.count + 1))
            let tailLength = generator.next() % 50 == 0 ? 200 + Int(generator.next() % 8000) : Int(generator.next() % 20)
            let tail = (0..<tailLength).map { _ in UInt8(ascii: "a") + UInt8(generator.next() % 26) }
            previous = Array(previous.prefix(keep)) + tail
            return previous
        }
    }

    @Test func everyEntryReadsBackAsAppended() {
        let patterns = Self.patterns(count: 3000)
        var texts = PatternTexts()
        let offsets = patterns.map { pattern in pattern.withUnsafeBufferPointer { texts.append($0) } }
        for (pattern, offset) in zip(patterns, offsets) { #expect(texts.pattern(at: offset) == pattern) }
        // Long patterns filled several blocks.
        #expect(Set(offsets.map { $0 >> 16 }).count > 3)
        #expect(texts.garbage == 0)
    }

    @Test func sharedPrefixesCostNothing() {
        var texts = PatternTexts()
        let base = "/billing/invoices/:id"
        for suffix in ["", "/history", "/members/:memberId", "/edit"] {
            _ = Array((base + suffix).utf8).withUnsafeBufferPointer { texts.append($0) }
        }
        // The first entry whole (2 + 21), then two length bytes and what differs from the one
        // before: "/history", "members/:memberId", "edit".
        #expect(texts.liveBytes == (2 + 21) + (2 + 8) + (2 + 17) + (2 + 4))
    }

    @Test func forgottenEntriesAreDroppedByCompaction() {
        let patterns = Self.patterns(count: 4000)
        var texts = PatternTexts()
        let offsets = patterns.map { pattern in pattern.withUnsafeBufferPointer { texts.append($0) } }
        let used = texts.liveBytes
        for index in offsets.indices where index % 3 != 0 { texts.forget(offsets[index]) }
        #expect(texts.wantsCompaction)
        // Forgotten entries still decode the ones coded against them.
        for index in offsets.indices where index % 3 == 0 { #expect(texts.pattern(at: offsets[index]) == patterns[index]) }
        let kept = offsets.indices.filter { $0 % 3 == 0 }
        let (fresh, moved) = texts.compacted(keeping: kept.map { offsets[$0] })
        #expect(fresh.garbage == 0 && fresh.liveBytes < used)
        for (index, offset) in zip(kept, moved) { #expect(fresh.pattern(at: offset) == patterns[index]) }
    }
}
