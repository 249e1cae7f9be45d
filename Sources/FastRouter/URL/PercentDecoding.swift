/// Percent-decoding and UTF-8 validation of one URL component, on bytes.
///
/// A URL is rejected (SPEC §3.4) for an invalid escape, a NUL byte raw or decoded, or bytes
/// that are not valid UTF-8 after decoding; these functions report that with `false` and never
/// produce a partial answer the caller could mistake for a match.
enum PercentDecoding {
    /// The value of a hex digit, or 0xFF.
    @inline(__always)
    static func hexValue(_ byte: UInt8) -> UInt8 {
        switch byte {
        case 0x30...0x39: return byte &- 0x30
        case 0x41...0x46: return byte &- 0x41 &+ 10
        case 0x61...0x66: return byte &- 0x61 &+ 10
        default: return 0xFF
        }
    }

    /// Decodes `source` into `destination` (room for `source.count` bytes), turning `+` into a
    /// space when `plusAsSpace`. Returns the decoded length, or -1 for an invalid escape, a NUL,
    /// or invalid UTF-8.
    static func decode(_ source: UnsafePointer<UInt8>, _ count: Int, into destination: UnsafeMutablePointer<UInt8>,
                       plusAsSpace: Bool) -> Int {
        var read = 0
        var written = 0
        var sawHigh = false
        while read < count {
            var byte = source[read]
            if byte == 0x25 {
                guard read + 2 < count else { return -1 }
                let high = hexValue(source[read + 1])
                let low = hexValue(source[read + 2])
                guard high != 0xFF, low != 0xFF else { return -1 }
                byte = high << 4 | low
                read += 3
            } else {
                if byte == 0x2B && plusAsSpace { byte = 0x20 }
                read += 1
            }
            if byte == 0 { return -1 }
            sawHigh = sawHigh || byte >= 0x80
            destination[written] = byte
            written += 1
        }
        if sawHigh && !isValidUTF8(UnsafePointer(destination), written) { return -1 }
        return written
    }

    /// True when the bytes are well-formed UTF-8: no overlong forms, no surrogates, nothing
    /// above U+10FFFF, no truncated sequence.
    static func isValidUTF8(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> Bool {
        var index = 0
        while index < count {
            let lead = bytes[index]
            if lead < 0x80 {
                index += 1
                continue
            }
            let length: Int
            var lowerBound: UInt8 = 0x80
            var upperBound: UInt8 = 0xBF
            switch lead {
            case 0xC2...0xDF: length = 2
            case 0xE0: length = 3; lowerBound = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED: length = 3; upperBound = 0x9F  // excludes UTF-16 surrogates
            case 0xF0: length = 4; lowerBound = 0x90
            case 0xF1...0xF3: length = 4
            case 0xF4: length = 4; upperBound = 0x8F
            default: return false
            }
            guard index + length <= count else { return false }
            let second = bytes[index + 1]
            guard second >= lowerBound && second <= upperBound else { return false }
            for offset in 2..<max(length, 2) where bytes[index + offset] & 0xC0 != 0x80 {
                return false
            }
            index += length
        }
        return true
    }
}
