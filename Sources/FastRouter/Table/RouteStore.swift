/// The writer's list of registered routes: 32-byte records, every pattern's text front-coded in
/// one buffer (``PatternTexts``), and an index by id. What a route's pattern shares with others (its regexes and
/// partial templates) is not kept: a removal parses the pattern again and finds it there
/// (``RouterCore/storedShape(of:_:)``). Only the writer touches it, under the router's lock;
/// readers see routes only as the tree's terminals.
struct RouteStore {
    /// One registered route.
    struct Record {
        var id: UInt64
        /// The pattern as registered: its entry in ``RouteStore``'s texts, which holds its length.
        var textOffset: UInt32
        /// The route's methods: an index into the writer's method sets (``WriterState/methodSets``),
        /// 0 for any method.
        var methodSet: UInt16
        /// The next record with the same id, in registration order, or `UInt32.max`.
        var nextWithSameID: UInt32
        var priority: Int32
        /// Registration order; 0 marks a free record.
        var sequence: UInt64
    }

    private(set) var records: [Record] = []
    private var freeRecords: [UInt32] = []
    private var texts = PatternTexts()
    private var byID = RouteIDIndex()

    /// Live records.
    private(set) var count = 0

    /// Makes room for `routes` more routes: exactly for a first batch, geometrically afterwards
    /// so single additions stay amortized O(1). (The texts grow by blocks.)
    mutating func reserve(routes: Int) {
        let recordsNeeded = records.count + max(0, routes - freeRecords.count)
        if recordsNeeded > records.capacity { records.reserveCapacity(max(recordsNeeded, records.capacity * 2)) }
        // Every route may bring a new id.
        records.withUnsafeBufferPointer { records in byID.reserve(routes) { records[Int($0)].id } }
    }

    /// Records a route whose expansions are in the tables. (Its payload, if any, is where its
    /// terminals are: ``Terminal/result``.)
    mutating func add(id: UInt64, pattern: UnsafeBufferPointer<UInt8>, methodSet: UInt16, priority: Int32, sequence: UInt64) {
        let record = Record(id: id, textOffset: texts.append(pattern), methodSet: methodSet,
                            nextWithSameID: .max, priority: priority, sequence: sequence)
        let index: UInt32
        if let reused = freeRecords.popLast() {
            index = reused
            records[Int(index)] = record
        } else {
            index = UInt32(records.count)
            records.append(record)
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
            texts.forget(records[Int(index)].textOffset)
            records[Int(index)].sequence = 0
            freeRecords.append(index)
        }
        count -= indexes.count
        if count == 0 {
            // Nothing refers to a record any more (the tables hold no route): the store starts
            // over, and its buffers go back to the allocator.
            records = []
            freeRecords = []
            texts = PatternTexts()
            byID = RouteIDIndex()
        } else {
            compactTextIfNeeded()
            records.withUnsafeBufferPointer { records in byID.shrinkIfSparse { records[Int($0)].id } }
        }
        return removed
    }

    /// The record's pattern as registered.
    func pattern(of index: UInt32) -> String {
        String(decoding: texts.pattern(at: records[Int(index)].textOffset), as: UTF8.self)
    }

    /// The lower-cased scheme of the record's pattern, `nil` for the global table.
    func scheme(of index: UInt32) -> String? {
        let text = texts.pattern(at: records[Int(index)].textOffset)
        // A registered pattern starts with '/', '(' or a valid "scheme://".
        guard let first = text.first, first != UInt8(ascii: "/"), first != UInt8(ascii: "(") else { return nil }
        let colon = text.firstIndex(of: UInt8(ascii: ":"))!
        return String(decoding: text[..<colon].map(ASCII.lowercased), as: UTF8.self)
    }

    /// Its parts of a ``MemoryBreakdown``, each array at its capacity.
    func addMemory(to breakdown: inout MemoryBreakdown) {
        breakdown.add("route records", bytes: records.capacity * MemoryLayout<Record>.stride, items: count)
        breakdown.add("pattern text", bytes: texts.byteCount, items: texts.liveBytes)
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

    /// Rewrites the texts without garbage once it is most of them: O(live bytes), paid for by
    /// the removals that made the garbage.
    private mutating func compactTextIfNeeded() {
        guard texts.wantsCompaction else { return }
        let live = records.indices.filter { records[$0].sequence != 0 }
        let (fresh, offsets) = texts.compacted(keeping: live.map { records[$0].textOffset })
        for (index, offset) in zip(live, offsets) { records[index].textOffset = offset }
        texts = fresh
    }
}
