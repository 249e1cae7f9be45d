import Testing
@testable import FastRouter

private func accepts(_ constraint: Constraint, _ text: String) -> Bool {
    Array(text.utf8).withUnsafeBufferPointer { constraint.matchesBuiltin($0) }
}

private func accepts(_ constraint: Constraint, bytes: [UInt8]) -> Bool {
    bytes.withUnsafeBufferPointer { constraint.matchesBuiltin($0) }
}

/// A constraint with segments it must accept and segments it must reject.
struct ConstraintCase: Sendable, CustomTestStringConvertible {
    var constraint: Constraint
    var accepted: [String]
    var rejected: [String]
    var testDescription: String { constraint.source }
}

@Suite struct ConstraintTests {
    static let cases: [ConstraintCase] = [
        ConstraintCase(
            constraint: .int,
            accepted: ["0", "7", "-0", "-1", "42", "007", "-007", "9223372036854775807", "-9223372036854775808",
                       "0000000000000000000000009223372036854775807"],
            rejected: ["-", "--1", "+1", "1-", "1.0", "1e3", " 1", "1 ", "0x1F", "9223372036854775808",
                       "-9223372036854775809", "18446744073709551616", "99999999999999999999", "١"]),
        ConstraintCase(
            constraint: .uint,
            accepted: ["0", "42", "007", "18446744073709551615", "9223372036854775808"],
            rejected: ["-0", "-1", "+1", "18446744073709551616", "184467440737095516150", "1.0", "a", "1a"]),
        ConstraintCase(
            constraint: .float,
            accepted: ["1", "-1", "0", "-1.5", "1.5", "0.0", "-0.25", "123456789012345678901234567890.5"],
            rejected: ["1.", ".5", "-.5", "-", "1e5", "1E5", "1.5.2", "+1", "1,5", "--1", "1.-5", "NaN", "inf", "1.5 "]),
        ConstraintCase(
            constraint: .uuid,
            accepted: ["123e4567-e89b-12d3-a456-426614174000", "123E4567-E89B-12D3-A456-426614174000",
                       "00000000-0000-0000-0000-000000000000", "ffffffff-FFFF-ffff-FFFF-ffffffffffff"],
            rejected: ["123e4567e89b12d3a456426614174000", "123e4567-e89b-12d3-a456-42661417400",
                       "123e4567-e89b-12d3-a456-4266141740000", "123e4567-e89b-12d3-a456_426614174000",
                       "g23e4567-e89b-12d3-a456-426614174000", "123e456-7e89b-12d3-a456-426614174000",
                       "{123e4567-e89b-12d3-a456-426614174000}"]),
        ConstraintCase(
            constraint: .alpha,
            accepted: ["a", "Z", "abcXYZ"],
            rejected: ["a1", "1", "a-b", "é", "a b", "@", "[", "`", "{"]),
        ConstraintCase(
            constraint: .alnum,
            accepted: ["a", "0", "abc123XYZ"],
            rejected: ["a_1", "a-1", "é1", "a.b", "/", ":"]),
        ConstraintCase(
            constraint: .hex,
            accepted: ["0", "deadBEEF", "0123456789abcdefABCDEF"],
            rejected: ["g", "0x1f", "G", "-1", "@", "`"]),
    ]

    @Test(arguments: cases)
    func builtinAcceptsExactlyItsLanguage(_ subject: ConstraintCase) {
        for text in subject.accepted {
            #expect(accepts(subject.constraint, text), "\(subject.constraint.source) should accept \(text)")
        }
        for text in subject.rejected {
            #expect(!accepts(subject.constraint, text), "\(subject.constraint.source) should reject \(text)")
        }
    }

    @Test(arguments: [Constraint.int, .uint, .float, .uuid, .alpha, .alnum, .hex, .regex(".*")])
    func emptySegmentNeverMatches(_ constraint: Constraint) {
        #expect(!accepts(constraint, ""))
        #expect(!constraint.matchesBuiltin(UnsafeBufferPointer(start: nil, count: 0)))
    }

    @Test func regexIsNotABuiltin() {
        #expect(!accepts(.regex(".*"), "anything"))
        #expect(!accepts(.regex("[0-9]+"), "123"))
    }

    /// Each single-byte segment against each byte-class constraint, compared with a plain definition.
    @Test func everyByteValueAsASingleByteSegment() {
        for value in 0...255 {
            let byte = UInt8(value)
            let isDigit = (0x30...0x39).contains(value)
            let isAlpha = (0x41...0x5A).contains(value) || (0x61...0x7A).contains(value)
            let isHex = isDigit || (0x41...0x46).contains(value) || (0x61...0x66).contains(value)
            #expect(accepts(.int, bytes: [byte]) == isDigit, "int \(value)")
            #expect(accepts(.uint, bytes: [byte]) == isDigit, "uint \(value)")
            #expect(accepts(.float, bytes: [byte]) == isDigit, "float \(value)")
            #expect(accepts(.alpha, bytes: [byte]) == isAlpha, "alpha \(value)")
            #expect(accepts(.alnum, bytes: [byte]) == (isAlpha || isDigit), "alnum \(value)")
            #expect(accepts(.hex, bytes: [byte]) == isHex, "hex \(value)")
            #expect(!accepts(.uuid, bytes: [byte]), "uuid \(value)")
        }
    }

    /// Every in-range Int64 spelling round-trips through Swift's own parser; the scanner agrees with it.
    @Test func intAndUintAgreeWithSwiftParsing() {
        var generator = SeededRandom(seed: 42)
        for _ in 0..<5_000 {
            let raw = generator.next()
            let shift = generator.next() % 64
            let signed = Int64(bitPattern: raw >> shift)
            let negated = signed == .min ? signed : -signed
            for text in [String(signed), String(negated), String(raw >> shift), String(raw)] {
                #expect(accepts(.int, text) == (Int64(text) != nil), "int \(text)")
                #expect(accepts(.uint, text) == (UInt64(text) != nil), "uint \(text)")
            }
        }
    }
}

/// A small seeded generator (SplitMix64) so the random cases replay identically.
private struct SeededRandom {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
