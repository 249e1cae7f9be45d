/// What a batch collects while its routes are prepared, before it lands. The writer keeps
/// one between calls (``WriterState/spareBatch``) for its buffers.
struct BatchPreparation: Sendable {
    /// Regexes the batch compiled, by source: each distinct source is compiled once per batch
    /// (PCRE2 compilation and JIT cost far more than parsing the rest of a pattern), and the
    /// router's own copy is used where it has one.
    var regexes: [String: CompiledRegex] = [:]
    /// Partial-segment templates the batch made, by shape (the router's are used where they exist).
    var templates: [[DuplicateKey.Piece]: PartialTemplate] = [:]
    /// Per route: its regex sources and template shapes (each once) and its number of expansions.
    var routes: [(regexSources: [String], templateKeys: [[DuplicateKey.Piece]], variantCount: Int, methodSet: UInt16)] = []
    /// Registration order of the next route.
    var sequence: UInt64 = 0
    /// The parameters of the variant being made, kept so that each variant does not
    /// allocate a list of its own.
    var spareNames: [(name: String, segment: Int32)] = []

    /// Starts a registration call whose first route gets `firstSequence`.
    mutating func begin(firstSequence: UInt64) {
        sequence = firstSequence
    }

    /// Forgets the call's routes, regexes and templates, keeping the buffers' room.
    mutating func end() {
        // Most calls have no regex or template: an empty dictionary is left as it is.
        if !regexes.isEmpty { regexes.removeAll(keepingCapacity: true) }
        if !templates.isEmpty { templates.removeAll(keepingCapacity: true) }
        routes.removeAll(keepingCapacity: true)
        spareNames.removeAll(keepingCapacity: true)
    }
}
