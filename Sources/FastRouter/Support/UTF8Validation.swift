/// Strict UTF-8 checking (RFC 3629): no overlong forms, no UTF-16 surrogates, nothing above
/// U+10FFFF, no truncated sequence. Patterns ask where the first ill-formed sequence starts (an
/// error points there); decoded URL parts only whether there is one.
enum UTF8Validation {
    /// Length of the well-formed sequence starting at `index` (1 for ASCII), or 0 when it is
    /// ill-formed or cut off by `count`.
    @inline(__always)
    static func sequenceLength(_ bytes: UnsafePointer<UInt8>, _ count: Int, at index: Int) -> Int {
        let length: Int
        var low: UInt8 = 0x80
        var high: UInt8 = 0xBF
        switch bytes[index] {
        case 0x00...0x7F: return 1
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; low = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; high = 0x9F
        case 0xF0: length = 4; low = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; high = 0x8F
        default: return 0
        }
        guard index + length <= count else { return 0 }
        // The first continuation byte carries the overlong, surrogate and range restrictions.
        guard (low...high).contains(bytes[index + 1]) else { return 0 }
        for offset in 2..<length where bytes[index + offset] & 0xC0 != 0x80 { return 0 }
        return length
    }

    /// Index of the first byte of the first ill-formed sequence, or `nil` when all is valid.
    static func firstInvalidIndex(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> Int? {
        var index = 0
        while index < count {
            let length = sequenceLength(bytes, count, at: index)
            if length == 0 { return index }
            index += length
        }
        return nil
    }

    /// ``firstInvalidIndex(_:_:)`` of an array's bytes.
    static func firstInvalidIndex(_ bytes: [UInt8]) -> Int? {
        bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return nil }
            return firstInvalidIndex(base, buffer.count)
        }
    }

    /// Whether all `count` bytes are well-formed UTF-8.
    static func isValid(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> Bool {
        firstInvalidIndex(bytes, count) == nil
    }
}
