/// A regex constraint that is one character class repeated (`[^/]+`, `[a-z0-9-]{2,8}`, `\d+`),
/// matched with a 256-bit table instead of a call into PCRE2.
///
/// Such classes are the common case of regex constraints, and a PCRE2 call costs more than the
/// rest of a lookup. The scanner answers exactly as PCRE2 does for the same source (compiled in
/// UTF mode, anchored at both ends) on any valid UTF-8 segment:
/// - a class of ASCII members matches the same bytes; a negated one also matches every byte of
///   a multibyte character, which PCRE2 matches as one character outside the class;
/// - `+` and `*` need at least one, or any number of, characters, which is the same as bytes;
///   counted repetitions (`{m,n}`) are taken only for classes without non-ASCII bytes, where
///   bytes and characters are one and the same.
/// Anything else (alternation, anchors, flags, POSIX classes, lazy or possessive quantifiers)
/// is left to PCRE2: ``recognize(_:)`` returns `nil`.
struct ByteClassScanner: Equatable {
    /// The bytes of the class.
    private var table = ByteSet()
    /// Bytes the segment must have, at least and at most.
    private(set) var minimum = 0
    private(set) var maximum = Int.max

    /// True when `segment` is a whole match of the class repeated.
    @inline(__always)
    func matches(_ segment: UnsafeBufferPointer<UInt8>) -> Bool {
        guard segment.count >= minimum, segment.count <= maximum else { return false }
        for byte in segment where !contains(byte) { return false }
        return true
    }

    @inline(__always)
    private func contains(_ byte: UInt8) -> Bool { table.contains(byte) }

    private mutating func insert(_ byte: UInt8) { table.insert(byte) }

    private mutating func insert(_ range: ClosedRange<UInt8>) { table.insert(range) }

    /// The scanner for `source`, or `nil` when the source is not a repeated character class.
    static func recognize(_ source: String) -> ByteClassScanner? {
        var reader = Array(source.utf8)[...]
        var scanner = ByteClassScanner()
        guard let first = reader.popFirst() else { return nil }
        switch first {
        case UInt8(ascii: "["):
            guard scanner.readClass(&reader) else { return nil }
        case UInt8(ascii: "\\"):
            guard let letter = reader.popFirst(), scanner.insertShorthand(letter) else { return nil }
        default:
            return nil
        }
        guard scanner.readQuantifier(&reader), reader.isEmpty else { return nil }
        // A counted repetition counts characters: only bytes and characters coincide.
        let hasNonASCII = scanner.table.containsNonASCII
        if hasNonASCII && !(scanner.minimum <= 1 && scanner.maximum == Int.max) { return nil }
        return scanner
    }

    /// Reads the members of a bracket class after its `[`, through the closing `]`.
    private mutating func readClass(_ reader: inout ArraySlice<UInt8>) -> Bool {
        let negated = reader.first == UInt8(ascii: "^")
        if negated { reader.removeFirst() }
        // PCRE2 takes a `]` right after `[` or `[^` as a member; left to PCRE2.
        guard let head = reader.first, head != UInt8(ascii: "]") else { return false }
        var previous: UInt8?  // the last single member, which a following `-x` turns into a range
        while let byte = reader.popFirst() {
            switch byte {
            case UInt8(ascii: "]"):
                if negated { table.invert() }
                return true
            case UInt8(ascii: "\\"):
                guard let letter = reader.popFirst() else { return false }
                if isPunctuation(letter) {
                    insert(letter)
                    previous = letter
                } else {
                    guard insertShorthand(letter) else { return false }
                    previous = nil
                }
            case UInt8(ascii: "-") where previous != nil && reader.first != UInt8(ascii: "]"):
                guard let end = reader.popFirst(), isPlainMember(end), let start = previous, start <= end else {
                    return false
                }
                insert(start...end)
                previous = nil
            case UInt8(ascii: "["):
                return false  // POSIX classes such as [:alpha:]
            default:
                guard isPlainMember(byte) else { return false }
                insert(byte)
                previous = byte
            }
        }
        return false  // no closing bracket
    }

    /// `\d` or `\w` (ASCII-only without PCRE2's UCP option, which constraints do not use).
    private mutating func insertShorthand(_ letter: UInt8) -> Bool {
        switch letter {
        case UInt8(ascii: "d"):
            insert(UInt8(ascii: "0")...UInt8(ascii: "9"))
        case UInt8(ascii: "w"):
            insert(UInt8(ascii: "0")...UInt8(ascii: "9"))
            insert(UInt8(ascii: "A")...UInt8(ascii: "Z"))
            insert(UInt8(ascii: "a")...UInt8(ascii: "z"))
            insert(UInt8(ascii: "_"))
        default:
            return false
        }
        return true
    }

    /// `+`, `*`, `{m}`, `{m,}` or `{m,n}`; nothing else may follow.
    private mutating func readQuantifier(_ reader: inout ArraySlice<UInt8>) -> Bool {
        guard let byte = reader.popFirst() else { return false }  // a lone class: one character
        switch byte {
        case UInt8(ascii: "+"):
            minimum = 1
        case UInt8(ascii: "*"):
            minimum = 0
        case UInt8(ascii: "{"):
            guard let low = readNumber(&reader) else { return false }
            minimum = low
            maximum = low
            if reader.first == UInt8(ascii: ",") {
                reader.removeFirst()
                maximum = reader.first == UInt8(ascii: "}") ? Int.max : (readNumber(&reader) ?? -1)
                guard maximum >= minimum else { return false }
            }
            guard reader.popFirst() == UInt8(ascii: "}") else { return false }
        default:
            return false
        }
        return true
    }

    private func readNumber(_ reader: inout ArraySlice<UInt8>) -> Int? {
        var value = 0
        var digits = 0
        while let byte = reader.first, byte &- UInt8(ascii: "0") < 10, digits < 5 {
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
            digits += 1
            reader.removeFirst()
        }
        return digits > 0 ? value : nil
    }

    /// A byte that stands for itself inside a class.
    private func isPlainMember(_ byte: UInt8) -> Bool {
        byte >= 0x20 && byte < 0x7F && byte != UInt8(ascii: "\\") && byte != UInt8(ascii: "[")
            && byte != UInt8(ascii: "]")
    }

    /// ASCII punctuation, which a backslash makes literal.
    private func isPunctuation(_ byte: UInt8) -> Bool {
        byte > 0x20 && byte < 0x7F && !(byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "z"))
            && !(byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
    }
}
