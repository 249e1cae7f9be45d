/// Built-in constraints as single-pass byte scanners (docs/SEMANTICS.md §3.6): ASCII only, no regex engine,
/// no allocation, each accepting the whole decoded segment or nothing.
extension Constraint {
    /// Whether a built-in constraint accepts the decoded segment as a whole.
    ///
    /// An empty segment never matches. `.regex` is not a built-in: it needs a ``CompiledRegex``
    /// and a ``RegexScratch``, so this returns `false` for it.
    ///
    /// ```swift
    /// Constraint.int.matchesBuiltin(bytes("-42"))   // true
    /// Constraint.uint.matchesBuiltin(bytes("-42"))  // false
    /// ```
    /// - Parameter segment: The percent-decoded segment bytes.
    /// - Returns: `true` when the constraint accepts every byte of `segment`.
    /// - Complexity: O(segment length), no allocation.
    package func matchesBuiltin(_ segment: UnsafeBufferPointer<UInt8>) -> Bool {
        guard !segment.isEmpty else { return false }
        switch self {
        case .int: return Self.scanInteger(segment, allowsSign: true)
        case .uint: return Self.scanInteger(segment, allowsSign: false)
        case .float: return Self.scanFloat(segment)
        case .uuid: return Self.scanUUID(segment)
        case .alpha:
            for byte in segment where !ASCII.isAlpha(byte) { return false }
            return true
        case .alnum:
            for byte in segment where !ASCII.isAlpha(byte) && !ASCII.isDigit(byte) { return false }
            return true
        case .hex:
            for byte in segment where !ASCII.isHexDigit(byte) { return false }
            return true
        case .regex: return false
        }
    }

    /// `-?[0-9]+` within Int64 (`allowsSign`), or `[0-9]+` within UInt64.
    ///
    /// Leading zeros are accepted (`007`, `-0`): the value, not the spelling, must fit.
    private static func scanInteger(_ segment: UnsafeBufferPointer<UInt8>, allowsSign: Bool) -> Bool {
        var index = 0
        var negative = false
        if allowsSign && segment[0] == UInt8(ascii: "-") {
            negative = true
            index = 1
        }
        guard index < segment.count else { return false }
        // Int64.min's magnitude is one more than Int64.max, so the bound depends on the sign.
        let limit: UInt64 = allowsSign ? (negative ? UInt64(Int64.max) + 1 : UInt64(Int64.max)) : UInt64.max
        var value: UInt64 = 0
        while index < segment.count {
            let digit = segment[index] &- UInt8(ascii: "0")
            guard digit < 10 else { return false }
            let (times10, overflowA) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflowB) = times10.addingReportingOverflow(UInt64(digit))
            guard !overflowA, !overflowB, sum <= limit else { return false }
            value = sum
            index += 1
        }
        return true
    }

    /// `-?[0-9]+(\.[0-9]+)?`: no exponent, no leading or trailing dot, no range check.
    private static func scanFloat(_ segment: UnsafeBufferPointer<UInt8>) -> Bool {
        var index = segment[0] == UInt8(ascii: "-") ? 1 : 0
        let integerStart = index
        while index < segment.count, ASCII.isDigit(segment[index]) { index += 1 }
        guard index > integerStart else { return false }
        if index == segment.count { return true }
        guard segment[index] == UInt8(ascii: ".") else { return false }
        index += 1
        let fractionStart = index
        while index < segment.count, ASCII.isDigit(segment[index]) { index += 1 }
        return index > fractionStart && index == segment.count
    }

    /// 8-4-4-4-12 hex digits separated by `-`, any letter case.
    private static func scanUUID(_ segment: UnsafeBufferPointer<UInt8>) -> Bool {
        guard segment.count == 36 else { return false }
        for index in 0..<36 {
            let byte = segment[index]
            if index == 8 || index == 13 || index == 18 || index == 23 {
                guard byte == UInt8(ascii: "-") else { return false }
            } else {
                guard ASCII.isHexDigit(byte) else { return false }
            }
        }
        return true
    }
}
