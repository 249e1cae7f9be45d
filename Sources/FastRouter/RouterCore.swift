import Synchronization

/// The untyped engine behind ``Router`` and the C ABI: tables, registration, removal, lookup.
///
/// Thread-safety: any number of threads may call ``match(url:into:)`` (each with its own
/// ``MatchScratch``) while others add or remove routes. Readers never block: the router keeps
/// two identical ``TableSide``s; a writer changes the one readers do not use, publishes it with
/// one atomic store, waits for readers still inside the old one to leave (a grace period, see
/// ``ReaderRegistry``), then applies the same change to the old one. Writers are serialized.
@usableFromInline
final class RouterCore: @unchecked Sendable {
    let options: RouterOptions
    let webSchemes: WebSchemes
    /// The two table sides; `activeSide` says which one readers use.
    private let sides: UnsafeMutablePointer<TableSide>
    private let activeSide = Atomic<Int>(0)
    private let writer = Mutex(WriterState())
    /// Regex constraints that hit PCRE2's match or depth limit (SPEC §3.4).
    let regexLimitHits = Atomic<Int>(0)
    private let routeCount = Atomic<Int>(0)
    /// Where parameter names are interned: the process-wide table, or a small one in tests.
    let names: NameTable.Store
    /// True when routes carry payloads that readers read after a lookup (the Swift router);
    /// such a reader announces it holds them until it drops them (see ``ReaderSlot``).
    private let holdsPayloads: Bool

    /// A router core; `releasePayload` releases a removed route's payload once no reader can
    /// hold it (nil when routes carry none, as through the C ABI).
    init(options: RouterOptions, names: NameTable.Store = NameTable.shared,
         releasePayload: (@Sendable (UnsafeMutableRawPointer) -> Void)? = nil) {
        self.options = options
        self.names = names
        holdsPayloads = releasePayload != nil
        webSchemes = WebSchemes(options.webSchemes)
        sides = .allocate(capacity: 2)
        sides.initialize(to: TableSide())
        (sides + 1).initialize(to: TableSide())
        writer.withLock { $0.releasePayload = releasePayload }
    }

    deinit {
        sides[0].deallocate()
        sides[1].deallocate()
        sides.deinitialize(count: 2)
        sides.deallocate()
        webSchemes.deallocate()
        writer.withLock { state in
            guard let release = state.releasePayload else { return }
            for record in state.records { if let payload = record?.payload { release(payload) } }
            // No reader can use a router that is being freed.
            state.reclaimer.releaseAll(release: release)
        }
    }

    /// Routes as registered (a route with optional groups counts once).
    var count: Int { routeCount.load(ordering: .relaxed) }

    /// Payloads of removed routes not released yet (readers may still hold them).
    var retiredPayloadCount: Int { writer.withLock { $0.reclaimer.pendingCount } }

    /// This router's address: how readers' slots name the router they read.
    @inline(__always)
    private var tag: UInt { UInt(bitPattern: ObjectIdentifier(self)) }

    // MARK: Registration

    /// A route to register: pattern bytes, priority, id and an opaque payload.
    struct Registration {
        var pattern: [UInt8]
        var priority: Int32
        var id: UInt64
        var payload: UnsafeMutableRawPointer?
        /// The pattern as a string when the caller has one, so the record shares its storage.
        var text: String? = nil
    }

    /// Registers one route (all its expansions) or nothing.
    /// - Throws: a pattern error with its offset, `.duplicateRoute`, `.invalidArgument` for the
    ///   reserved id, or `.outOfMemory` when the process-wide table of parameter names is full.
    /// - Complexity: O(pattern length) plus one grace period.
    func add(pattern: UnsafeBufferPointer<UInt8>, priority: Int32, id: UInt64, payload: UnsafeMutableRawPointer?) throws(RouterError) {
        try add([Registration(pattern: Array(pattern), priority: priority, id: id, payload: payload)])
    }

