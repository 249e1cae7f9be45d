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

    @Test func paddedEqualComparesOnlyTheGivenBytes() {
        let a = Array("segment-one".utf8) + [1, 2, 3, 4, 5, 6, 7, 8]
        let b = Array("segment-one".utf8) + [9, 9, 9, 9, 9, 9, 9, 9]
        let c = Array("SEGMENT-ONE".utf8) + [0, 0, 0, 0, 0, 0, 0, 0]
        a.withUnsafeBufferPointer { a in
            b.withUnsafeBufferPointer { b in
                c.withUnsafeBufferPointer { c in
                    #expect(LiteralHash.paddedEqual(a.baseAddress!, b.baseAddress!, 11, folded: false))
                    #expect(!LiteralHash.paddedEqual(a.baseAddress!, b.baseAddress!, 12, folded: false))
                    #expect(!LiteralHash.paddedEqual(a.baseAddress!, c.baseAddress!, 11, folded: false))
                    #expect(LiteralHash.paddedEqual(a.baseAddress!, c.baseAddress!, 11, folded: true))
                }
            }
        }
    }
}
