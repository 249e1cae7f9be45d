import FastRouter

/// The oracle of the differential suite: a linear matcher written straight from docs/SEMANTICS.md §3.
///
/// It keeps routes in a plain array and, for every URL, tries every expansion of every route,
/// then sorts the survivors with one comparator that spells out §3.1 and §3.6. It is slow on
/// purpose and shares nothing with the library except `RouterOptions`: its URL splitter,
/// percent-decoder, UTF-8 check, constraint checks, partial-segment splitter and pattern reader
/// are its own, and the pattern reader only knows the subset the differential generator writes
/// (the four regex sources in ``regexAcceptors`` are the only regexes it understands).
///
/// Partial segments (`{name}.{ext}`, `v{major:int}`) follow the README: they rank between a
/// literal and a constraint, each placeholder takes a non-empty value that its constraint (if
/// any) accepts as a whole, and the split is greedy from the left (see ``bestSplit``).
///
/// Routes carry HTTP method sets (§3.7); lookups with a method are in
/// ReferenceMatcher+Methods.swift, on top of ``matches(_:)``.
struct ReferenceMatcher {
    /// One (name, value) pair of a match.
    struct Pair: Hashable, CustomStringConvertible {
        var name: String
        var value: String
        var description: String { "\(name)=\(value.debugDescription)" }
    }

    /// One candidate of a lookup: the route id and its full parameter list.
    struct Candidate: Hashable, CustomStringConvertible {
        var id: UInt64
        var parameters: [Pair]
        var description: String { "#\(id)(\(parameters.map(\.description).joined(separator: ", ")))" }
    }

    /// The answer to one URL. `ambiguous` is set when two expansions of one route match and the
    /// specificity order disagrees with the expansion order: the spec fixes both orders but not
    /// which one wins then, so the differential only compares such lookups as sets.
    struct Lookup {
        var candidates: [Candidate]
        /// The methods each candidate's route accepts (`nil`: any method), beside `candidates`.
        var methodSets: [Set<String>?] = []
        /// Each candidate's table, priority, host rank and segment ranks, beside `candidates`:
        /// what the order compares before registration. Candidates with equal shapes are
        /// neighbours, in registration order (a HEAD request reorders them, §3.7).
        var shapes: [OrderShape] = []
        var ambiguous: Bool
        var fragment: String?
        /// Coverage, so the differential can check that it tests partial segments at all: how
        /// many candidates matched a URL segment with a partial segment, whether two neighbours in
        /// the order were told apart at a depth where one has a partial segment, and whether some
        /// partial segment could split its URL segment in more than one way (the greedy rule chose).
        var partialCandidates = 0
        var orderedByPartial = false
        var greedyChoice = false
    }

    /// Where a candidate stands in the order of §3.1 before registration: two candidates of
    /// one table with equal priority, host rank and segment ranks are "of the same shape".
    struct OrderShape: Equatable {
        var table: String?
        var priority: Int32
        var hostRank: Int
        var ranks: [Int]
    }

    /// `tooManyMethods`: the add would give the router more than ``methodCapacity`` names.
    enum AddOutcome: Equatable { case added, duplicate, tooManyMethods, unsupported(String) }

    enum Host: Hashable {
        case any
        case suffix(String)  // ".example.com", lower-cased
        case exact(String)   // lower-cased

        var rank: Int {
            switch self {
            case .any: return 0
            case .suffix: return 1
            case .exact: return 2
            }
        }
    }

    enum Segment: Hashable {
        case literal([UInt8])
        case parameter(String)
        case constrained(String, String)
        case partial([PartialPiece])
        case wildcard(String)
    }

    /// One piece of a partial segment: decoded text, or a `{name}` / `{name:constraint}`
    /// placeholder (the constraint is its source text, `nil` when there is none).
    enum PartialPiece: Hashable {
        case text([UInt8])
        case placeholder(String, String?)
    }

    /// What makes two routes duplicates (§3.6): parameter names do not count.
    enum Shape: Hashable {
        case literal([UInt8])
        case parameter
        case constrained(String)
        /// Text and constraints; every placeholder name is blanked.
        case partial([PartialPiece])
        case wildcard
    }

