/// Equality of byte runs, exact or with ASCII letters folded, a machine word at a time: the
/// comparisons the URL scanner's scheme lookup, host rules, the tree's editor and partial
/// templates share (docs/SEMANTICS.md §3.2: scheme and host compare case-insensitively, path literals
/// byte-exact unless the router folds them).
enum ByteComparison {
    /// Whether two runs of `length` bytes agree in their 8-byte words from offset `start` up to
    /// the last word: each word that ends before the run's last 8 bytes. The caller compares that
    /// last word (the one ending where the runs end, which may overlap the one before) itself:
    /// a label's or a path's last word is kept ready, so no word is ever masked.
    @inline(__always)
    static func wordsBeforeLastEqual(_ lhs: UnsafeRawPointer, _ rhs: UnsafeRawPointer, from start: Int, length: Int) -> Bool {
        var offset = start
        while length &- offset > 8 {
            if lhs.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                != rhs.loadUnaligned(fromByteOffset: offset, as: UInt64.self) { return false }
            offset &+= 8
        }
        return true
    }

    /// Compares the leading whole 8-byte words of two byte runs (keys are short, so this beats a
    /// call to memcmp). Returns where the remaining tail starts, or `nil` when a word differs.
    @inline(__always)
    static func wholeWordsEqual(_ lhs: UnsafePointer<UInt8>, _ rhs: UnsafePointer<UInt8>, _ count: Int,
                                folded: Bool) -> Int? {
        let left = UnsafeRawPointer(lhs)
        let right = UnsafeRawPointer(rhs)
        let whole = count & ~7
        var index = 0
        while index < whole {
            var a = left.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            var b = right.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            if folded {
                a = foldWord(a)
                b = foldWord(b)
            }
            if a != b { return nil }
            index &+= 8
        }
        return index
    }

    /// Lower-cases the ASCII letters of eight packed bytes at once (SWAR).
    @inline(__always)
    static func foldWord(_ word: UInt64) -> UInt64 {
        let low7 = word & 0x7F7F_7F7F_7F7F_7F7F
        let aboveA = low7 &+ 0x3F3F_3F3F_3F3F_3F3F   // high bit set where byte >= 'A' (0x41)
        let aboveZ = low7 &+ 0x2525_2525_2525_2525   // high bit set where byte > 'Z' (0x5A)
        let upper = aboveA & ~aboveZ & ~word & 0x8080_8080_8080_8080
        return word | (upper >> 2)
    }

    /// Byte equality, exact or with ASCII letters folded.
    @inline(__always)
    static func equal(_ lhs: UnsafePointer<UInt8>, _ rhs: UnsafePointer<UInt8>, _ count: Int, folded: Bool) -> Bool {
        guard var index = wholeWordsEqual(lhs, rhs, count, folded: folded) else { return false }
        while index < count {
            let a = lhs[index]
            let b = rhs[index]
            if a != b && (!folded || ASCII.lowercased(a) != ASCII.lowercased(b)) { return false }
            index += 1
        }
        return true
    }

    /// A high bit set in each byte of `word` that is zero, exact up to and including the lowest
    /// zero byte (higher ones may be false positives after it, which callers ignore).
    @inline(__always)
    static func zeroBytes(_ word: UInt64) -> UInt64 {
        (word &- 0x0101_0101_0101_0101) & ~word & 0x8080_8080_8080_8080
    }

    /// A high bit set in exactly the bytes of `word` that are zero.
    @inline(__always)
    static func exactZeroBytes(_ word: UInt64) -> UInt64 {
        ~(((word & 0x7F7F_7F7F_7F7F_7F7F) &+ 0x7F7F_7F7F_7F7F_7F7F) | word) & 0x8080_8080_8080_8080
    }
}
