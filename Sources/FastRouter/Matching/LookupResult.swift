/// What a lookup gives its caller: the status, with the answer current in the scratch (the C
/// entries, the ``Matcher``), or a ``FoundMatch`` (``Router/match(_:)``), made from the answer
/// itself and never written into the scratch. The pipeline (Lookup.swift: ``RouterCore/lookupByPath``
/// and the walk) is generic over it, so each caller pays only for the answer it reads
/// (docs/ARCHITECTURE.md, "One lookup through `Router.match`").
protocol LookupResult {
    /// Whether the caller may decline the answer: the lookup then keeps what a decline needs
    /// (the path, a pin of the tables' version) when it passed over a candidate.
    static var keepsDeclines: Bool { get }
    /// The answer when the walk found `terminal` (its payload held when the router has
    /// payloads), in `table` (0 the scheme's, 1 the global one), its parameters at `captures`
    /// into `input` (``ScratchState/activate(_:table:captures:input:)``).
    static func found(_ terminal: Terminal, table: Int, captures: UnsafePointer<Capture>, input: WalkInput,
                      _ scratch: MatchScratch, _ core: RouterCore) -> Self
    /// The answer when a route without parameters, `terminal`, was found by the path alone
    /// (``ScratchState/activate(lone:)``), its payload held when the router has payloads.
    static func foundByPath(_ terminal: Terminal, _ scratch: MatchScratch, payloads: Bool) -> Self
    /// The answer for `status`, which the lookup left in `scratch`.
    static func answer(_ status: LookupStatus, _ scratch: MatchScratch, _ core: RouterCore) -> Self
}

extension LookupStatus: LookupResult {
    static var keepsDeclines: Bool { true }

    @inline(__always)
    static func found(_ terminal: Terminal, table: Int, captures: UnsafePointer<Capture>, input: WalkInput,
                      _ scratch: MatchScratch, _ core: RouterCore) -> LookupStatus {
        scratch.state.pointee.activate(terminal, table: table, captures: captures, input: input, payloads: core.holdsPayloads)
        return .found
    }

    @inline(__always)
    static func foundByPath(_ terminal: Terminal, _ scratch: MatchScratch, payloads: Bool) -> LookupStatus {
        scratch.state.pointee.activate(lone: terminal, payloads: payloads)
        return .found
    }

    @inline(__always)
    static func answer(_ status: LookupStatus, _ scratch: MatchScratch, _ core: RouterCore) -> LookupStatus { status }
}

extension FoundMatch: LookupResult {
    /// ``Router/match(_:)`` answers once: nothing is kept for declines.
    static var keepsDeclines: Bool { false }

    /// A match of path parameters only (most) copies them straight from the walk; one with query
    /// pairs, a fragment or a wildcard is made current first and copied out of the scratch
    /// (``RouterCore/found(_:_:)``).
    @inline(__always)
    static func found(_ terminal: Terminal, table: Int, captures: UnsafePointer<Capture>, input: WalkInput,
                      _ scratch: MatchScratch, _ core: RouterCore) -> FoundMatch {
        let state = scratch.state
        let shape = terminal.shape
        // A plain path (no ``ScratchState/urlExtras``) has neither query pairs nor a fragment.
        let plain = !state.pointee.urlExtras || (state.pointee.queryPairs.count == 0 && state.pointee.fragment == nil)
        guard plain, !shape.pointee.endsWithWildcard else {
            state.pointee.activate(terminal, table: table, captures: captures, input: input, payloads: true)
            return core.found(.found, scratch)
        }
        let named = shape.pointee.nameCount
        let parameters = named == 0 ? nil
            : ParameterStorage.makePath(captures, named, layout: shape.pointee.layout, values: input.values,
                                        bound: input.end, reusing: &state.pointee.spareParameters)
        return FoundMatch(routeID: terminal.routeID(payloads: true), payload: terminal.payload,
                          parameters: parameters.map { Unmanaged.passRetained($0) }, scratch: Unmanaged.passUnretained(scratch))
    }

    /// The route itself, never made current: ``RouterCore/found(_:_:)`` would copy it out of the
    /// scratch and forget it at once. The scratch's last result stays forgotten (the thread's
    /// lookups through the Swift API leave none).
    @inline(__always)
    static func foundByPath(_ terminal: Terminal, _ scratch: MatchScratch, payloads _: Bool) -> FoundMatch {
        FoundMatch(routeID: terminal.routeID(payloads: true), payload: terminal.payload, parameters: nil,
                   scratch: Unmanaged.passUnretained(scratch))
    }

    @inline(__always)
    static func answer(_ status: LookupStatus, _ scratch: MatchScratch, _ core: RouterCore) -> FoundMatch {
        core.found(status, scratch)
    }
}