    struct DuplicateKey: Hashable {
        var table: String?
        var host: Host
        var priority: Int32
        var shapes: [Shape]
    }

    struct Entry {
        var pattern: String
        var priority: Int32
        var id: UInt64
        var order: Int
        var table: String?
        var host: Host
        var variants: [[Segment]]
        /// The methods the route accepts, `nil` for any method.
        var methods: Set<String>? = nil
    }

    let options: RouterOptions
    private(set) var entries: [Entry] = []
    private var nextOrder = 0
    /// Every method name the router has seen, in the order it first saw it: what orders the
    /// extension methods of an `Allow` value (§3.7). A name counts from the first add that lists
    /// it, even one that then fails, and stays when its routes are removed: the router numbers a
    /// name when it reads it, before it checks the route, and never forgets one.
    private(set) var methodNames: [String] = []
    /// Distinct method names a router accepts (§3.7 asks for at least 64; the router takes 64).
    static let methodCapacity = 64

    init(options: RouterOptions) {
        self.options = options
    }

    var count: Int { entries.count }

    // MARK: registration

    /// Adds routes for any method all or nothing, as `Router.add(contentsOf:)` does.
    mutating func add(_ routes: [(pattern: String, priority: Int32, id: UInt64)]) -> AddOutcome {
        add(routes.map { (pattern: $0.pattern, methods: [String](), priority: $0.priority, id: $0.id) })
    }

    /// Adds routes all or nothing, each for `methods` (empty: any method). Two routes with the
    /// same duplicate key are duplicates only when their method sets overlap (§3.7).
    mutating func add(_ routes: [(pattern: String, methods: [String], priority: Int32, id: UInt64)]) -> AddOutcome {
        var parsed: [Entry] = []
        for route in routes {
            guard var entry = parse(route.pattern, priority: route.priority, id: route.id) else {
                return .unsupported(route.pattern)
            }
            entry.methods = route.methods.isEmpty ? nil : Set(route.methods)
            parsed.append(entry)
        }
        var taken: [DuplicateKey: [Set<String>?]] = [:]
        for entry in entries {
            for variant in entry.variants { taken[key(entry, variant), default: []].append(entry.methods) }
        }
        for (route, entry) in zip(routes, parsed) {
            // The route's names first: they stay seen when this route or a later one fails.
            for name in route.methods where !methodNames.contains(name) {
                guard methodNames.count < Self.methodCapacity else { return .tooManyMethods }
                methodNames.append(name)
            }
            for variant in entry.variants {
                let key = key(entry, variant)
                if taken[key, default: []].contains(where: { Self.overlap($0, entry.methods) }) { return .duplicate }
                taken[key, default: []].append(entry.methods)
            }
        }
        for var entry in parsed {
            entry.order = nextOrder
            nextOrder += 1
            entries.append(entry)
        }
        return .added
    }

    mutating func remove(id: UInt64) -> Int {
        let before = entries.count
        entries.removeAll { $0.id == id }
        return before - entries.count
    }

    /// Whether two method sets share a method (`nil`, any method, shares every one).
    static func overlap(_ a: Set<String>?, _ b: Set<String>?) -> Bool {
        guard let a, let b else { return true }
        return !a.isDisjoint(with: b)
    }

    private func key(_ entry: Entry, _ variant: [Segment]) -> DuplicateKey {
        let shapes = variant.map { segment -> Shape in
            switch segment {
            case .literal(let bytes): return .literal(bytes)
            case .parameter: return .parameter
            case .constrained(_, let source): return .constrained(source)
            case .partial(let pieces): return .partial(pieces.map(Self.unnamed))
            case .wildcard: return .wildcard
            }
        }
        return DuplicateKey(table: entry.table, host: entry.host, priority: entry.priority, shapes: shapes)
    }

    /// A partial piece as it counts for duplicates: placeholder names do not.
    private static func unnamed(_ piece: PartialPiece) -> PartialPiece {
        if case .placeholder(_, let source) = piece { return .placeholder("", source) }
        return piece
    }

    // MARK: pattern reading (generator subset)

    private indirect enum Item {
        case segment(Segment)
        case group([Item])
    }

