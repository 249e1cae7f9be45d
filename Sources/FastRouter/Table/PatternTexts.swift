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
    private var blocks: [[UInt8]] = []
    /// Offsets of the restart entries, ascending.
    private var restarts: [UInt32] = []
    /// The last pattern appended, which the next one is coded against.
    private var previous: [UInt8] = []
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
        if blocks.isEmpty || blocks[blocks.count - 1].count + room > Self.blockSize {
            precondition(blocks.count < 1 << 16, "more than 4 GiB of route patterns")
            var block: [UInt8] = []
            block.reserveCapacity(Self.blockSize)
            blocks.append(block)
            sinceRestart = Self.restartInterval
        }
        let blockNumber = blocks.count - 1
        let offset = UInt32(blockNumber << 16 | blocks[blockNumber].count)
        var shared = 0
        if sinceRestart == Self.restartInterval {
            restarts.append(offset)
            sinceRestart = 0
        } else {
            let limit = min(previous.count, pattern.count)
            while shared < limit && previous[shared] == pattern[shared] { shared += 1 }
        }
        sinceRestart += 1
        let before = blocks[blockNumber].count
        Self.appendLength(shared, to: &blocks[blockNumber])
        Self.appendLength(pattern.count - shared, to: &blocks[blockNumber])
        blocks[blockNumber].append(contentsOf: pattern[shared...])
        used += blocks[blockNumber].count - before
        previous.removeAll(keepingCapacity: true)
        previous.append(contentsOf: pattern)
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
    private static func appendLength(_ length: Int, to bytes: inout [UInt8]) {
        if length < 0x80 {
            bytes.append(UInt8(length))
        } else {
            bytes.append(UInt8(0x80 | (length >> 8)))
            bytes.append(UInt8(truncatingIfNeeded: length))
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
