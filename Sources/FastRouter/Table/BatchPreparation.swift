/// What a batch collects while its routes are prepared (parsed, expanded, made into variants
/// and terminals and added to the tree, see ``prepare(_:_:_:_:adding:maxCaptures:)``), before it
/// lands. The writer keeps one between calls (``WriterState/preparation``) for its buffers.
struct BatchPreparation {
    /// What preparing a route reads of its router, lent for the call under the writer lock (a
    /// copy of each would be a retain and a release per add): its regexes and partial templates
    /// (each with the routes that use it), its web schemes and the process's name table.
    // Safety: made inside the `withUnsafePointer` calls of the registration it serves, and
    // noncopyable, so it is not kept past them; the router changes none of these until the
    // batch lands, after the preparation.
    struct Context: ~Copyable {
        let regexes: UnsafePointer<[String: (regex: CompiledRegex, uses: Int)]>
        let templates: UnsafePointer<[[DuplicateKey.Piece]: (template: PartialTemplate, uses: Int)]>
        let webSchemes: UnsafePointer<Set<String>>
        let names: Unmanaged<NameTable.Store>
    }

    /// Regexes the batch compiled, by source: each distinct source is compiled once per batch
    /// (PCRE2 compilation and JIT cost far more than parsing the rest of a pattern), and the
    /// router's own copy is used where it has one.
    var regexes: [String: CompiledRegex] = [:]
    /// Partial-segment templates the batch made, by shape (the router's are used where they exist).
    var templates: [[DuplicateKey.Piece]: PartialTemplate] = [:]
    /// Per route of the call, its method set's index.
    var methodSets: [UInt16] = []
    /// For each route of the call with regexes or partial templates, their sources and shapes,
    /// each once: what its registration counts as uses. Most routes have neither, and lists for
    /// every route would cost a large batch a few dozen bytes per route.
    var sharedParts: [(regexSources: [String], templateKeys: [[DuplicateKey.Piece]])] = []
    /// Registration order of the next route.
    var sequence: UInt64 = 0
    /// The parameters of the variant being made, kept so that each variant does not
    /// allocate a list of its own.
    var spareNames: [(name: String, segment: Int32)] = []
    /// The segment ranks of the variant being made, kept for the same reason.
    var spareRanks = WriterBuffer<UInt8>()
    /// The layouts this writer interned lately.
    var layouts = LayoutCache()
    /// The lists of the last pattern parsed, handed back once its variants are in the tree, for
    /// the next pattern.
    var patternLists = PatternParser.Lists()
    /// The route being prepared's regexes, by source, as the batch shares them, and the shapes
    /// of its partial templates.
    var routeRegexPointers: [String: UnsafeRawPointer] = [:]
    var routeTemplateKeys = Set<[DuplicateKey.Piece]>()

    /// Starts a registration call whose first route gets `firstSequence`.
    mutating func begin(firstSequence: UInt64) {
        sequence = firstSequence
    }

    /// Forgets the call's routes, regexes and templates, keeping the buffers' room.
    @inline(__always)
    mutating func end() {
        // Most calls have no regex or template: an empty dictionary is left as it is.
        if !regexes.isEmpty { regexes.removeAll(keepingCapacity: true) }
        if !templates.isEmpty { templates.removeAll(keepingCapacity: true) }
        methodSets.clearKeepingCapacity()
        if !sharedParts.isEmpty { sharedParts.clearKeepingCapacity() }
        // The names of the last variant stay until the next one's are gathered (a few short
        // strings): emptying the list here would release them on every call.
    }
}

