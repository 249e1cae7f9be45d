/// The writer's list of registered routes: 32-byte records, every pattern's text in one shared
/// buffer, and an index by id. What a route's pattern shares with others (its regexes and
/// partial templates) is not kept: a removal parses the pattern again and finds it there
/// (``RouterCore/storedShape(of:_:)``). Only the writer touches it, under the router's lock;
/// readers see routes only as the tree's terminals.
struct RouteStore {
    /// One registered route.
    struct Record {
        var id: UInt64
        /// The pattern as registered, in ``RouteStore``'s text buffer.
        var textOffset: UInt32
        /// Patterns are at most 8 KiB (``PatternParser/maxLength``).
        var textLength: UInt16
        /// The route's methods: an index into the writer's method sets (``WriterState/methodSets``),
        /// 0 for any method. Beside the length, it keeps the record at 32 bytes.
        var methodSet: UInt16
        /// The next record with the same id, in registration order, or `UInt32.max`.
        var nextWithSameID: UInt32
        var priority: Int32
        /// Registration order; 0 marks a free record.
        var sequence: UInt64
    }

    private(set) var records: [Record] = []
    /// Each record's payload (the Swift router's value box), by record index, as far as the last
    /// record that had one: empty for a router made through the C ABI, whose routes carry none,
    /// so its records do not pay 8 bytes each for it.
    private var payloads: [UnsafeMutableRawPointer?] = []
    private var freeRecords: [UInt32] = []
    private var text: [UInt8] = []
    /// Bytes of `text` no record uses any more; the buffer is compacted when they dominate.
    private var garbageText = 0
    private var byID = RouteIDIndex()

    /// Live records.
    private(set) var count = 0

    /// The index the `offset`-th route added from now on will get.
    func peekIndex(offset: Int) -> UInt32 {
        if offset < freeRecords.count { return freeRecords[freeRecords.count - 1 - offset] }
        return UInt32(records.count + offset - freeRecords.count)
    }

    /// Makes room for `routes` more routes with `textBytes` bytes of patterns in all: exactly
    /// for a first batch, geometrically afterwards so single additions stay amortized O(1).
    mutating func reserve(routes: Int, textBytes: Int) {
        let recordsNeeded = records.count + max(0, routes - freeRecords.count)
        if recordsNeeded > records.capacity { records.reserveCapacity(max(recordsNeeded, records.capacity * 2)) }
        let textNeeded = text.count + textBytes
        if textNeeded > text.capacity { text.reserveCapacity(max(textNeeded, text.capacity * 2)) }
        // Every route may bring a new id.
        records.withUnsafeBufferPointer { records in byID.reserve(routes) { records[Int($0)].id } }
    }

    /// Records a route whose expansions are in the tables; it gets ``peekIndex(offset:)`` 0.
    mutating func add(id: UInt64, pattern: UnsafeBufferPointer<UInt8>, methodSet: UInt16, priority: Int32, sequence: UInt64,
                      payload: UnsafeMutableRawPointer?) {
        precondition(text.count + pattern.count <= Int(UInt32.max), "more than 4 GiB of route patterns")
        let record = Record(id: id, textOffset: UInt32(text.count), textLength: UInt16(pattern.count), methodSet: methodSet,
                            nextWithSameID: .max, priority: priority, sequence: sequence)
        text.append(contentsOf: pattern)
        let index: UInt32
        if let reused = freeRecords.popLast() {
            index = reused
            records[Int(index)] = record
        } else {
            index = UInt32(records.count)
            records.append(record)
        }
        if let payload {
            if payloads.count <= Int(index) {
                payloads.append(contentsOf: repeatElement(nil, count: Int(index) + 1 - payloads.count))
            }
            payloads[Int(index)] = payload
        }
        // Keep the chain in registration order: append at its tail.
        if let first = firstRecord(withID: id) {
            var last = first
            while records[Int(last)].nextWithSameID != .max { last = records[Int(last)].nextWithSameID }
            records[Int(last)].nextWithSameID = index
        } else {
            records.withUnsafeBufferPointer { records in byID.insert(index, id: id) { records[Int($0)].id } }
        }
        count += 1
    }