    /// Registers routes all at once, or none of them when any fails.
    /// - Complexity: O(total pattern length); one publication for the whole batch.
    func add(_ registrations: [Registration]) throws(RouterError) {
        var parsed: [Pattern] = []
        parsed.reserveCapacity(registrations.count)
        for registration in registrations {
            guard registration.id != UInt64.max else {
                throw RouterError(.invalidArgument, offset: 0, "route id UINT64_MAX is reserved (FR_NO_ROUTE)")
            }
            let pattern = try registration.pattern.withUnsafeBufferPointer { (bytes) throws(RouterError) -> Pattern in
                try PatternParser.parse(bytes, webSchemes: options.webSchemes)
            }
            parsed.append(pattern)
        }
        try writer.withLock { (state) throws(RouterError) in
            var records: [RouteRecord] = []
            records.reserveCapacity(registrations.count)
            var variants: [TrieVariant] = []
            variants.reserveCapacity(registrations.count)
            var sequence = state.nextSequence
            // One compiled regex per source and one template per partial shape, shared router-wide.
            var sharedRegexes: [String: CompiledRegex] = [:]
            var sharedTemplates: [[UInt8]: PartialTemplate] = [:]
            let knownTemplates = state.templates.mapValues { $0.template }
            for (registration, pattern) in zip(registrations, parsed) {
                let recordIndex = state.peekRecordIndex(offset: records.count)
                var regexPointers: [String: UnsafeRawPointer] = [:]
                for (source, compiled) in pattern.regexes {
                    let shared = sharedRegexes[source] ?? state.regexes[source]?.regex ?? compiled
                    sharedRegexes[source] = shared
                    regexPointers[source] = UnsafeRawPointer(Unmanaged.passUnretained(shared).toOpaque())
                }
                var templateKeys = Set<[UInt8]>()
                let firstVariant = variants.count
                for (expansion, segments) in pattern.variants.enumerated() {
                    variants.append(try makeVariant(pattern, segments, regexPointers, &sharedTemplates, &templateKeys,
                                                knownTemplates, registration, sequence: sequence, expansion: expansion,
                                                record: recordIndex))
                }
                records.append(RouteRecord(
                    id: registration.id, priority: registration.priority,
                    pattern: registration.text ?? String(decoding: registration.pattern, as: UTF8.self),
                    scheme: pattern.scheme,
                    variantCount: UInt32(variants.count - firstVariant), regexSources: Array(pattern.regexes.keys),
                    payload: registration.payload, sequence: sequence, templateKeys: Array(templateKeys)))
                sequence += 1
            }
            let duplicate = RouterError(.duplicateRoute, offset: 0,
                                        "a route with the same table, host, priority and segments is already registered")
            var inserted: [UInt32] = []
            if variants.count > 64 {
                // A batch checks each variant against the side being built, which already holds the
                // batch's earlier variants; a failure restores that side from the published one.
                inserted = try applyBatch { (side) throws(RouterError) -> [UInt32] in
                    var indexes: [UInt32] = []
                    indexes.reserveCapacity(variants.count)
                    for variant in variants {
                        if side.containsDuplicate(of: variant) { throw duplicate }
                        indexes.append(side.insert(variant))
                    }
                    return indexes
                }
            } else {
                // A few variants are checked before anything changes: against the published side
                // and against each other.
                let active = sides[activeSide.load(ordering: .relaxed)]
                var shapes = Set<[UInt8]>()
                for variant in variants where !shapes.insert(variant.shapeKey).inserted || active.containsDuplicate(of: variant) {
                    throw duplicate
                }
                apply { side in inserted = variants.map { side.insert($0) } }
            }
            // The batch has landed: record it.
            state.nextSequence = sequence
            for (source, regex) in sharedRegexes where state.regexes[source] == nil { state.regexes[source] = (regex, 0) }
            for (key, template) in sharedTemplates where state.templates[key] == nil {
                state.templates[key] = (template, 0)
            }
            var cursor = 0
            for var record in records {
                for source in record.regexSources { state.regexes[source]!.uses += 1 }
                for key in record.templateKeys { state.templates[key]!.uses += 1 }
                record.firstVariant = inserted[cursor]
                if record.variantCount > 1 {
                    record.moreVariants = Array(inserted[(cursor + 1)..<(cursor + Int(record.variantCount))])
                }
                cursor += Int(record.variantCount)
                state.store(record)
            }
            routeCount.add(records.count, ordering: .relaxed)
            state.reclaimPayloads(router: tag)
        }
    }

