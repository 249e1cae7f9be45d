// Shared by every libFuzzer harness in this directory: a reader that turns fuzzer bytes into
// choices, and a check that stops the run with a readable message.
//
// Each harness is its own executable built against the library compiled with `-enable-testing`
// (see the Makefile's reliability section), so harnesses may reach internal types with
// `@testable import FastRouter`.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Fuzzer bytes read as a stream of choices.
///
/// Past the end every read yields zero, so any input, however short, is a complete program and
/// the fuzzer's mutations keep their meaning when bytes are appended or removed.
struct FuzzInput {
    let bytes: UnsafeBufferPointer<UInt8>
    var position = 0

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    var isExhausted: Bool { position >= bytes.count }
    var remaining: Int { max(0, bytes.count - position) }

    /// The next byte, or 0 at the end.
    mutating func byte() -> UInt8 {
        guard position < bytes.count else { return 0 }
        defer { position += 1 }
        return bytes[position]
    }

    /// Two bytes, little-endian.
    mutating func uint16() -> UInt16 {
        UInt16(byte()) | UInt16(byte()) << 8
    }

    /// Eight bytes, little-endian.
    mutating func uint64() -> UInt64 {
        var value: UInt64 = 0
        for shift in stride(from: 0, to: 64, by: 8) { value |= UInt64(byte()) << UInt64(shift) }
        return value
    }

    /// A value in `0..<bound` (`bound` ≤ 256 uses one byte, larger bounds two).
    mutating func below(_ bound: Int) -> Int {
        precondition(bound > 0)
        if bound <= 256 { return Int(byte()) % bound }
        return Int(uint16()) % bound
    }

    /// True for `numerator` of every `denominator` byte values.
    mutating func chance(_ numerator: Int, in denominator: Int) -> Bool {
        below(denominator) < numerator
    }

    mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }

    /// Up to `count` bytes, fewer at the end.
    mutating func take(_ count: Int) -> [UInt8] {
        let end = min(bytes.count, position + max(0, count))
        guard position < end else { return [] }
        defer { position = end }
        return Array(bytes[position..<end])
    }

    /// A chunk whose length is the next byte (`0..<256`), bounded by `limit`.
    mutating func chunk(limit: Int = 255) -> [UInt8] {
        take(Int(byte()) % (limit + 1))
    }

    /// Everything left.
    mutating func rest() -> [UInt8] { take(remaining) }
}

/// Stops the run when an invariant does not hold: libFuzzer saves the input as a crash artifact.
///
/// A plain `abort()` after the message, so the report is the same with or without Swift's
/// backtracer and in optimised builds (where `precondition` drops its message).
@inline(__always)
func require(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String,
             file: StaticString = #fileID, line: UInt = #line) {
    guard !condition() else { return }
    fputs("FUZZ INVARIANT FAILED at \(file):\(line): \(message())\n", stderr)
    abort()
}

/// Bytes as a Swift string literal would show them, for failure messages.
func show(_ bytes: [UInt8]) -> String {
    var text = "\""
    for byte in bytes.prefix(600) {
        switch byte {
        case UInt8(ascii: "\\"): text += "\\\\"
        case UInt8(ascii: "\""): text += "\\\""
        case 0x20..<0x7F: text.unicodeScalars.append(Unicode.Scalar(byte))
        default: text += "\\x" + (byte < 16 ? "0" : "") + String(byte, radix: 16)
        }
    }
    if bytes.count > 600 { text += "…(\(bytes.count) bytes)" }
    return text + "\""
}

/// Strict UTF-8 validation (no overlongs, surrogates or code points past U+10FFFF), written
/// independently of the library so the harnesses check its decoders rather than trust them.
func isStrictUTF8<C: Collection>(_ bytes: C) -> Bool where C.Element == UInt8 {
    var iterator = bytes.makeIterator()
    while let lead = iterator.next() {
        let length: Int
        var low: UInt8 = 0x80
        var high: UInt8 = 0xBF
        switch lead {
        case 0x00...0x7F: continue
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; low = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; high = 0x9F
        case 0xF0: length = 4; low = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; high = 0x8F
        default: return false
        }
        guard let first = iterator.next(), first >= low, first <= high else { return false }
        for _ in 2..<length {
            guard let next = iterator.next(), next & 0xC0 == 0x80 else { return false }
        }
    }
    return true
}