    /// Indexes of the records with `id`, in registration order.
    func indexes(withID id: UInt64) -> [UInt32] {
        var indexes: [UInt32] = []
        var index = firstRecord(withID: id) ?? .max
        while index != .max {
            indexes.append(index)
            index = records[Int(index)].nextWithSameID
        }
        return indexes
    }

    /// Forgets every record with `id`; returns them as they were.
    mutating func removeAll(withID id: UInt64) -> [Record] {
        let indexes = self.indexes(withID: id)
        guard !indexes.isEmpty else { return [] }
        records.withUnsafeBufferPointer { records in byID.remove(id) { records[Int($0)].id } }
        var removed: [Record] = []
        for index in indexes {
            removed.append(records[Int(index)])
            garbageText += Int(records[Int(index)].textLength)
            records[Int(index)].sequence = 0
            if Int(index) < payloads.count { payloads[Int(index)] = nil }
            freeRecords.append(index)
        }
        count -= indexes.count
        if count == 0 {
            // Nothing refers to a record any more (the tables hold no route): the store starts
            // over, and its buffers go back to the allocator.
            records = []
            payloads = []
            freeRecords = []
            text = []
            garbageText = 0
            byID = RouteIDIndex()
        } else {
            compactTextIfNeeded()
            records.withUnsafeBufferPointer { records in byID.shrinkIfSparse { records[Int($0)].id } }
        }
        return removed
    }

    /// The payload of record `index`: `nil` for a route without one (every route through the C ABI).
    func payload(of index: UInt32) -> UnsafeMutableRawPointer? {
        Int(index) < payloads.count ? payloads[Int(index)] : nil
    }

    /// The record's pattern as registered.
    func pattern(of index: UInt32) -> String {
        let record = records[Int(index)]
        return text.withUnsafeBufferPointer { buffer in
            String(decoding: buffer[Int(record.textOffset)..<(Int(record.textOffset) + Int(record.textLength))], as: UTF8.self)
        }
    }

    /// The lower-cased scheme of the record's pattern, `nil` for the global table.
    func scheme(of index: UInt32) -> String? {
        let record = records[Int(index)]
        let start = Int(record.textOffset)
        let end = start + Int(record.textLength)
        // A registered pattern starts with '/', '(' or a valid "scheme://".
        guard start < end, text[start] != UInt8(ascii: "/"), text[start] != UInt8(ascii: "(") else { return nil }
        let colon = text[start..<end].firstIndex(of: UInt8(ascii: ":"))!
        return String(decoding: text[start..<colon].map(ASCII.lowercased), as: UTF8.self)
    }

    /// Its parts of a ``MemoryBreakdown``, each array at its capacity.
    func addMemory(to breakdown: inout MemoryBreakdown) {
        breakdown.add("route records", bytes: records.capacity * MemoryLayout<Record>.stride, items: count)
        breakdown.add("route payload pointers", bytes: payloads.capacity * 8, items: payloads.count)
        breakdown.add("pattern text", bytes: text.capacity, items: text.count - garbageText)
        breakdown.add("free record list", bytes: freeRecords.capacity * 4, items: freeRecords.count)
        breakdown.add("id index", bytes: byID.byteCount, items: count)
    }

    /// Indexes of every live record, in index order.
    var liveIndexes: [UInt32] {
        records.indices.compactMap { records[$0].sequence == 0 ? nil : UInt32($0) }
    }

    // The index reads ids through a buffer pointer: a closure capturing `self` would share the
    // index's storage and make every insertion copy it.
    private func firstRecord(withID id: UInt64) -> UInt32? {
        records.withUnsafeBufferPointer { records in byID.find(id) { records[Int($0)].id } }
    }

    /// Rewrites `text` without garbage once more than half of it is unused: O(live bytes), paid
    /// for by the removals that made the garbage.
    private mutating func compactTextIfNeeded() {
        guard garbageText > 65536, garbageText * 2 > text.count else { return }
        var fresh: [UInt8] = []
        fresh.reserveCapacity(text.count - garbageText)
        for index in records.indices where records[index].sequence != 0 {
            let start = Int(records[index].textOffset)
            records[index].textOffset = UInt32(fresh.count)
            fresh.append(contentsOf: text[start..<(start + Int(records[index].textLength))])
        }
        text = fresh
        garbageText = 0
    }
}
