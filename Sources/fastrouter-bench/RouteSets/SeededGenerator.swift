/// SplitMix64: a small, fast generator whose fixed seeds make every generated set the same on
/// every machine and every run, so figures from different runs compare like for like.
struct SeededGenerator: RandomNumberGenerator, Sendable {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }

    static let alphanumeric = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz".utf8)
    static let lowercaseAlphanumeric = Array("0123456789abcdefghijklmnopqrstuvwxyz".utf8)
    static let hexDigits = Array("0123456789abcdef".utf8)

    /// `length` bytes drawn from `alphabet`.
    mutating func token(length: Int, alphabet: [UInt8]) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(length)
        for _ in 0..<length { bytes.append(alphabet[Int(next(upperBound: UInt64(alphabet.count)))]) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A random version-4 UUID in lower case.
    mutating func uuid() -> String {
        let digits = token(length: 32, alphabet: Self.hexDigits)
        let characters = Array(digits)
        func part(_ range: Range<Int>) -> String { String(characters[range]) }
        return "\(part(0..<8))-\(part(8..<12))-4\(part(13..<16))-a\(part(17..<20))-\(part(20..<32))"
    }

    /// An integer in `0 ..< bound` (`bound` > 0).
    mutating func int(below bound: Int) -> Int { Int(next(upperBound: UInt64(bound))) }

    /// An element of a non-empty array.
    mutating func pick<T>(_ elements: [T]) -> T { elements[Int(next(upperBound: UInt64(elements.count)))] }

    /// `true` with probability `probability`.
    mutating func chance(_ probability: Double) -> Bool {
        Double(next() >> 11) / Double(1 << 53) < probability
    }
}
