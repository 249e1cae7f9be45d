/// Every registered pattern's text, front-coded (docs/ARCHITECTURE.md, "Memory per route"):
/// each pattern is stored as the length of the prefix it shares with the pattern appended before
/// it and the bytes after that prefix. Patterns of one table registered together share most of
/// their text (`/billing/invoices/:id`, `/billing/invoices/:id/history`), so a route's text
/// costs about a third of its length. Only the writer reads it (removal, introspection), never
/// a lookup.
///
/// An entry is `shared` and `suffix length` (each one byte under 128, else two), then the
/// suffix. Entries live in blocks of ``blockSize`` bytes, each allocated at that size and
/// filled, so the texts hold no more than a block beyond what they use (an array grown by
/// doubling would hold up to twice). An entry's offset is its block's number and its position
/// in the block. The first entry of a block, and every ``restartInterval``-th entry, shares
/// nothing (a restart), so reading an entry decodes at most that many from the restart before it.
struct PatternTexts {
    /// Each allocated whole at ``blockSize``; the last one is used up to ``lastBlockUsed`` and
    /// zeroed ahead of it by doubling (so that an entry is written in place, not appended).
    private var blocks: [[UInt8]] = []
    private var lastBlockUsed = 0
    /// Offsets of the restart entries, ascending.
    private var restarts: [UInt32] = []
    /// The last pattern appended, which the next one is coded against: its first
    /// ``previousLength`` bytes (the buffer only grows, so that an add copies bytes in place).
    private var previous: [UInt8] = []
    private var previousLength = 0
    /// Entries appended since the last restart.
    private var sinceRestart = 0
    /// Bytes of entries in the blocks, and of those no route uses any more (``forget(_:)``).
    private var used = 0
    private(set) var garbage = 0

    static let restartInterval = 16
    /// A block: an offset is a block number (16 bits) and a position (16 bits), so the texts
    /// hold up to 4 GiB, and an entry (a pattern of at most 8 KiB, ``PatternParser/maxLength``)
    /// fits in a block.
    static let blockSize = 1 << 16

    /// Bytes held (at the buffers' capacities).
    var byteCount: Int { blocks.reduce(0) { $0 + $1.capacity } + restarts.capacity * 4 + previous.capacity }
    /// Bytes of the entries in use.
    var liveBytes: Int { used - garbage }

    /// Appends `pattern`; returns where its entry starts.
    mutating func append(_ pattern: UnsafeBufferPointer<UInt8>) -> UInt32 {
        let room = pattern.count + 4
        // A registered pattern parsed, so it is at most 8 KiB (``PatternParser/maxLength``).
        precondition(room <= Self.blockSize, "a route pattern longer than a text block")
        if blocks.isEmpty || lastBlockUsed + room > Self.blockSize {
            precondition(blocks.count < 1 << 16, "more than 4 GiB of route patterns")
            var block: [UInt8] = []
            block.reserveCapacity(Self.blockSize)
            blocks.append(block)
            lastBlockUsed = 0
            sinceRestart = Self.restartInterval
        }
        let blockNumber = blocks.count - 1
        let offset = UInt32(blockNumber << 16 | lastBlockUsed)
        var shared = 0
        if sinceRestart == Self.restartInterval {
            restarts.append(offset)
            sinceRestart = 0
        } else {
            let limit = min(previousLength, pattern.count)
            previous.withUnsafeBufferPointer { previous in
                guard limit > 0, let left = previous.baseAddress, let right = pattern.baseAddress else { return }
                // A word at a time while whole words are left, then bytes.
                while shared + 8 <= limit
                        && UnsafeRawPointer(left + shared).loadUnaligned(as: UInt64.self)
                            == UnsafeRawPointer(right + shared).loadUnaligned(as: UInt64.self) {
                    shared += 8
                }
                while shared < limit && left[shared] == right[shared] { shared += 1 }
            }
        }
        sinceRestart += 1
        // The entry written in place into the block's room: appending to an array element by
        // element costs more than the rest of the entry.
        let suffix = UnsafeBufferPointer(rebasing: pattern[shared...])
        let entryLength = Self.lengthSize(shared) + Self.lengthSize(suffix.count) + suffix.count
        let start = lastBlockUsed
        blocks.withUnsafeMutableBufferPointer { blocks in
            let ready = blocks[blockNumber].count
            if start + entryLength > ready {
                let grown = min(Self.blockSize, max(2 * ready, 1024, start + entryLength))
                blocks[blockNumber].append(contentsOf: repeatElement(0, count: grown - ready))
            }
            blocks[blockNumber].withUnsafeMutableBufferPointer { block in
                var position = start
                Self.writeLength(shared, to: block, at: &position)
                Self.writeLength(suffix.count, to: block, at: &position)
                if let source = suffix.baseAddress {
                    UnsafeMutableRawPointer(block.baseAddress! + position).copyMemory(from: source, byteCount: suffix.count)
                }
            }
        }
        used += entryLength
        lastBlockUsed += entryLength
        if previous.count < pattern.count { previous.append(contentsOf: repeatElement(0, count: pattern.count - previous.count)) }
        previous.withUnsafeMutableBufferPointer { previous in
            if let source = suffix.baseAddress {
                UnsafeMutableRawPointer(previous.baseAddress! + shared).copyMemory(from: source, byteCount: suffix.count)
            }
        }
        previousLength = pattern.count
        return offset
    }

