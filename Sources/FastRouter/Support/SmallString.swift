/// Short strings (up to 15 bytes of UTF-8) made directly in the form the standard library gives
/// them on 64-bit platforms: the bytes in two words, the count and two flags in the last byte.
///
/// Why: the standard library's way to make a string from bytes the router has already checked,
/// `String(unsafeUninitializedCapacity:initializingUTF8With:)`, costs about 140 instructions for
/// a short value (callgrind), more than the rest of reading a parameter; a match's values are
/// mostly short. This form is the standard library's own (`_SmallString`) and is part of its ABI
/// where Swift has one; elsewhere ``layoutHolds`` checks it once per process against strings the
/// standard library made itself, and callers take the standard path when it does not hold.
enum SmallString {
    /// Most bytes a small string holds.
    static var capacity: Int { 15 }

    /// Whether strings made by ``make(_:count:)`` are the standard library's own: checked once,
    /// on strings of every length and both kinds (ASCII or not) against `String(decoding:as:)`.
    static let layoutHolds: Bool = {
        #if _pointerBitWidth(_64) && _endian(little)
        let samples = ["", "a", "id", "1347", "octocat", "12345678", "Hello-World", "abcdefghijklmno", "é", "hé/wörld",
                       "日本語", "ascii then é"]
        for sample in samples {
            var copy = sample
            let matches = copy.withUTF8 { bytes -> Bool in
                // The check reads 16 bytes from the start, as ``make(_:count:)`` does.
                var padded = [UInt8](bytes)
                padded += [UInt8](repeating: 0xFF, count: 16)
                let standard = String(decoding: bytes, as: UTF8.self)
                let made = padded.withUnsafeBufferPointer { make($0.baseAddress.unsafelyUnwrapped, count: bytes.count) }
                return bits(of: made) == bits(of: standard) && made == standard && made.utf8.count == bytes.count
                    && Array(made.utf8) == Array(bytes) && made.hashValue == standard.hashValue
            }
            if !matches { return false }
        }
        return true
        #else
        return false
        #endif
    }()

    /// The string of the `count` bytes at `start`, which must be valid UTF-8, with `count` at
    /// most ``capacity``; 16 bytes from `start` must be readable. Only when ``layoutHolds``.
    @inline(__always)
    static func make(_ start: UnsafePointer<UInt8>, count: Int) -> String {
        let raw = UnsafeRawPointer(start)
        var leading = raw.loadUnaligned(as: UInt64.self)
        var trailing = raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
        // The bytes past the string must be zero.
        if count < 8 {
            leading &= (1 &<< (UInt64(truncatingIfNeeded: count) &* 8)) &- 1
            trailing = 0
        } else {
            trailing &= (1 &<< (UInt64(truncatingIfNeeded: count &- 8) &* 8)) &- 1
        }
        let ascii = (leading | trailing) & 0x8080_8080_8080_8080 == 0
        // The discriminator: small and immortal, and whether every byte is ASCII.
        let discriminator: UInt64 = ascii ? 0xE000_0000_0000_0000 : 0xA000_0000_0000_0000
        var bits = (leading, trailing | discriminator | UInt64(truncatingIfNeeded: count) &<< 56)
        // Moved out of its words rather than cast: a cast copies, and a copy of a string costs a
        // call to retain it, which a small string does not need.
        return withUnsafeMutablePointer(to: &bits) { UnsafeMutableRawPointer($0).assumingMemoryBound(to: String.self).move() }
    }

    private static func bits(of string: String) -> (UInt64, UInt64) {
        unsafeBitCast(string, to: (UInt64, UInt64).self)
    }
}
