/// ASCII character classes and case folding on single bytes, with RFC 3986's names: the one
/// definition the pattern parser, the URL scanner, the constraint scanners, URL generation and
/// the deep-link layer share. Every byte outside a class, non-ASCII ones included, is simply
/// not in it.
package enum ASCII {
    /// `A`–`Z` or `a`–`z`. Setting bit 5 maps A–Z onto a–z and leaves no other byte in a–z.
    @inline(__always)
    package static func isAlpha(_ byte: UInt8) -> Bool { (byte | 0x20) &- UInt8(ascii: "a") < 26 }

    /// `0`–`9`.
    @inline(__always)
    static func isDigit(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "0") < 10 }

    /// `0`–`9`, `a`–`f` or `A`–`F`.
    @inline(__always)
    static func isHexDigit(_ byte: UInt8) -> Bool { isDigit(byte) || (byte | 0x20) &- UInt8(ascii: "a") < 6 }

    /// The value of a hex digit, or 0xFF for any other byte (a sentinel rather than an optional:
    /// URL decoding checks both digits of an escape with one comparison each).
    @inline(__always)
    static func hexValue(_ byte: UInt8) -> UInt8 {
        switch byte {
        case 0x30...0x39: return byte &- 0x30
        case 0x41...0x46: return byte &- 0x41 &+ 10
        case 0x61...0x66: return byte &- 0x61 &+ 10
        default: return 0xFF
        }
    }

    /// A scheme's characters after its first letter: `ALPHA / DIGIT / "+" / "-" / "."`.
    @inline(__always)
    package static func isSchemeCharacter(_ byte: UInt8) -> Bool {
        isAlpha(byte) || isDigit(byte) || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-")
            || byte == UInt8(ascii: ".")
    }

    /// `unreserved = ALPHA / DIGIT / "-" / "." / "_" / "~"`
    @inline(__always)
    static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"): return true
        default: return isAlpha(byte) || isDigit(byte)
        }
    }

    /// `sub-delims = "!" / "$" / "&" / "'" / "(" / ")" / "*" / "+" / "," / ";" / "="`
    @inline(__always)
    static func isSubDelimiter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "("),
             UInt8(ascii: ")"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: ","), UInt8(ascii: ";"),
             UInt8(ascii: "="):
            return true
        default:
            return false
        }
    }

    /// The byte with `A`–`Z` lower-cased; every other byte unchanged.
    @inline(__always)
    package static func lowercased(_ byte: UInt8) -> UInt8 { byte &- UInt8(ascii: "A") < 26 ? byte | 0x20 : byte }

    /// Two upper-case hex digits.
    static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF".utf8)
        return String(decoding: [digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]], as: UTF8.self)
    }
}
