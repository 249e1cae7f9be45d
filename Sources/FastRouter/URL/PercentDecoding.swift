/// Percent-decoding and UTF-8 validation of one URL component, on bytes.
///
/// A URL is rejected (docs/SEMANTICS.md §3.4) for an invalid escape, a NUL byte raw or decoded, or bytes
/// that are not valid UTF-8 after decoding; these functions report that with `false` and never
/// produce a partial answer the caller could mistake for a match.
enum PercentDecoding {
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
                let high = ASCII.hexValue(source[read + 1])
                let low = ASCII.hexValue(source[read + 2])
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
        if sawHigh && !UTF8Validation.isValid(UnsafePointer(destination), written) { return -1 }
        return written
    }
}