    /// The pattern whose entry starts at `offset`.
    func pattern(at offset: UInt32) -> [UInt8] {
        // The last restart at or before the entry: in the entry's block, which starts with one.
        var low = 0, high = restarts.count
        while high - low > 1 {
            let middle = (low + high) / 2
            if restarts[middle] <= offset { low = middle } else { high = middle }
        }
        let block = blocks[Int(offset >> 16)]
        var position = Int(restarts[low] & 0xFFFF)
        var current: [UInt8] = []
        while true {
            let start = position
            let shared = Self.readLength(block, &position)
            let suffix = Self.readLength(block, &position)
            current.removeSubrange(shared...)
            current.append(contentsOf: block[position..<(position + suffix)])
            position += suffix
            if start == Int(offset & 0xFFFF) { return current }
        }
    }

    /// Notes that the entry at `offset` is no longer used: its bytes stay (later entries may be
    /// coded against it) until ``compacted(keeping:)`` rewrites the texts.
    mutating func forget(_ offset: UInt32) {
        let block = blocks[Int(offset >> 16)]
        var position = Int(offset & 0xFFFF)
        _ = Self.readLength(block, &position)
        let suffix = Self.readLength(block, &position)
        garbage += position + suffix - Int(offset & 0xFFFF)
    }

    /// Whether forgotten entries are most of the texts, and worth a rewrite.
    var wantsCompaction: Bool { garbage > Self.blockSize && garbage * 2 > used }

    /// The texts with only the entries at `offsets` (in the order given), coded afresh; returns
    /// each one's new offset. O(live bytes).
    func compacted(keeping offsets: [UInt32]) -> (texts: PatternTexts, offsets: [UInt32]) {
        var fresh = PatternTexts()
        let moved = offsets.map { offset in
            pattern(at: offset).withUnsafeBufferPointer { fresh.append($0) }
        }
        return (fresh, moved)
    }
    private static func lengthSize(_ length: Int) -> Int { length < 0x80 ? 1 : 2 }

    @inline(__always)
    private static func writeLength(_ length: Int, to bytes: UnsafeMutableBufferPointer<UInt8>, at position: inout Int) {
        if length < 0x80 {
            bytes[position] = UInt8(length)
            position += 1
        } else {
            bytes[position] = UInt8(0x80 | (length >> 8))
            bytes[position + 1] = UInt8(truncatingIfNeeded: length)
            position += 2
        }
    }

    private static func readLength(_ bytes: [UInt8], _ position: inout Int) -> Int {
        let first = Int(bytes[position])
        position += 1
        guard first >= 0x80 else { return first }
        let second = Int(bytes[position])
        position += 1
        return (first & 0x7F) << 8 | second
    }
}