    private func makeVariant(_ pattern: Pattern, _ segments: [Segment], _ regexPointers: [String: UnsafeRawPointer],
                             _ templates: inout [[UInt8]: PartialTemplate], _ templateKeys: inout Set<[UInt8]>,
                             _ knownTemplates: [[UInt8]: PartialTemplate], _ registration: Registration, sequence: UInt64, expansion: Int, record: UInt32) throws(RouterError) -> TrieVariant {
        var names: [(name: String, segment: Int32)] = []
        let trieSegments: [TrieSegment] = segments.enumerated().map { index, segment in
            let position = Int32(index)
            switch segment {
            case .literal(let bytes):
                return .literal(bytes)
            case .parameter(let name):
                names.append((name, position))
                return .parameter
            case .constrained(let name, let constraint):
                names.append((name, position))
                if case .regex(let source) = constraint {
                    return .constraint(code: BuiltinCode.regex.rawValue, regex: regexPointers[source])
                }
                return .constraint(code: BuiltinCode.of(constraint).rawValue, regex: nil)
            case .wildcard(let name):
                names.append((name, position))
                return .wildcard
            case .partial(let pieces):
                for case .parameter(let name, _) in pieces { names.append((name, -1)) }
                let candidate = PartialTemplate(pieces, regexPointers: regexPointers)
                let template = templates[candidate.key] ?? knownTemplates[candidate.key] ?? candidate
                templates[candidate.key] = template
                templateKeys.insert(template.key)
                return .partial(UnsafeRawPointer(Unmanaged.passUnretained(template).toOpaque()))
            }
        }
        let hostKey: [UInt8]
        switch pattern.host {
        case .any: hostKey = []
        case .exact(let host), .suffix(let host): hostKey = Array(host.utf8)
        }
        let layout = try self.names.internLayout(names)
        return TrieVariant(scheme: pattern.scheme.map { Array($0.utf8) }, hostRank: pattern.host.rank, hostKey: hostKey,
                           segments: trieSegments, layout: layout, nameCount: UInt16(names.count),
                           routeID: registration.id, sequence: sequence, priority: registration.priority,
                           expansion: UInt16(expansion), payload: registration.payload, record: record)
    }

    /// Removes every route with `id`; returns how many were removed.
    /// - Complexity: O(total pattern length of those routes) plus one grace period.
    @discardableResult
    func remove(id: UInt64) -> Int {
        writer.withLock { state in
            let recordIndexes = state.recordIndexes(withID: id)
            guard !recordIndexes.isEmpty else { return 0 }
            let records = recordIndexes.map { state.records[Int($0)]! }
            let variants = records.flatMap { $0.variants }
            apply { side in for variant in variants { side.remove(variant: variant) } }
            for (index, record) in zip(recordIndexes, records) {
                for source in record.regexSources {
                    state.regexes[source]!.uses -= 1
                    // No side references the regex any more and no reader is inside the old side.
                    if state.regexes[source]!.uses == 0 { state.regexes[source] = nil }
                }
                for key in record.templateKeys {
                    state.templates[key]!.uses -= 1
                    if state.templates[key]!.uses == 0 { state.templates[key] = nil }
                }
                // Both sides have dropped the route: only readers' last results may still hold it.
                if let payload = record.payload, state.releasePayload != nil { state.reclaimer.retire(payload) }
                state.free(index)
            }
            state.firstByID[id] = nil
            routeCount.subtract(records.count, ordering: .relaxed)
            state.reclaimPayloads(router: tag)
            return records.count
        }
    }

    // MARK: Publication

    /// Applies a change to the inactive side, publishes it, waits out readers of the other side,
    /// applies the same change there and sends readers back to it. `body` must be deterministic:
    /// both sides stay identical.
    ///
    /// Readers return to the same side after every update, so the other copy is read only for
    /// the microseconds an update takes: readers of a table larger than the caches do not
    /// alternate between two cold copies while a writer keeps changing it.
    private func apply(_ body: (inout TableSide) -> Void) {
        let home = activeSide.load(ordering: .relaxed)
        body(&sides[1 - home])
        publish(1 - home)
        body(&sides[home])
        publish(home)
    }

