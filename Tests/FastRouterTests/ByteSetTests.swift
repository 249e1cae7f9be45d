@testable import FastRouter
import Testing

/// The set of bytes the parser's literal test and the byte-class scanner share.
@Suite struct ByteSetTests {
    @Test func holdsExactlyTheBytesOfItsRule() {
        let rules: [(UInt8) -> Bool] = [{ $0 % 3 == 0 }, { $0 >= 0x80 }, { _ in false }, { $0 == 0 || $0 == 255 }]
        for rule in rules {
            let set = ByteSet(where: rule)
            for byte in UInt8.min...UInt8.max { #expect(set.contains(byte) == rule(byte), "byte \(byte)") }
            #expect(set.containsNonASCII == (0x80...0xFF).contains { rule(UInt8($0)) })
        }
    }

    @Test func insertsRangesAndInverts() {
        var set = ByteSet()
        set.insert(UInt8(ascii: "a")...UInt8(ascii: "z"))
        set.insert(UInt8(ascii: "-"))
        #expect(set.contains(UInt8(ascii: "m")) && set.contains(UInt8(ascii: "-")) && !set.contains(UInt8(ascii: "A")))
        #expect(!set.containsNonASCII)
        set.invert()
        #expect(!set.contains(UInt8(ascii: "m")) && set.contains(UInt8(ascii: "A")) && set.contains(0xFF))
        #expect(set.containsNonASCII)
        #expect(set == ByteSet { !($0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z")) && $0 != UInt8(ascii: "-") })
    }

    /// The two ASCII words a scanning loop keeps in registers say what ``ByteSet/contains(_:)``
    /// says for every byte below 0x80 (a set like the pattern parser's literal characters, and a
    /// sparse one on the words' edges).
    @Test func itsASCIIWordsAgreeWithContains() {
        let literalLike = ByteSet { ASCII.isAlpha($0) || ASCII.isDigit($0) || "-._~!$&'+,;=:@".utf8.contains($0) }
        for set in [literalLike, ByteSet { $0 == 0 || $0 == 63 || $0 == 64 || $0 == 127 }] {
            let (low, high) = set.asciiWords
            for byte in UInt8(0)..<0x80 {
                let word = byte < 64 ? low : high
                #expect(((word >> UInt64(byte & 63)) & 1 != 0) == set.contains(byte), "byte \(byte)")
            }
        }
    }
}
