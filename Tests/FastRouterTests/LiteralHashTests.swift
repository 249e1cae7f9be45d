import Testing
@testable import FastRouter

/// Keys are hashed as registered (no byte past their end may be read) and URL segments as looked
/// up (padded, whole words): both must give the same hash, blind to ASCII case, or a literal
/// would never be found again.
@Suite struct LiteralHashTests {
    @Test func paddedAndUnpaddedHashesAgreeAtEveryLength() {
        var generator = DifferentialScenario.SplitMix64(seed: 11)
        for length in 1...40 {
            for _ in 0..<50 {
                let bytes = (0..<length).map { _ in UInt8(truncatingIfNeeded: generator.next() % 94 + 33) }
                let padded = bytes + [UInt8](repeating: 0xAB, count: 16)  // garbage after the segment
                let exact = bytes.withUnsafeBufferPointer { LiteralHash.segmentHash($0.baseAddress!, length) }
                let lookup = padded.withUnsafeBufferPointer { LiteralHash.paddedSegmentHash($0.baseAddress!, length) }
                #expect(exact == lookup, "length \(length): \(bytes)")
                // Upper and lower case hash alike.
                let upper = bytes.map { $0 >= 0x61 && $0 <= 0x7A ? $0 - 0x20 : $0 } + [UInt8](repeating: 0, count: 16)
                let folded = upper.withUnsafeBufferPointer { LiteralHash.paddedSegmentHash($0.baseAddress!, length) }
                #expect(folded == lookup, "length \(length): \(bytes)")
            }
        }
    }

    @Test func theEmptySegmentHashesAlikeBothWays() {
        let bytes: [UInt8] = [0x41, 0x42, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]
        bytes.withUnsafeBufferPointer {
            #expect(LiteralHash.segmentHash($0.baseAddress!, 0) == LiteralHash.paddedSegmentHash($0.baseAddress!, 0))
        }
    }

    /// Siblings that differ only in their first bytes ("1", "2", ... or "abc", "bbc", ...) must
    /// spread over the literal index: a short segment's hash is its raw bytes, so the edge hash
    /// alone mixes them. Measured as the mean distance of an entry from its home slot.
    @Test func siblingsDifferingInTheirFirstBytesSpreadOverTheIndex() throws {
        let router = Router<Int>()
        var routes: [Route<Int>] = (1...5000).map { Route("/n/\($0)", value: $0) }
        for parent in 0..<20 {
            for letter in UInt8(ascii: "a")...UInt8(ascii: "z") {
                routes.append(Route("/p\(parent)/\(Character(Unicode.Scalar(letter)))bc", value: 0))
            }
        }
        _ = try router.add(contentsOf: routes)
        let slots = router.core.publishedSide.literalSlots
        let mask = slots.count - 1
        var occupied = 0
        var displacement = 0
        for index in 0..<slots.count where slots[index].child != 0 {
            occupied += 1
            displacement += (index - Int(slots[index].hash) & mask) & mask
        }
        let mean = Double(displacement) / Double(occupied)
        // Linear probing at this load factor averages well under one slot for a good hash;
        // hashing the raw bytes' high product half alone gave about four.
        #expect(mean < 1.0, "mean displacement \(mean) over \(occupied) entries")
    }

    @Test func paddedEqualComparesOnlyTheGivenBytes() {
        let a = Array("segment-one".utf8) + [1, 2, 3, 4, 5, 6, 7, 8]
        let b = Array("segment-one".utf8) + [9, 9, 9, 9, 9, 9, 9, 9]
        let c = Array("SEGMENT-ONE".utf8) + [0, 0, 0, 0, 0, 0, 0, 0]
        a.withUnsafeBufferPointer { a in
            b.withUnsafeBufferPointer { b in
                c.withUnsafeBufferPointer { c in
                    #expect(ByteComparison.paddedEqual(a.baseAddress!, b.baseAddress!, 11, folded: false))
                    #expect(!ByteComparison.paddedEqual(a.baseAddress!, b.baseAddress!, 12, folded: false))
                    #expect(!ByteComparison.paddedEqual(a.baseAddress!, c.baseAddress!, 11, folded: false))
                    #expect(ByteComparison.paddedEqual(a.baseAddress!, c.baseAddress!, 11, folded: true))
                }
            }
        }
    }
}