    /// Like ``apply(_:)`` for large batches: the second side becomes a copy of the first instead
    /// of replaying the work. When `body` throws, the side it changed is restored from the
    /// published one and nothing is published.
    private func applyBatch<Result>(_ body: (inout TableSide) throws(RouterError) -> Result) throws(RouterError) -> Result {
        let home = activeSide.load(ordering: .relaxed)
        let result: Result
        do {
            result = try body(&sides[1 - home])
        } catch {
            sides[1 - home].deallocate()
            sides[1 - home] = sides[home].clone()
            throw error
        }
        publish(1 - home)
        sides[home].deallocate()
        sides[home] = sides[1 - home].clone()
        publish(home)
        return result
    }

    /// Makes `side` the one new lookups read and waits until no lookup reads the other one,
    /// which the writer may then change.
    private func publish(_ side: Int) {
        activeSide.store(side, ordering: .sequentiallyConsistent)
        ReaderRegistry.waitForReaders(in: tag)
    }

    // MARK: Lookup

    /// Finds every candidate for `url`, best first, and makes the best one current in `scratch`.
    /// Returns 0 (`FR_OK`), 1 (`FR_NOMATCH`) or -5 (`FR_EURL`).
    /// - Complexity: one pass over the URL plus the trie paths it can follow; no heap allocation
    ///   once `scratch` has served a lookup at least as large.
    func match(url: UnsafeBufferPointer<UInt8>, into scratch: MatchScratch) -> Int32 {
        let state = scratch.state
        state.pointee.clearResult()
        guard state.pointee.load(url: url, webSchemes: webSchemes, plusAsSpace: options.plusAsSpace) else { return -5 }
        let input = state.pointee.lookupInput(foldAll: options.caseInsensitivePaths)
        let regexScratch = scratch.regexScratch
        let rankBuffers = state.pointee.rankBuffers
        let scheme = state.pointee.scheme
        var limitHits = 0
        scratch.slot.enter(router: tag)
        let side = sides + activeSide.load(ordering: .sequentiallyConsistent)
        var groupStart = 0
        if let scheme {
            let root = side.pointee.root(forScheme: scheme, count: state.pointee.schemeLength)
            if root != 0 {
                side.pointee.collect(root: root, input, into: &state.pointee.candidates, regexScratch: regexScratch,
                                     limitHits: &limitHits)
                // Checked here: reaching the method through `pointee` copies the side first.
                if state.pointee.candidates.count > 1 {
                    side.pointee.sortCandidates(state.pointee.candidates.base, 0..<state.pointee.candidates.count,
                                                rankBuffers: rankBuffers, rankCapacity: MatchScratch.rankCapacity)
                }
                groupStart = state.pointee.candidates.count
            }
        }
        if scheme == nil || options.globalFallback {
            side.pointee.collect(root: TableSide.globalRoot, input, into: &state.pointee.candidates,
                                 regexScratch: regexScratch, limitHits: &limitHits)
            if state.pointee.candidates.count - groupStart > 1 {
                side.pointee.sortCandidates(state.pointee.candidates.base, groupStart..<state.pointee.candidates.count,
                                            rankBuffers: rankBuffers, rankCapacity: MatchScratch.rankCapacity)
            }
        }
        let candidateCount = state.pointee.candidates.count
        for index in 0..<candidateCount {
            let variant = side.pointee.variants.base + Int(state.pointee.candidates[index])
            let count = Int(variant.pointee.nameCount)
            var slotStart = -1
            if variant.pointee.hasPartial {
                // Slices of partial segments are found again by re-matching; plain layouts are static.
                slotStart = state.pointee.resolvedPositions.count
                let slots = state.pointee.resolvedPositions.extend(by: count)
                _ = side.pointee.parameterSlots(of: variant, input, regexScratch: regexScratch, into: slots)
            }
            state.pointee.resolved.append(ResolvedCandidate(
                routeID: variant.pointee.routeID, payload: variant.pointee.payload, layout: variant.pointee.layout,
                record: variant.pointee.record, slotStart: Int32(slotStart), parameterCount: Int32(count),
                endsWithWildcard: variant.pointee.endsWithWildcard))
        }
        scratch.slot.exit(holding: holdsPayloads && candidateCount > 0)
        if limitHits != 0 { regexLimitHits.add(limitHits, ordering: .relaxed) }
        guard candidateCount > 0 else { return 1 }
        state.pointee.activate(0)
        return 0
    }