extension BatchPreparation {
    /// Parses the route at `registration` and adds its variants (one per expansion) for
    /// `methods` to `editor`, recording what the route shares with others and its method set's
    /// index (`methodSet`), and raising `maxCaptures` to its parameter count. Returns `false` when
    /// an expansion is a duplicate (``TreeEditor/add(_:_:)``). Reads no router state but what
    /// `context` lends, and interns names and shapes in the process's tables.
    mutating func prepare(_ registration: UnsafePointer<RouterCore.Registration>, _ methods: MethodSet, _ methodSet: UInt16,
                          _ context: borrowing Context, adding editor: inout TreeEditor, maxCaptures: inout Int) throws(RouterError) -> Bool {
        // The batch's regexes as the parser sees them: its lists are lent from `self` meanwhile.
        let batchRegexes = regexes
        let routerRegexes = context.regexes
        var pattern = try RouterCore.Registration.withPattern(at: registration) { bytes in
            Result { () throws(RouterError) in
                try PatternParser.parse(bytes, webSchemes: context.webSchemes.pointee, reusing: &patternLists) { source in
                    batchRegexes[source] ?? routerRegexes.pointee[source]?.regex
                }
            }
        }.get()
        defer {
            // Its lists back for the next pattern, emptied where they are (each variant made of
            // them is gone by now, so emptying allocates nothing).
            if pattern.variants.count == 1 { patternLists.recycle(segments: &pattern.variants[0]) }
            patternLists.recycle(variants: &pattern.variants)
        }
        // Most patterns have no regex and no partial segment: their lists stay empty, untouched.
        if !routeRegexPointers.isEmpty { routeRegexPointers.removeAll() }
        if !routeTemplateKeys.isEmpty { routeTemplateKeys.removeAll() }
        if !pattern.regexes.isEmpty {
            for (source, compiled) in pattern.regexes {
                let shared = context.regexes.pointee[source]?.regex ?? regexes[source] ?? compiled
                if context.regexes.pointee[source] == nil { regexes[source] = shared }
                routeRegexPointers[source] = UnsafeRawPointer(Unmanaged.passUnretained(shared).toOpaque())
            }
        }
        for expansion in pattern.variants.indices {
            guard try addVariant(pattern, context, registration, methods, expansion: expansion,
                                 to: &editor, maxCaptures: &maxCaptures) else { return false }
        }
        if !pattern.regexes.isEmpty || !routeTemplateKeys.isEmpty {
            sharedParts.append((Array(pattern.regexes.keys), Array(routeTemplateKeys)))
        }
        methodSets.append(methodSet)
        sequence += 1
        return true
    }

    /// Makes expansion `expansion` of `pattern` into a variant and its terminal and adds them to
    /// `editor`; `false` for a duplicate.
    private mutating func addVariant(_ pattern: borrowing Pattern, _ context: borrowing Context,
                                     _ registration: UnsafePointer<RouterCore.Registration>, _ methods: MethodSet,
                                     expansion: Int, to editor: inout TreeEditor, maxCaptures: inout Int) throws(RouterError) -> Bool {
        spareNames.clearKeepingCapacity()
        spareRanks.removeAll()
        // One pass over the segments: their names, their ranks, and the regexes and partial
        // templates the tree's edges point to. Those are shared by source and by shape, so equal
        // segment shapes reach one node.
        var resolved: [UnsafeRawPointer?] = []
        let segments = pattern.variants[expansion]
        for index in segments.indices {
            spareRanks.append(RouteVariant.rank(of: segments[index]).rawValue)
            let pointer: UnsafeRawPointer
            switch segments[index] {
            case .literal:
                continue
            case .parameter(let name), .wildcard(let name):
                spareNames.append((name, Int32(index)))
                continue
            case .constrained(let name, let constraint):
                spareNames.append((name, Int32(index)))
                guard case .regex(let source) = constraint else { continue }
                pointer = routeRegexPointers[source]!
            case .partial(let parts):
                for case .parameter(let name, _) in parts { spareNames.append((name, -1)) }
                let pieces = parts.map(DuplicateKey.Piece.init)
                let template = context.templates.pointee[pieces]?.template ?? templates[pieces]
                    ?? PartialTemplate(pieces, regexPointers: routeRegexPointers)
                if context.templates.pointee[pieces] == nil { templates[pieces] = template }
                routeTemplateKeys.insert(pieces)
                pointer = UnsafeRawPointer(Unmanaged.passUnretained(template).toOpaque())
            }
            if resolved.isEmpty { resolved = Array(repeating: nil, count: segments.count) }
            resolved[index] = pointer
        }
        let nameCount = spareNames.count
        let names = context.names.takeUnretainedValue()
        let layout = try layouts.layout(of: spareNames, in: names)
        let variant = RouteVariant(table: pattern.scheme, segments: segments, resolved: resolved, expansion: expansion)
        let endsWithWildcard = variant.endsWithWildcard
        if !endsWithWildcard { spareRanks.append(SegmentRank.end.rawValue) }
        let shape = pattern.host.withStoredBytes { host in
            names.internShape(layout: layout, nameCount: nameCount, ranks: spareRanks.elements, host: host,
                              hostRank: pattern.host.rank, priority: registration.pointee.priority,
                              expansion: UInt16(expansion), endsWithWildcard: endsWithWildcard, methods: methods)
        }
        let terminal = Terminal(shape: shape, routeID: registration.pointee.id, payload: registration.pointee.payload, sequence: sequence)
        guard editor.add(variant, terminal) else { return false }
        maxCaptures = max(maxCaptures, nameCount)
        return true
    }
}
