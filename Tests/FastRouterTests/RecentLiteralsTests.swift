@testable import FastRouter
import Testing

/// A writer's recent literals give an array holding exactly the bytes asked for, shared with an
/// equal literal made lately, whatever else shares its slot.
@Suite struct RecentLiteralsTests {
    private static func array(_ text: String, from recent: inout RecentLiterals) -> [UInt8] {
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBufferPointer { buffer in
            var hash = RecentLiterals.hashSeed
            for byte in buffer { hash = RecentLiterals.hash(hash, byte) }
            return recent.array(of: buffer, hash: hash)
        }
    }

    @Test func anEqualLiteralSharesTheArrayMadeLately() {
        var recent = RecentLiterals()
        let first = Self.array("repos", from: &recent)
        let again = Self.array("repos", from: &recent)
        #expect(first == Array("repos".utf8))
        #expect(first.withUnsafeBufferPointer { $0.baseAddress } == again.withUnsafeBufferPointer { $0.baseAddress },
                "one array for both")
    }

    @Test func everyLiteralGetsItsOwnBytesThroughCollisions() {
        var recent = RecentLiterals()
        // Far more literals than slots, of many lengths (and ones differing in one byte), asked
        // for twice: every answer must hold exactly its own bytes.
        let texts = (0..<(RecentLiterals.slotCount * 4)).map { "seg\($0 % 977)" + String(repeating: "x", count: $0 % 13) }
        for round in 0..<2 {
            for text in texts {
                #expect(Self.array(text, from: &recent) == Array(text.utf8), "round \(round): \(text)")
            }
        }
    }
}