    // MARK: Introspection

    /// The registered routes, in registration order.
    var routes: [RouteRecord] { withStableSnapshot { records, _ in records } }

    /// The registered route with `id` (the first registered when several share it).
    func routes(withID id: UInt64) -> [RouteRecord] {
        writer.withLock { state in state.recordIndexes(withID: id).compactMap { state.records[Int($0)] } }
    }

    /// Bytes held by both table sides.
    var tableBytes: Int { writer.withLock { _ in sides[0].allocatedBytes + sides[1].allocatedBytes } }

    /// Runs `body` on the registered routes (in registration order) and the current side, both
    /// read under one hold of the writer lock, so they describe the same version of the table.
    func withStableSnapshot<R>(_ body: ([RouteRecord], TableSide) -> R) -> R {
        writer.withLock { state in
            let records = state.records.compactMap { $0 }.sorted { $0.sequence < $1.sequence }
            return body(records, sides[activeSide.load(ordering: .relaxed)])
        }
    }
}

/// A registered route as the writer keeps it: for counting, removal and introspection.
struct RouteRecord: @unchecked Sendable {
    var id: UInt64
    var priority: Int32
    var pattern: String
    var scheme: String?
    /// Number of expansions; the first one's variant index, then the others' (usually none).
    var variantCount: UInt32
    var firstVariant: UInt32 = 0
    var moreVariants: [UInt32] = []
    var regexSources: [String]
    var payload: UnsafeMutableRawPointer?
    var sequence: UInt64 = 0
    /// Keys of the partial-segment templates the route uses (each counted once).
    var templateKeys: [[UInt8]] = []
    /// The next record with the same id, or `UInt32.max`.
    var nextWithSameID: UInt32 = .max

    /// Every variant index of the route, in expansion order.
    var variants: [UInt32] { [firstVariant] + moreVariants }
}

/// Everything only the (single) writer touches.
struct WriterState: ~Copyable {
    var records: [RouteRecord?] = []
    var freeRecords: [UInt32] = []
    /// The first record of each id; records sharing an id are chained through `nextWithSameID`.
    var firstByID: [UInt64: UInt32] = [:]
    var regexes: [String: (regex: CompiledRegex, uses: Int)] = [:]
    var templates: [[UInt8]: (template: PartialTemplate, uses: Int)] = [:]
    var nextSequence: UInt64 = 1
    /// Payloads of removed routes, released once no reader can hold them.
    var reclaimer = PayloadReclaimer()
    var releasePayload: (@Sendable (UnsafeMutableRawPointer) -> Void)?

    /// The record index the `offset`-th record of the current batch will get.
    func peekRecordIndex(offset: Int) -> UInt32 {
        if offset < freeRecords.count { return freeRecords[freeRecords.count - 1 - offset] }
        return UInt32(records.count + offset - freeRecords.count)
    }

    /// Indexes of the records with `id`, in registration order.
    func recordIndexes(withID id: UInt64) -> [UInt32] {
        var indexes: [UInt32] = []
        var index = firstByID[id] ?? .max
        while index != .max {
            indexes.append(index)
            index = records[Int(index)]!.nextWithSameID
        }
        return indexes
    }

    mutating func store(_ record: RouteRecord) {
        var record = record
        let index: UInt32
        if let reused = freeRecords.popLast() {
            index = reused
        } else {
            index = UInt32(records.count)
            records.append(nil)
        }
        // Keep the chain in registration order: append at its tail.
        if let first = firstByID[record.id] {
            var last = first
            while records[Int(last)]!.nextWithSameID != .max { last = records[Int(last)]!.nextWithSameID }
            records[Int(last)]!.nextWithSameID = index
        } else {
            firstByID[record.id] = index
        }
        record.nextWithSameID = .max
        records[Int(index)] = record
    }

    mutating func free(_ index: UInt32) {
        records[Int(index)] = nil
        freeRecords.append(index)
    }

    /// Releases what the last grace period freed; O(readers), never waits.
    mutating func reclaimPayloads(router: UInt) {
        guard let release = releasePayload else { return }
        reclaimer.advance(router: router, release: release)
    }
}