    private func parse(_ pattern: String, priority: Int32, id: UInt64) -> Entry? {
        var table: String? = nil
        var host = Host.any
        var path = Array(pattern.utf8)[...]
        if let colon = Self.find(Array("://".utf8), in: path) {
            let scheme = lowerASCII(String(decoding: path[..<colon], as: UTF8.self))
            table = scheme
            let rest = path[(colon + 3)...]
            if options.webSchemes.contains(scheme) {
                // The host ends where the path starts: at its first '/' or a group's '('.
                let hostEnd = rest.firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "(") } ?? rest.endIndex
                let hostText = lowerASCII(String(decoding: rest[..<hostEnd], as: UTF8.self))
                if hostText.isEmpty || hostText == "*" {
                    host = .any
                } else if hostText.hasPrefix("*.") {
                    host = .suffix(String(hostText.dropFirst()))
                } else {
                    host = .exact(hostText)
                }
                path = rest[hostEnd...]
            } else if rest.first == UInt8(ascii: "(") {
                // A group opening the path right after "://": the host is its first segment when
                // it is present, the next one when it is not.
                path = rest
            } else {
                // A custom scheme's host is the first path segment.
                path = ([UInt8(ascii: "/")] + rest)[...]
            }
        }
        var bytes = Array(path)
        var position = 0
        guard let items = parseItems(&bytes, &position, closing: false), position == bytes.count else { return nil }
        let variants = expand(items)
        return Entry(pattern: pattern, priority: priority, id: id, order: 0, table: table, host: host,
                     variants: variants)
    }

    private static func find(_ needle: [UInt8], in haystack: ArraySlice<UInt8>) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        for start in haystack.startIndex...(haystack.endIndex - needle.count)
        where haystack[start..<(start + needle.count)].elementsEqual(needle) {
            return start
        }
        return nil
    }

    private func parseItems(_ bytes: inout [UInt8], _ position: inout Int, closing: Bool) -> [Item]? {
        var items: [Item] = []
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: ")") {
                return closing ? items : nil
            } else if byte == UInt8(ascii: "(") {
                position += 1
                guard let inner = parseItems(&bytes, &position, closing: true), !inner.isEmpty,
                      position < bytes.count, bytes[position] == UInt8(ascii: ")") else { return nil }
                position += 1
                items.append(.group(inner))
            } else if byte == UInt8(ascii: "/") {
                position += 1
                let start = position
                var depth = 0
                while position < bytes.count {
                    let b = bytes[position]
                    if b == UInt8(ascii: "{") { depth += 1 }
                    if b == UInt8(ascii: "}") { depth -= 1 }
                    if depth == 0 && (b == UInt8(ascii: "/") || b == UInt8(ascii: "(") || b == UInt8(ascii: ")")) {
                        break
                    }
                    position += 1
                }
                let text = Array(bytes[start..<position])
                if text.isEmpty {
                    // Only the one trailing slash of a pattern may be empty.
                    guard position == bytes.count else { return nil }
                    continue
                }
                guard let segment = parseSegment(text) else { return nil }
                items.append(.segment(segment))
            } else {
                return nil
            }
        }
        return closing ? nil : items
    }

    /// A whole segment: `:name`, `*name`, or text and `{…}` placeholders (one piece of text is a
    /// literal, one placeholder a parameter or constraint, anything else a partial segment).
    private func parseSegment(_ text: [UInt8]) -> Segment? {
        let string = String(decoding: text, as: UTF8.self)
        if string.hasPrefix(":") { return .parameter(String(string.dropFirst())) }
        if string.hasPrefix("*") { return .wildcard(string == "*" ? "*" : String(string.dropFirst())) }
        guard let pieces = parsePieces(text), let first = pieces.first else { return nil }
        guard pieces.count == 1 else { return .partial(pieces) }
        switch first {
        case .text(let bytes): return .literal(bytes)
        case .placeholder(let name, nil): return .parameter(name)
        case .placeholder(let name, let source?): return .constrained(name, source)
        }
    }

    /// Splits a segment's text into decoded text runs and `{…}` placeholders, in order. Two
    /// placeholders with no text between them are refused, as the library refuses them.
    private func parsePieces(_ text: [UInt8]) -> [PartialPiece]? {
        var pieces: [PartialPiece] = []
        var run: [UInt8] = []
        var index = 0
        while index < text.count {
            guard text[index] == UInt8(ascii: "{") else {
                run.append(text[index])
                index += 1
                continue
            }
            if !run.isEmpty {
                guard let decoded = Self.percentDecode(run[...], plusAsSpace: false) else { return nil }
                pieces.append(.text(decoded))
                run = []
            } else if case .placeholder? = pieces.last {
                return nil
            }
            guard let close = Self.closingBrace(text, from: index),
                  let placeholder = parsePlaceholder(Array(text[(index + 1)..<close])) else { return nil }
            pieces.append(placeholder)
            index = close + 1
        }
        if !run.isEmpty {
            guard let decoded = Self.percentDecode(run[...], plusAsSpace: false) else { return nil }
            pieces.append(.text(decoded))
        }
        return pieces
    }

    /// Index of the `}` closing the `{` at `open`, counting nested braces (`[0-9]{2}`).
    private static func closingBrace(_ text: [UInt8], from open: Int) -> Int? {
        var depth = 0
        for index in open..<text.count {
            if text[index] == UInt8(ascii: "{") { depth += 1 }
            if text[index] == UInt8(ascii: "}") {
                depth -= 1
                if depth == 0 { return index }
            }
        }
        return nil
    }

    /// The inside of `{name}` or `{name:constraint}`; the constraint must be one the reference knows.
    private func parsePlaceholder(_ inner: [UInt8]) -> PartialPiece? {
        let string = String(decoding: inner, as: UTF8.self)
        guard let colon = string.firstIndex(of: ":") else { return string.isEmpty ? nil : .placeholder(string, nil) }
        let name = String(string[..<colon])
        let source = String(string[string.index(after: colon)...])
        guard !name.isEmpty, Self.builtins.contains(source) || Self.regexAcceptors[source] != nil else { return nil }
        return .placeholder(name, source)
    }

    /// Every variant of an item list, groups in written order, "present" before "absent".
    private func expand(_ items: [Item]) -> [[Segment]] {
        var results: [[Segment]] = [[]]
        for item in items {
            let options: [[Segment]]
            switch item {
            case .segment(let segment): options = [[segment]]
            case .group(let inner): options = expand(inner) + [[]]
            }
            var next: [[Segment]] = []
            for prefix in results {
                for option in options { next.append(prefix + option) }
            }
            results = next
        }
        return results
    }

    // MARK: URL reading

    struct ParsedURL {
        var scheme: String?
        var webHost: String?      // lower-cased, web schemes only
        var segments: [[UInt8]]   // decoded, non-empty; a custom scheme's host first
        var hostIsSegment: Bool   // segments[0] is a custom-scheme host
        var query: [Pair]
        var fragment: String?
    }

    /// Splits and decodes a URL, or `nil` when §3.4 calls it invalid.
    func parseURL(_ url: String) -> ParsedURL? {
        let bytes = Array(url.utf8)
        guard bytes.count <= 65536 else { return nil }
        var fragment: String? = nil
        var end = bytes.count
        if let hash = bytes.firstIndex(of: UInt8(ascii: "#")) {
            fragment = String(decoding: bytes[(hash + 1)...], as: UTF8.self)
            end = hash
        }
        let main = bytes[..<end]
        guard !main.contains(0) else { return nil }
        var queryBytes: ArraySlice<UInt8> = []
        var beforeQuery = main
        if let question = main.firstIndex(of: UInt8(ascii: "?")) {
            queryBytes = main[(question + 1)...]
            beforeQuery = main[..<question]
        }

        var scheme: String? = nil
        var rest = beforeQuery
        var hasAuthority = false
        if let (colon, slashes) = schemeEnd(beforeQuery) {
            scheme = lowerASCII(String(decoding: beforeQuery[..<colon], as: UTF8.self))
            hasAuthority = slashes
            rest = beforeQuery[(colon + (slashes ? 3 : 1))...]
        }

        var webHost: String? = nil
        var hostIsSegment = false
        var pathBytes = rest
        if let scheme, !hasAuthority {
            // "name:" without "//" (README, choices): an empty authority, the rest is the path,
            // as in "name:///rest". A web URL then has an empty host; a custom one no host segment.
            if options.webSchemes.contains(scheme) { webHost = "" }
        } else if let scheme {
            let authorityEnd = rest.firstIndex(of: UInt8(ascii: "/")) ?? rest.endIndex
            let authority = rest[..<authorityEnd]
            // Validated whole (escapes, UTF-8), userinfo and port included, though only the host matters.
            guard Self.percentDecode(authority, plusAsSpace: false) != nil else { return nil }
            if options.webSchemes.contains(scheme) {
                var host = authority
                if let at = host.lastIndex(of: UInt8(ascii: "@")) { host = host[(at + 1)...] }
                if let colon = host.lastIndex(of: UInt8(ascii: ":")) { host = host[..<colon] }
                // Matched decoded.
                guard let decodedHost = Self.percentDecode(host, plusAsSpace: false) else { return nil }
                webHost = lowerASCII(String(decoding: decodedHost, as: UTF8.self))
                pathBytes = rest[authorityEnd...]
            } else {
                hostIsSegment = !authority.isEmpty
            }
        }

        var segments: [[UInt8]] = []
        var start = pathBytes.startIndex
        var index = start
        while true {
            if index == pathBytes.endIndex || pathBytes[index] == UInt8(ascii: "/") {
                if index > start {
                    guard let decoded = Self.percentDecode(pathBytes[start..<index], plusAsSpace: false) else { return nil }
                    segments.append(decoded)
                    guard segments.count <= 1024 else { return nil }
                }
                if index == pathBytes.endIndex { break }
                start = index + 1
            }
            index += 1
        }

        var query: [Pair] = []
        for item in queryBytes.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true) {
            let key: ArraySlice<UInt8>
            let value: ArraySlice<UInt8>
            if let equals = item.firstIndex(of: UInt8(ascii: "=")) {
                key = item[..<equals]
                value = item[(equals + 1)...]
            } else {
                key = item
                value = []
            }
            guard let k = Self.percentDecode(key, plusAsSpace: options.plusAsSpace),
                  let v = Self.percentDecode(value, plusAsSpace: options.plusAsSpace) else { return nil }
            query.append(Pair(name: String(decoding: k, as: UTF8.self), value: String(decoding: v, as: UTF8.self)))
        }
        return ParsedURL(scheme: scheme, webHost: webHost, segments: segments, hostIsSegment: hostIsSegment,
                         query: query, fragment: fragment)
    }

    /// Index of the `:` ending a leading `scheme:` (RFC 3986), if there is one, and whether `//`
    /// (an authority) follows it.
    private func schemeEnd(_ bytes: ArraySlice<UInt8>) -> (colon: Int, slashes: Bool)? {
        var index = bytes.startIndex
        guard index < bytes.endIndex, Self.isAlpha(bytes[index]) else { return nil }
        index += 1
        while index < bytes.endIndex {
            let b = bytes[index]
            if b == UInt8(ascii: ":") {
                let slashes = bytes.endIndex - index >= 3 && bytes[index + 1] == UInt8(ascii: "/")
                    && bytes[index + 2] == UInt8(ascii: "/")
                return (index, slashes)
            }
            guard Self.isAlpha(b) || Self.isDigit(b) || b == UInt8(ascii: "+") || b == UInt8(ascii: "-")
                    || b == UInt8(ascii: ".") else { return nil }
            index += 1
        }
        return nil
    }

    /// Percent-decodes; `nil` on a bad escape, a NUL or invalid UTF-8 (§3.4).
    static func percentDecode(_ bytes: ArraySlice<UInt8>, plusAsSpace: Bool) -> [UInt8]? {
        var out: [UInt8] = []
        var index = bytes.startIndex
        while index < bytes.endIndex {
            var b = bytes[index]
            if b == UInt8(ascii: "%") {
                guard bytes.endIndex - index >= 3, let high = hexValue(bytes[index + 1]),
                      let low = hexValue(bytes[index + 2]) else { return nil }
                b = high << 4 | low
                index += 3
            } else {
                if plusAsSpace && b == UInt8(ascii: "+") { b = UInt8(ascii: " ") }
                index += 1
            }
            guard b != 0 else { return nil }
            out.append(b)
        }
        return isValidUTF8(out) ? out : nil
    }

    /// Strict UTF-8 (no overlongs, no surrogates, nothing past U+10FFFF), written out by hand.
    static func isValidUTF8(_ bytes: [UInt8]) -> Bool {
        var i = 0
        while i < bytes.count {
            let b0 = bytes[i]
            var need = 0
            var low: UInt8 = 0x80
            var high: UInt8 = 0xBF
            switch b0 {
            case 0x00...0x7F: i += 1; continue
            case 0xC2...0xDF: need = 1
            case 0xE0: need = 2; low = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: need = 2
            case 0xED: need = 2; high = 0x9F
            case 0xF0: need = 3; low = 0x90
            case 0xF1...0xF3: need = 3
            case 0xF4: need = 3; high = 0x8F
            default: return false
            }
            guard i + need < bytes.count else { return false }
            guard bytes[i + 1] >= low && bytes[i + 1] <= high else { return false }
            for k in stride(from: 2, through: need, by: 1) {
                guard bytes[i + k] >= 0x80 && bytes[i + k] <= 0xBF else { return false }
            }
            i += need + 1
        }
        return true
    }

    // MARK: lookup

    private struct Ranked {
        var candidate: Candidate
        var methods: Set<String>?
        var priority: Int32
        var hostRank: Int
        var ranks: [Int]
        var order: Int
        var variant: Int
    }

    /// Every candidate for `url` in decline order, or `nil` when the URL is invalid.
    func matches(_ url: String) -> Lookup? {
        guard let parsed = parseURL(url) else { return nil }
        var result = Lookup(candidates: [], ambiguous: false, fragment: parsed.fragment)
        if let scheme = parsed.scheme {
            lookup(table: scheme, parsed, into: &result)
            if options.globalFallback { lookup(table: nil, parsed, into: &result) }
        } else {
            lookup(table: nil, parsed, into: &result)
        }
        return result
    }

    /// Appends the candidates of one table, best first, to `result`.
    private func lookup(table: String?, _ url: ParsedURL, into result: inout Lookup) {
        var ranked: [Ranked] = []
        for entry in entries where entry.table == table {
            if table != nil, let host = url.webHost {
                guard hostAccepts(entry.host, host) else { continue }
            }
            for (index, variant) in entry.variants.enumerated() {
                guard let parameters = match(variant, url, greedyChoice: &result.greedyChoice) else { continue }
                if variant.contains(where: Self.isPartial) { result.partialCandidates += 1 }
                ranked.append(Ranked(candidate: Candidate(id: entry.id, parameters: parameters + url.query),
                                     methods: entry.methods, priority: entry.priority, hostRank: entry.host.rank,
                                     ranks: ranks(variant), order: entry.order, variant: index))
            }
        }
        ranked.sort(by: Self.precedes)
        for i in ranked.indices {
            for j in ranked.indices where j > i {
                if ranked[i].order == ranked[j].order && ranked[i].variant > ranked[j].variant { result.ambiguous = true }
            }
        }
        for (a, b) in zip(ranked, ranked.dropFirst()) where a.priority == b.priority && a.hostRank == b.hostRank {
            if let depth = a.ranks.indices.first(where: { $0 < b.ranks.count && a.ranks[$0] != b.ranks[$0] }),
               a.ranks[depth] == Self.partialRank || b.ranks[depth] == Self.partialRank {
                result.orderedByPartial = true
            }
        }
        result.candidates += ranked.map(\.candidate)
        result.methodSets += ranked.map(\.methods)
        result.shapes += ranked.map { OrderShape(table: table, priority: $0.priority, hostRank: $0.hostRank, ranks: $0.ranks) }
    }

    private static func isPartial(_ segment: Segment) -> Bool {
        if case .partial = segment { return true }
        return false
    }

    /// §3.1 and §3.6: priority, host, path specificity from the left, registration, expansion.
    private static func precedes(_ a: Ranked, _ b: Ranked) -> Bool {
        if a.priority != b.priority { return a.priority > b.priority }
        if a.hostRank != b.hostRank { return a.hostRank > b.hostRank }
        if a.ranks != b.ranks { return b.ranks.lexicographicallyPrecedes(a.ranks) }
        if a.order != b.order { return a.order < b.order }
        return a.variant < b.variant
    }

    /// The rank of a partial segment in ``ranks(_:)``.
    private static let partialRank = 4

    /// Literal 5 > partial segment 4 > constraint 3 > placeholder 2 (README, matching rules), then
    /// the way the route ends: at the URL's end (1) beats a wildcard (0), so an exact end outranks
    /// a wildcard that matched zero segments. Two partial segments rank alike, whatever their text.
    private func ranks(_ variant: [Segment]) -> [Int] {
        var result: [Int] = []
        for segment in variant {
            switch segment {
            case .literal: result.append(5)
            case .partial: result.append(Self.partialRank)
            case .constrained: result.append(3)
            case .parameter: result.append(2)
            case .wildcard: result.append(0); return result
            }
        }
        result.append(1)
        return result
    }

    private func hostAccepts(_ rule: Host, _ host: String) -> Bool {
        switch rule {
        case .any: return true
        case .exact(let name): return host == name
        case .suffix(let suffix): return host.count > suffix.count && host.hasSuffix(suffix)
        }
    }

    /// The parameters of `variant` for `url`, or `nil` when it does not match. Sets `greedyChoice`
    /// when a partial segment could split its URL segment in more than one way.
    private func match(_ variant: [Segment], _ url: ParsedURL, greedyChoice: inout Bool) -> [Pair]? {
        var pairs: [Pair] = []
        var position = 0
        for segment in variant {
            if case .wildcard(let name) = segment {
                let rest = url.segments[position...].map { String(decoding: $0, as: UTF8.self) }
                pairs.append(Pair(name: name, value: rest.joined(separator: "/")))
                return pairs
            }
            guard position < url.segments.count else { return nil }
            let value = url.segments[position]
            // A custom scheme's host segment compares its literal text case-insensitively.
            let folded = options.caseInsensitivePaths || (position == 0 && url.hostIsSegment)
            switch segment {
            case .literal(let literal):
                guard folded ? equalFoldingASCII(literal, value) : literal == value else { return nil }
            case .parameter(let name):
                pairs.append(Pair(name: name, value: String(decoding: value, as: UTF8.self)))
            case .constrained(let name, let source):
                guard Self.accepts(source, value) else { return nil }
                pairs.append(Pair(name: name, value: String(decoding: value, as: UTF8.self)))
            case .partial(let pieces):
                guard let split = Self.bestSplit(pieces, value, folded: folded) else { return nil }
                if Self.allSplits(pieces[...], value[...], folded: folded).count > 1 { greedyChoice = true }
                pairs += split
            case .wildcard:
                break
            }
            position += 1
        }
        return position == url.segments.count ? pairs : nil
    }

    // MARK: partial segments (README), by hand

    /// The (name, value) pairs of the placeholders of a partial segment matching `segment`, or
    /// `nil`. Of every way to split the segment, the README's "greedy from the left" picks the one
    /// whose first placeholder is longest, then the second, and so on: the greatest list of value
    /// lengths in lexicographic order (`{name}.{ext}` on `archive.tar.gz` gives `archive.tar`, `gz`).
    static func bestSplit(_ pieces: [PartialPiece], _ segment: [UInt8], folded: Bool) -> [Pair]? {
        let splits = allSplits(pieces[...], segment[...], folded: folded)
        guard let best = splits.max(by: { $0.map(\.count).lexicographicallyPrecedes($1.map(\.count)) }) else {
            return nil
        }
        let names = pieces.compactMap { piece -> String? in
            if case .placeholder(let name, _) = piece { return name }
            return nil
        }
        return zip(names, best).map { Pair(name: $0, value: String(decoding: $1, as: UTF8.self)) }
    }

    /// Every way `pieces` spell exactly `segment`, each as the list of placeholder values: text
    /// must appear as written (ASCII case folded when `folded`), a placeholder takes one or more
    /// bytes that its constraint, if any, accepts as a whole. Tries every split point.
    static func allSplits(_ pieces: ArraySlice<PartialPiece>, _ segment: ArraySlice<UInt8>,
                          folded: Bool) -> [[ArraySlice<UInt8>]] {
        guard let first = pieces.first else { return segment.isEmpty ? [[]] : [] }
        let rest = pieces.dropFirst()
        switch first {
        case .text(let text):
            let head = segment.prefix(text.count)
            let same = folded ? head.map(foldASCII) == text.map(foldASCII) : Array(head) == text
            guard head.count == text.count, same else { return [] }
            return allSplits(rest, segment.dropFirst(text.count), folded: folded)
        case .placeholder(_, let source):
            var splits: [[ArraySlice<UInt8>]] = []
            for length in stride(from: 1, through: segment.count, by: 1) {
                let value = segment.prefix(length)
                if let source, !accepts(source, Array(value)) { continue }
                for tail in allSplits(rest, segment.dropFirst(length), folded: folded) {
                    splits.append([value] + tail)
                }
            }
            return splits
        }
    }

    // MARK: constraints (§3.6), by hand

    static let builtins: Set<String> = ["int", "uint", "float", "uuid", "alpha", "alnum", "hex"]

    /// The regex sources the generator writes, each as a predicate on the whole decoded segment.
    static let regexAcceptors: [String: @Sendable ([UInt8]) -> Bool] = [
        "[a-c]+": { !$0.isEmpty && $0.allSatisfy { $0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "c") } },
        "[0-9]{2}": { $0.count == 2 && $0.allSatisfy(isDigit) },
        "a|bc": { $0 == Array("a".utf8) || $0 == Array("bc".utf8) },
        "[A-Z][a-z]*": { bytes in
            guard let first = bytes.first, first >= UInt8(ascii: "A"), first <= UInt8(ascii: "Z") else { return false }
            return bytes.dropFirst().allSatisfy { $0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z") }
        },
    ]

    static func accepts(_ source: String, _ value: [UInt8]) -> Bool {
        let digits = { (bytes: ArraySlice<UInt8>) in !bytes.isEmpty && bytes.allSatisfy(isDigit) }
        let text = String(decoding: value, as: UTF8.self)
        switch source {
        case "int":
            let body = value.first == UInt8(ascii: "-") ? value.dropFirst() : value[...]
            return digits(body) && Int64(text) != nil
        case "uint":
            return digits(value[...]) && UInt64(text) != nil
        case "float":
            var body = value.first == UInt8(ascii: "-") ? value.dropFirst() : value[...]
            if let dot = body.firstIndex(of: UInt8(ascii: ".")) {
                guard digits(body[(dot + 1)...]) else { return false }
                body = body[..<dot]
            }
            return digits(body)
        case "uuid":
            guard value.count == 36 else { return false }
            for (i, b) in value.enumerated() {
                if [8, 13, 18, 23].contains(i) {
                    guard b == UInt8(ascii: "-") else { return false }
                } else {
                    guard hexValue(b) != nil else { return false }
                }
            }
            return true
        case "alpha": return !value.isEmpty && value.allSatisfy(isAlpha)
        case "alnum": return !value.isEmpty && value.allSatisfy { isAlpha($0) || isDigit($0) }
        case "hex": return !value.isEmpty && value.allSatisfy { hexValue($0) != nil }
        default: return regexAcceptors[source]?(value) ?? false
        }
    }

    // MARK: bytes

    static func isAlpha(_ b: UInt8) -> Bool {
        (b >= UInt8(ascii: "a") && b <= UInt8(ascii: "z")) || (b >= UInt8(ascii: "A") && b <= UInt8(ascii: "Z"))
    }

    static func isDigit(_ b: UInt8) -> Bool { b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") }

    static func hexValue(_ b: UInt8) -> UInt8? {
        switch b {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return b - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return b - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return b - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    private func equalFoldingASCII(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        a.count == b.count && zip(a, b).allSatisfy { Self.foldASCII($0) == Self.foldASCII($1) }
    }

    static func foldASCII(_ b: UInt8) -> UInt8 {
        b >= UInt8(ascii: "A") && b <= UInt8(ascii: "Z") ? b + 32 : b
    }

    private func lowerASCII(_ s: String) -> String {
        String(decoding: s.utf8.map(Self.foldASCII), as: UTF8.self)
    }
}
