extension RouterCore {
    /// Removes every route with `id`; returns how many were removed.
    ///
    /// Each route's pattern is parsed again to find the path of each expansion; one
    /// ``TreeEditor`` takes them all out and one publication makes the removal visible.
    /// - Complexity: O(total pattern length of those routes) plus one grace period.
    @discardableResult
    package func remove(id: UInt64) -> Int {
        writer.withLock { state in
            let indexes = state.routes.indexes(withID: id)
            guard !indexes.isEmpty else { return 0 }
            state.editor.begin(tables.published)
            defer { state.editor.end() }
            var regexSources: [String] = []
            var templateKeys: [[DuplicateKey.Piece]] = []
            var payloads: [UnsafeMutableRawPointer] = []
            for index in indexes {
                let shape = storedShape(of: index, state)
                for (expansion, variant) in shape.variants.enumerated() {
                    let removed = state.editor.remove(variant, sequence: state.routes.records[Int(index)].sequence)
                    assert(removed != nil, "a stored route's expansion is missing from the tree")
                    // Every expansion of a route holds its one payload.
                    if expansion == 0, holdsPayloads, let removed { payloads.append(removed.payload) }
                }
                regexSources += shape.regexSources
                templateKeys += shape.templateKeys
            }
            let kept = tables.publish(&state.editor, maxCaptures: state.maxCaptures, router: tag, retired: &state.retired, waits: true)
            let removed = state.routes.removeAll(withID: id)
            // Regexes and templates no route uses any more: no published node reaches them and no
            // reader is inside an old version, unless one was kept for a pinned reader. Each
            // route counted each of its own once when it was added (``add(_:)``), as here.
            var unused: [AnyObject] = []
            for source in regexSources {
                state.regexes[source]!.uses -= 1
                if state.regexes[source]!.uses == 0 { unused.append(state.regexes.removeValue(forKey: source)!.regex) }
            }
            for key in templateKeys {
                state.templates[key]!.uses -= 1
                if state.templates[key]!.uses == 0 { unused.append(state.templates.removeValue(forKey: key)!.template) }
            }
            if kept && !unused.isEmpty { state.retired.keepAliveWithNewest(unused) }
            // The tables no longer hold the routes: only readers' last results may still hold them.
            for payload in payloads { state.reclaimer.retire(payload) }
            routeCount.subtract(removed.count, ordering: .relaxed)
            state.reclaimPayloads(router: tag)
            return removed.count
        }
    }

    /// The expansions of stored route `index` as the tree holds them, from its pattern parsed
    /// again with the router's shared regexes and templates.
    func variants(ofStored index: UInt32, _ state: borrowing WriterState) -> [RouteVariant] {
        storedShape(of: index, state).variants
    }

    /// Stored route `index` as its registration saw it, from its pattern parsed again with the
    /// router's shared regexes and templates: its expansions as the tree holds them, the sources of
    /// its regexes and its partial templates' shapes, each once (what it counted as uses).
    func storedShape(of index: UInt32, _ state: borrowing WriterState)
        -> (variants: [RouteVariant], regexSources: [String], templateKeys: [[DuplicateKey.Piece]]) {
        let text = state.routes.pattern(of: index)
        let parsed = withUTF8(text) { bytes in
            Result { () throws(RouterError) in
                try PatternParser.parse(bytes, webSchemes: options.webSchemes) { source in state.regexes[source]?.regex }
            }
        }
        guard case .success(let pattern) = parsed else {
            preconditionFailure("a stored pattern no longer parses")
        }
        var templateKeys = Set<[DuplicateKey.Piece]>()
        let variants = pattern.variants.indices.map { expansion in
            let segments = pattern.variants[expansion]
            var resolved: [UnsafeRawPointer?] = Array(repeating: nil, count: segments.count)
            for (position, segment) in segments.enumerated() {
                switch segment {
                case .constrained(_, .regex(let source)):
                    resolved[position] = UnsafeRawPointer(Unmanaged.passUnretained(state.regexes[source]!.regex).toOpaque())
                case .partial(let parts):
                    let pieces = parts.map(DuplicateKey.Piece.init)
                    resolved[position] = UnsafeRawPointer(Unmanaged.passUnretained(state.templates[pieces]!.template).toOpaque())
                    templateKeys.insert(pieces)
                default:
                    break
                }
            }
            return RouteVariant(pattern, expansion: expansion, resolved: resolved)
        }
        // As registration counts them: every regex of the pattern, every template of a variant.
        return (variants, Array(pattern.regexes.keys), Array(templateKeys))
    }
}
