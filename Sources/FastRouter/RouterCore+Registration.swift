extension RouterCore {
    /// A route to register: its pattern, priority, id and an opaque payload (owned by the router
    /// once registered, hence sendable).
    struct Registration: @unchecked Sendable {
        /// The pattern as the Swift caller's string; `nil` when it came as bytes.
        var text: String?
        /// The pattern's raw bytes (C ABI: not necessarily UTF-8), used when `text` is `nil`: the
        /// caller's buffer, borrowed for the duration of the add that takes this registration.
        var bytes = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
        var priority: Int32
        var id: UInt64
        var payload: UnsafeMutableRawPointer?

        /// Runs `body` on the pattern's bytes without copying a native string.
        func withPattern<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
            if let text { return withUTF8(text, body) }
            return body(bytes)
        }
    }

    /// Registers one route (all its expansions) or nothing.
    /// - Throws: a pattern error with its offset, `.duplicateRoute`, `.invalidArgument` for the
    ///   reserved id, or `.outOfMemory` when the process-wide table of parameter names is full.
    /// - Complexity: O(pattern length) plus one grace period.
    package func add(pattern: UnsafeBufferPointer<UInt8>, priority: Int32, id: UInt64, payload: UnsafeMutableRawPointer?) throws(RouterError) {
        try add([Registration(text: nil, bytes: pattern, priority: priority, id: id, payload: payload)])
    }

    /// Registers routes all at once, or none of them when any fails.
    ///
    /// A large batch is parsed and inserted one route at a time into the side readers do not
    /// use, so nothing proportional to the batch is held twice: a million routes never exist as
    /// a million parsed patterns at once. Parsing happens under the writer lock; readers never
    /// take it.
    /// - Complexity: O(total pattern length); one publication for the whole batch.
    func add(_ registrations: [Registration]) throws(RouterError) {
        for registration in registrations where registration.id == UInt64.max {
            throw RouterError(.invalidArgument, offset: 0, "route id UINT64_MAX is reserved (FR_NO_ROUTE)")
        }
        try writer.withLock { (state) throws(RouterError) in
            // The buffers of the last registration call serve this one: a single add then
            // allocates nothing for its bookkeeping.
            var batch = state.spareBatch.take() ?? BatchPreparation()
            batch.begin(firstSequence: state.nextSequence)
            var inserted = state.spareInserted
            state.spareInserted = []
            inserted.removeAll(keepingCapacity: true)
            defer {
                // A large batch's buffers are let go rather than held for the router's life.
                if inserted.capacity <= Self.spareBufferRoutes {
                    batch.end()
                    state.spareBatch = batch
                    state.spareInserted = inserted
                }
            }
            let duplicate = RouterError(.duplicateRoute, offset: 0,
                                        "a route with the same table, host, priority and segments is already registered")
            inserted.reserveCapacity(registrations.count)
            if registrations.count > 64 {
                // Each variant is checked against the side being built, which already holds the
                // batch's earlier variants; a failure restores that side from the published one.
                try applyBatch { (side) throws(RouterError) in
                    var cursor = PathCursor()
                    for registration in registrations {
                        for variant in try prepare(registration, &batch, state) {
                            // Nodes made for a duplicate are dropped with the rest of the failed side.
                            let node = side.pathCreating(for: variant, cursor: &cursor)
                            if side.hasDuplicate(of: variant, at: node) { throw duplicate }
                            inserted.append(side.attach(variant, at: node))
                        }
                    }
                }
            } else {
                var variants: [TrieVariant] = []
                for registration in registrations {
                    let prepared = try prepare(registration, &batch, state)
                    if variants.isEmpty { variants = prepared } else { variants += prepared }
                }
                if variants.count == 1 {
                    // The common single add checks for a duplicate on the first side it changes:
                    // a duplicate's path exists in full, so finding one there has created nothing.
                    let variant = variants[0]
                    try apply { (side) throws(RouterError) in
                        let node = side.pathCreating(for: variant)
                        if side.hasDuplicate(of: variant, at: node) { throw duplicate }
                        inserted.removeAll(keepingCapacity: true)
                        inserted.append(side.attach(variant, at: node))
                    }
                } else {
                    // Several variants are checked before anything changes: against the published
                    // side and against each other.
                    let active = publishedSide
                    var keys = Set<DuplicateKey>()
                    for variant in variants
                    where active.containsDuplicate(of: variant) || !keys.insert(variant.key).inserted {
                        throw duplicate
                    }
                    apply { side in inserted = variants.map { side.insert($0) } }
                }
            }
            // The batch has landed: record it.
            state.nextSequence = batch.sequence
            for (source, regex) in batch.regexes where state.regexes[source] == nil { state.regexes[source] = (regex, 0) }
            for (key, template) in batch.templates where state.templates[key] == nil {
                state.templates[key] = (template, 0)
            }
            let textBytes = registrations.reduce(0) { $0 + ($1.text?.utf8.count ?? $1.bytes.count) }
            state.routes.reserve(routes: registrations.count, textBytes: textBytes)
            var cursor = 0
            for (registration, route) in zip(registrations, batch.routes) {
                for source in route.regexSources { state.regexes[source]!.uses += 1 }
                for key in route.templateKeys { state.templates[key]!.uses += 1 }
                let expansions = inserted[cursor..<(cursor + route.variantCount)]
                registration.withPattern { bytes in
                    state.routes.add(id: registration.id, pattern: bytes, variants: expansions,
                                     regexSources: route.regexSources, templateKeys: route.templateKeys)
                }
                cursor += route.variantCount
            }
            routeCount.add(registrations.count, ordering: .relaxed)
            state.reclaimPayloads(router: tag)
        }
    }

    /// Most routes a registration call's buffers are kept for, for the next call.
    private static var spareBufferRoutes: Int { 256 }

    /// Parses one route and builds its variants (one per expansion), recording in `batch` what
    /// the route shares with others.
    private func prepare(_ registration: Registration, _ batch: inout BatchPreparation,
                         _ state: borrowing WriterState) throws(RouterError) -> [TrieVariant] {
        let pattern = try registration.withPattern { bytes in
            Result { () throws(RouterError) in
                try PatternParser.parse(bytes, webSchemes: options.webSchemes) { source in
                    batch.regexes[source] ?? state.regexes[source]?.regex
                }
            }
        }.get()
        let recordIndex = state.routes.peekIndex(offset: batch.routes.count)
        var regexPointers: [String: UnsafeRawPointer] = [:]
        for (source, compiled) in pattern.regexes {
            let shared = state.regexes[source]?.regex ?? batch.regexes[source] ?? compiled
            if state.regexes[source] == nil { batch.regexes[source] = shared }
            regexPointers[source] = UnsafeRawPointer(Unmanaged.passUnretained(shared).toOpaque())
        }
        var templateKeys = Set<[DuplicateKey.Piece]>()
        var variants: [TrieVariant] = []
        variants.reserveCapacity(pattern.variants.count)
        for (expansion, segments) in pattern.variants.enumerated() {
            variants.append(try makeVariant(pattern, segments, regexPointers, &batch.templates, state.templates,
                                            &templateKeys, &batch.spareNames, registration, sequence: batch.sequence,
                                            expansion: expansion, record: recordIndex))
        }
        batch.routes.append((Array(pattern.regexes.keys), Array(templateKeys), variants.count))
        batch.sequence += 1
        return variants
    }

    private func makeVariant(_ pattern: Pattern, _ segments: [Segment], _ regexPointers: [String: UnsafeRawPointer],
                             _ templates: inout [[DuplicateKey.Piece]: PartialTemplate],
                             _ routerTemplates: [[DuplicateKey.Piece]: (template: PartialTemplate, uses: Int)],
                             _ templateKeys: inout Set<[DuplicateKey.Piece]>, _ names: inout [(name: String, segment: Int32)],
                             _ registration: Registration, sequence: UInt64, expansion: Int,
                             record: UInt32) throws(RouterError) -> TrieVariant {
        names.removeAll(keepingCapacity: true)
        for (index, segment) in segments.enumerated() {
            switch segment {
            case .parameter(let name), .constrained(let name, _), .wildcard(let name):
                names.append((name, Int32(index)))
            case .partial(let pieces):
                for case .parameter(let name, _) in pieces { names.append((name, -1)) }
            case .literal:
                break
            }
        }
        // The trie's path is the key's segment shapes; regexes and partial templates are shared
        // by source and by shape, so equal shapes reach one node.
        let key = DuplicateKey(pattern, expansion: expansion, priority: registration.priority)
        var resolved: [UnsafeRawPointer?] = []
        for (index, shape) in key.segments.enumerated() {
            let pointer: UnsafeRawPointer?
            switch shape {
            case .constrained(.regex(let source)):
                pointer = regexPointers[source]
            case .partial(let pieces):
                let template = routerTemplates[pieces]?.template ?? templates[pieces]
                    ?? PartialTemplate(pieces, regexPointers: regexPointers)
                if routerTemplates[pieces] == nil { templates[pieces] = template }
                templateKeys.insert(pieces)
                pointer = UnsafeRawPointer(Unmanaged.passUnretained(template).toOpaque())
            default:
                continue
            }
            if resolved.isEmpty { resolved = Array(repeating: nil, count: key.segments.count) }
            resolved[index] = pointer
        }
        let layout = try self.names.internLayout(names)
        return TrieVariant(key: key, resolved: resolved, layout: layout, nameCount: UInt16(names.count),
                           routeID: registration.id, sequence: sequence, expansion: UInt16(expansion),
                           payload: registration.payload, record: record)
    }
}
