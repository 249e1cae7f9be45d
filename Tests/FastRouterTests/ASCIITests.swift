import Testing
@testable import FastRouter

/// The byte classes every part of the library shares, checked byte by byte against RFC 3986's
/// sets written out as text, and the UTF-8 validator against the standard library's.
@Suite struct ASCIITests {
    static let letters = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz".utf8)
    static let digits = Set("0123456789".utf8)

    @Test func everyByteIsClassifiedAsRFC3986Says() {
        let hexDigits = Self.digits.union("abcdefABCDEF".utf8)
        let scheme = Self.letters.union(Self.digits).union("+-.".utf8)
        let unreserved = Self.letters.union(Self.digits).union("-._~".utf8)
        let subDelimiters = Set("!$&'()*+,;=".utf8)
        for value in 0...255 {
            let byte = UInt8(value)
            #expect(ASCII.isAlpha(byte) == Self.letters.contains(byte), "byte \(value)")
            #expect(ASCII.isDigit(byte) == Self.digits.contains(byte), "byte \(value)")
            #expect(ASCII.isHexDigit(byte) == hexDigits.contains(byte), "byte \(value)")
            #expect(ASCII.isSchemeCharacter(byte) == scheme.contains(byte), "byte \(value)")
            #expect(ASCII.isUnreserved(byte) == unreserved.contains(byte), "byte \(value)")
            #expect(ASCII.isSubDelimiter(byte) == subDelimiters.contains(byte), "byte \(value)")
            let expectedHex = hexDigits.contains(byte) ? UInt8(String(UnicodeScalar(byte)), radix: 16)! : 0xFF
            #expect(ASCII.hexValue(byte) == expectedHex, "byte \(value)")
            let lowered = String(decoding: [byte], as: UTF8.self).lowercased().utf8
            #expect(ASCII.lowercased(byte) == (byte < 0x80 ? lowered.first! : byte), "byte \(value)")
        }
        #expect(ASCII.hex(0x0A) == "0A" && ASCII.hex(0xFF) == "FF")
    }

    @Test func utf8ValidationAgreesWithTheStandardLibrary() {
        var generator = DifferentialScenario.SplitMix64(seed: 3629)
        // Bytes biased towards lead and continuation bytes, so most runs hold multi-byte sequences.
        let alphabet: [UInt8] = [0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF, 0xE0, 0xE1,
                                 0xEC, 0xED, 0xEE, 0xEF, 0xF0, 0xF1, 0xF3, 0xF4, 0xF5, 0xFF]
        for _ in 0..<20_000 {
            let count = Int(generator.next() % 9)
            let bytes = (0..<count).map { _ in alphabet[Int(generator.next() % UInt64(alphabet.count))] }
            let valid = String(validating: bytes, as: UTF8.self) != nil
            #expect((UTF8Validation.firstInvalidIndex(bytes) == nil) == valid, "\(bytes)")
            bytes.withUnsafeBufferPointer { buffer in
                guard let base = buffer.baseAddress else { return }
                #expect(UTF8Validation.isValid(base, buffer.count) == valid, "\(bytes)")
            }
        }
    }

    @Test func theFirstInvalidSequenceIsWhereItStarts() {
        let cases: [([UInt8], Int?)] = [
            (Array("héllo".utf8), nil),
            (Array("a😀b".utf8), nil),
            ([0x61, 0xC0, 0x80], 1),             // overlong NUL
            ([0x61, 0x62, 0xE0, 0x80, 0x80], 2), // overlong three-byte form
            ([0xED, 0xA0, 0x80], 0),             // a UTF-16 surrogate
            ([0x61, 0xF4, 0x90, 0x80, 0x80], 1), // above U+10FFFF
            ([0x61, 0xE2, 0x82], 1),             // cut off
            ([0xC3, 0xA9, 0x80], 2),             // a stray continuation byte
        ]
        for (bytes, expected) in cases {
            #expect(UTF8Validation.firstInvalidIndex(bytes) == expected, "\(bytes)")
        }
    }
}
