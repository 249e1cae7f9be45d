@testable import FastRouter
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Random route sets and URLs, each lookup compared with ``ReferenceMatcher``: the whole candidate
/// list in decline order, with ids and parameters, plus add/remove outcomes and counts. Routes
/// accept random method sets, and each URL is also requested with random methods: status, route,
/// parameters, decline order and `Allow` value (DifferentialScenario+Methods.swift).
@Suite struct DifferentialTests {
    /// True in the sanitizer runs of the suite (the Makefile's test-asan and test-tsan set
    /// `FASTROUTER_SANITIZED`): they take the first half of the batches, the same seeds as a plain
    /// run's, whose coverage checks hold batch by batch; the plain run and the fuzzers cover the rest.
    static let sanitized = getenv("FASTROUTER_SANITIZED") != nil

    /// 8 batches of 125 seeds: 1000 small route sets with a tiny literal vocabulary (many overlaps).
    static let seedBatches: [ClosedRange<UInt64>] = (0..<(sanitized ? 4 : 8)).map { batch in
        let first = UInt64(batch) * 125 + 1
        return first...(first + 124)
    }

    /// 4 batches of 20 seeds: 80 wide route sets (60 to 160 routes, deeper paths, many literal siblings).
    static let wideSeedBatches: [ClosedRange<UInt64>] = (0..<(sanitized ? 2 : 4)).map { batch in
        let first = 10_000 + UInt64(batch) * 20
        return first...(first + 19)
    }

    @Test(arguments: seedBatches)
    func routerAgreesWithReferenceMatcher(seeds: ClosedRange<UInt64>) {
        Self.compare(seeds: seeds, wide: false)
    }

    @Test(arguments: wideSeedBatches)
    func routerAgreesWithReferenceMatcherOnWideTables(seeds: ClosedRange<UInt64>) {
        Self.compare(seeds: seeds, wide: true)
    }

    static func compare(seeds: ClosedRange<UInt64>, wide: Bool) {
        var failures = 0
        var lookups = 0
        var skipped = 0
        var partial = 0
        var orderedByPartial = 0
        var greedyChoice = 0
        var prefixed = 0
        var methods = DifferentialScenario.Outcome()
        for seed in seeds where failures < 4 {
            var scenario = DifferentialScenario(seed: seed, wide: wide)
            let outcome = scenario.run()
            lookups += outcome.lookups
            skipped += outcome.ambiguous
            partial += outcome.partial
            orderedByPartial += outcome.orderedByPartial
            greedyChoice += outcome.greedyChoice
            methods.requests += outcome.requests
            methods.requestsMatched += outcome.requestsMatched
            methods.requestsNotFound += outcome.requestsNotFound
            methods.requestsNotAllowed += outcome.requestsNotAllowed
            methods.headServedByGet += outcome.headServedByGet
            methods.headPreferred += outcome.headPreferred
            methods.allowWithExtensions += outcome.allowWithExtensions
            prefixed += outcome.prefixed
            if let report = outcome.failure {
                failures += 1
                Issue.record(Comment(rawValue: report))
            }
        }
        #expect(lookups > 0)
        // Ambiguous lookups (see ReferenceMatcher.Lookup) must stay rare, or the suite checks little.
        #expect(skipped * 20 < lookups, "ambiguous lookups: \(skipped) of \(lookups)")
        // Partial segments must be matched, ranked against other candidates and split by the greedy
        // rule often enough (about 10%, 1.5% and 1% of lookups with the current generator).
        #expect(partial * 20 > lookups, "lookups with a partial-segment candidate: \(partial) of \(lookups)")
        #expect(orderedByPartial * 200 > lookups, "lookups ordered at a partial segment: \(orderedByPartial) of \(lookups)")
        #expect(greedyChoice * 200 > lookups, "lookups with a greedy partial split: \(greedyChoice) of \(lookups)")
        // Small tables whose routes share a prefix start their walks after it (about 1-4% of
        // lookups; TableRoots.commonPrefix). Wide tables never share one.
        if !wide {
            #expect(prefixed * 500 > lookups, "lookups in a table with a common prefix: \(prefixed) of \(lookups)")
        }
        // Requests with a method must reach every outcome of §3.7, HEAD served by GET routes and
        // extension names in Allow values, or the method comparison checks little.
        let requests = methods.requests
        #expect(methods.requestsMatched * 5 > requests, "matched requests: \(methods.requestsMatched) of \(requests)")
        #expect(methods.requestsNotFound * 20 > requests, "requests without a route: \(methods.requestsNotFound) of \(requests)")
        #expect(methods.requestsNotAllowed * 20 > requests, "405 requests: \(methods.requestsNotAllowed) of \(requests)")
        #expect(methods.headServedByGet * 100 > requests, "HEAD served by GET: \(methods.headServedByGet) of \(requests)")
        #expect(methods.headPreferred > 0, "HEAD requests ordered by the route naming HEAD: \(methods.headPreferred) of \(requests)")
        #expect(methods.allowWithExtensions * 100 > requests, "405s listing extension methods: \(methods.allowWithExtensions) of \(requests)")
    }

    /// 2 batches of 100 seeds: route sets whose global table has no dynamic route (literal
    /// segments only, no wildcard), so that its lookups take the static path map
    /// (docs/ARCHITECTURE.md, "Static paths"), with hosts, priorities, methods and removals.
    static let staticSeedBatches: [ClosedRange<UInt64>] = (0..<2).map { batch in
        let first = 20_000 + UInt64(batch) * 100
        return first...(first + 99)
    }

    @Test(arguments: staticSeedBatches)
    func routerAgreesWithReferenceMatcherOnStaticTables(seeds: ClosedRange<UInt64>) {
        var failures = 0
        var matched = 0
        var lookups = 0
        for seed in seeds where failures < 4 {
            var scenario = DifferentialScenario(seed: seed, wide: seed % 2 == 0, staticOnly: true)
            let outcome = scenario.run()
            lookups += outcome.lookups
            matched += outcome.requestsMatched
            if let report = outcome.failure {
                failures += 1
                Issue.record(Comment(rawValue: report))
            }
        }
        #expect(lookups > 0)
        #expect(matched > 0, "static tables matched no request")
    }

    @Test func generatorIsDeterministic() {
        var a = DifferentialScenario(seed: 42)
        var b = DifferentialScenario(seed: 42)
        #expect(a.generateRoutes().map(\.pattern) == b.generateRoutes().map(\.pattern))
    }
}

/// One seed: options, a route set, a few removals, then URLs, against router and reference alike.
struct DifferentialScenario {
    struct GenRoute {
        var pattern: String
        var priority: Int32
        var id: UInt64
        var table: Table
        var variants: [[Piece]]
        /// The methods the route accepts; empty for any method.
        var methods: [String] = []
    }

    enum Table {
        case global
        case custom(String)
        case web(scheme: String, host: String)
    }

    /// A pattern segment as the generator knows it, with its decoded literal text.
    enum Piece {
        case literal(String)
        case parameter
        case constrained(String)
        case partial([PartialPart])
        case wildcard
    }

    /// One piece of a partial segment: decoded text, or a placeholder with its constraint source.
    enum PartialPart {
        case text(String)
        case placeholder(String?)
    }

    /// A partial segment's shape (no names yet) and the ways a pattern may write its text pieces.
    struct PartialTemplate {
        var parts: [PartialPart]
        /// For each text part, in order, its spellings.
        var forms: [[String]]
    }

    indirect enum Item {
        case piece(Piece, String)
        case group([Item])
    }

    /// Decoded literal text and the ways a pattern may write it.
    static let literals: [(text: String, forms: [String])] = [
        ("a", ["a"]), ("ab", ["ab", "a%62"]), ("abc", ["abc"]), ("A", ["A"]), ("Ab", ["Ab"]),
        ("users", ["users"]), ("user", ["user"]), ("Users", ["Users"]), ("v1", ["v1"]), ("42", ["42"]),
        ("12", ["12"]), ("café", ["café", "caf%C3%A9", "caf%c3%a9"]), ("a b", ["a%20b"]), ("x/y", ["x%2Fy"]),
        ("cab", ["cab"]), ("FF", ["FF"]), ("a:b", ["a:b"]), ("bc", ["bc"]),
    ]
    static let customHosts = ["users", "items", "Media"]
    static let webHosts = ["example.com", "api.example.com", "Example.org"]
    static let values = [
        "42", "-7", "0", "007", "9223372036854775807", "9223372036854775808", "-9223372036854775808",
        "18446744073709551616", "abc", "cab", "ABC", "Ab", "a b", "x/y", "é", "café", "12", "3.5", "-0.25", "1.",
        "ff", "users", "a", "b", "bc", "v1", "e621e1f8-C36C-495a-93fc-0c247a3e6e5f", "a:b", "x+y", "A", "Items",
    ]
    static let constraints = ["int", "uint", "float", "uuid", "alpha", "alnum", "hex",
                              "[a-c]+", "[0-9]{2}", "a|bc", "[A-Z][a-z]*"]
    static let queryItems = ["k=v", "k=w", "flag", "=v", "", "a+b=c+d", "q=%2B", "p0=fromquery",
                             "rest=fromquery", "name=caf%C3%A9", "%6B=1", "e=", "x=1%262"]
    static let badPieces = ["%G1", "%4", "%00", "%C3%28", "%ED%A0%80", "%C0%AF", "%"]
    /// Text of partial segments: letters and separators that also occur in the literals and
    /// values above (`a:b`, `v1`, `3.5`, `-7`, `ab`, `users`), so partial segments, literals and
    /// placeholders compete for the same URL segments. Each with the ways a pattern may write it.
    static let partialTexts: [(text: String, forms: [String])] = [
        ("a", ["a", "%61"]), ("b", ["b"]), ("c", ["c"]), ("v", ["v"]), ("V", ["V"]), ("us", ["us"]),
        ("ab", ["ab"]), ("1", ["1"]), (".", [".", "%2E"]), ("-", ["-"]), ("@", ["@", "%40"]), (":", [":"]),
        ("_", ["_"]), ("é", ["é", "%C3%A9"]), ("/", ["%2F"]), (" ", ["%20"]),
    ]
    /// Extra placeholder values for partial segments: with separators inside, so that the
    /// greedy split has choices (`tar.gz`, `1.2`, `a-b`).
    static let partialValues = [
        "1", "2", "42", "-7", "a", "b", "c", "ab", "abc", "tar.gz", "a.b", "1.2", "1.5.2", "a-b", "v2", "x@y",
        "é", "A", "Bc", "ff", "a:b", "a b", "x/y", ".", "-", "@", "a.", "ee", "0", "3.5",
    ]

    let seed: UInt64
    let wide: Bool
    /// No dynamic segment and no wildcard in any route (see ``DifferentialTests/staticSeedBatches``).
    let staticOnly: Bool
    var rng: SplitMix64
    let options: RouterOptions
    var vocabulary: [(text: String, forms: [String])] = []
    /// The partial segments of this seed: few, so routes share them and tie at the same depth.
    var partialVocabulary: [PartialTemplate] = []
    var nameCounter = 0
    /// This seed's method names (see ``randomMethodVocabulary()``).
    var methodVocabulary: [String] = []
    /// Whether routes take many new method names, past the router's 64 (about 1 seed in 25).
    var manyMethodNames = false
    var freshMethodNames = 0

    init(seed: UInt64, wide: Bool = false, staticOnly: Bool = false) {
        self.seed = seed
        self.wide = wide
        self.staticOnly = staticOnly
        rng = SplitMix64(seed: seed &* 0x2545_F491_4F6C_DD1D)
        var options = RouterOptions()
        options.caseInsensitivePaths = rng.chance(0.25)
        options.globalFallback = rng.chance(0.8)
        options.plusAsSpace = rng.chance(0.8)
        options.headFallback = rng.chance(0.8)
        self.options = options
        methodVocabulary = randomMethodVocabulary()
        manyMethodNames = rng.chance(0.04)
        var pool = Self.literals
        if wide {
            // Short words over a small alphabet: long shared prefixes, case twins, raw and encoded forms.
            var seen = Set<String>()
            while vocabulary.count < 12 + rng.below(10) {
                var word = ""
                for _ in 0..<(1 + rng.below(4)) { word += rng.pick(["a", "b", "c", "A", "B", "é", "-", "1"]) }
                guard word != "-", seen.insert(word).inserted else { continue }
                var forms = [word]
                if let first = word.unicodeScalars.first {
                    let escaped = String(first).utf8.map { "%" + String($0, radix: 16, uppercase: true) }.joined()
                    forms.append(escaped + String(word.unicodeScalars.dropFirst()))
                }
                vocabulary.append((word, forms))
            }
            for _ in 0..<4 { vocabulary.append(pool.remove(at: rng.below(pool.count))) }
        } else {
            for _ in 0..<(3 + rng.below(3)) { vocabulary.append(pool.remove(at: rng.below(pool.count))) }
        }
        for _ in 0..<(2 + rng.below(wide ? 5 : 3)) { partialVocabulary.append(randomPartialTemplate()) }
        // Literals that a partial segment of this seed also matches, so the two compete at one depth.
        for template in partialVocabulary.prefix(2) where rng.chance(0.6) {
            let word = partialSegment(template.parts)
            vocabulary.append((word, [Self.patternLiteral(word)]))
        }
    }

    /// How a pattern writes `text` as a literal: raw UTF-8, letters, digits and `-._~!$&'+,;=:@`
    /// as they are, anything else percent-encoded, and a leading `:` too (it would start a parameter).
    static func patternLiteral(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            let raw = !scalar.isASCII || ReferenceMatcher.isAlpha(UInt8(scalar.value))
                || ReferenceMatcher.isDigit(UInt8(scalar.value)) || "-._~!$&'+,;=:@".unicodeScalars.contains(scalar)
            if raw && !(out.isEmpty && scalar == ":") {
                out.unicodeScalars.append(scalar)
            } else {
                for byte in String(scalar).utf8 { out += "%" + String(byte / 16, radix: 16) + String(byte % 16, radix: 16) }
            }
        }
        return out
    }

    /// A partial segment shape: one to three placeholders, plain or constrained, text between
    /// them and at random before and after (at least one piece of text).
    private mutating func randomPartialTemplate() -> PartialTemplate {
        let count = rng.chance(0.4) ? 1 : (rng.chance(0.75) ? 2 : 3)
        let prefix = rng.chance(0.5)
        let suffix = rng.chance(0.5) || (count == 1 && !prefix)
        var parts: [PartialPart] = []
        var forms: [[String]] = []
        func addText(_ rng: inout SplitMix64, first: Bool) {
            var text = ""
            var spelled: [String] = []
            for _ in 0..<(rng.chance(0.7) ? 1 : 2) {
                var piece = rng.pick(Self.partialTexts)
                // A segment written as ":…" would be a colon parameter, not text.
                while first && text.isEmpty && piece.text == ":" { piece = rng.pick(Self.partialTexts) }
                text += piece.text
                spelled = spelled.isEmpty ? piece.forms : spelled.flatMap { head in piece.forms.map { head + $0 } }
            }
            parts.append(.text(text))
            forms.append(spelled)
        }
        if prefix { addText(&rng, first: true) }
        for index in 0..<count {
            if index > 0 { addText(&rng, first: false) }
            parts.append(.placeholder(rng.chance(0.55) ? nil : rng.pick(Self.constraints)))
        }
        if suffix { addText(&rng, first: false) }
        return PartialTemplate(parts: parts, forms: forms)
    }

    struct Outcome {
        var lookups = 0
        var ambiguous = 0
        /// Lookups with a candidate that matched through a partial segment, with two candidates
        /// told apart at a partial segment, and with a partial segment the greedy rule had to split.
        var partial = 0
        var orderedByPartial = 0
        var greedyChoice = 0
        /// Requests with a method, by expected outcome, and coverage of the rules of §3.7.
        var requests = 0
        var requestsMatched = 0
        var requestsNotFound = 0
        var requestsNotAllowed = 0
        var headServedByGet = 0
        /// HEAD requests where a route naming HEAD came before an earlier route of its shape.
        var headPreferred = 0
        var allowWithExtensions = 0
        /// Lookups in a global table whose routes share a prefix (``TableRoots/prefixLength``).
        var prefixed = 0
        var failure: String?
    }

    // MARK: routes

    mutating func generateRoutes() -> [GenRoute] {
        var routes: [GenRoute] = []
        for index in 0..<(wide ? 60 + rng.below(100) : 4 + rng.below(24)) {
            if let earlier = routes.isEmpty ? nil : rng.pick(routes), rng.chance(0.15) {
                // An earlier pattern again with other methods: a second route when the method
                // sets are disjoint, a duplicate when they overlap.
                var route = earlier
                route.id = randomID(index: index)
                route.methods = randomMethods()
                routes.append(route)
            } else {
                routes.append(generateRoute(index: index))
            }
        }
        return routes
    }

    private mutating func randomID(index: Int) -> UInt64 {
        rng.chance(0.12) ? UInt64(1 + rng.below(3)) : UInt64(100 + index)
    }

    mutating func generateRoute(index: Int) -> GenRoute {
        nameCounter = 0
        let roll = rng.below(100)
        let table: Table
        switch roll {
        case ..<55: table = .global
        case ..<75: table = .custom(rng.chance(0.8) ? "myapp" : "other")
        case ..<93: table = .web(scheme: "https", host: randomRouteHost())
        default: table = .web(scheme: "http", host: randomRouteHost())
        }
        var items: [Item] = []
        if case .custom = table {
            if rng.chance(0.85) {
                let host = rng.pick(Self.customHosts)
                items.append(.piece(.literal(host), host))
            } else if !staticOnly {
                items.append(.piece(.parameter, ":h"))
            }
        }
        for _ in 0..<rng.below(wide ? 7 : 4) { items.append(randomPiece()) }
        // Groups wrap plain segments, a custom host included; a path may start with a group, right
        // after "scheme://" or a web host.
        var groups = rng.chance(0.2) ? 1 + rng.below(2) : 0
        while groups > 0 {
            groups -= 1
            guard !items.isEmpty else { break }
            let start = rng.below(items.count)
            let end = start + 1 + rng.below(min(2, items.count - start))
            let inner = Array(items[start..<end])
            items.replaceSubrange(start..<end, with: [.group(inner)])
        }
        if !staticOnly && rng.chance(0.2) {
            let named = rng.chance(0.5)
            items.append(.piece(.wildcard, named ? "*rest" : "*"))
        }
        var path = render(items)
        if case .piece(let last, _)? = items.last, !isWildcard(last), rng.chance(0.1) { path += "/" }
        let pattern: String
        switch table {
        case .global:
            pattern = path.isEmpty ? (rng.chance(0.5) ? "/" : "") : path
        case .custom(let scheme):
            // The host is the first segment, or the first in a group opening the path.
            pattern = scheme + "://" + (path.hasPrefix("(") ? path[...] : path.dropFirst())
        case .web(let scheme, let host):
            pattern = scheme + "://" + host + path
        }
        let priority: Int32 = rng.chance(0.12) ? (rng.chance(0.5) ? 1 : -1) : 0
        let id = randomID(index: index)
        return GenRoute(pattern: pattern, priority: priority, id: id, table: table, variants: expand(items),
                        methods: randomMethods())
    }

    private func isWildcard(_ piece: Piece) -> Bool {
        if case .wildcard = piece { return true }
        return false
    }

    private mutating func randomRouteHost() -> String {
        switch rng.below(6) {
        case 0, 1: return rng.pick(Self.webHosts)
        case 2: return "*.example.com"
        case 3: return "*.Example.org"
        case 4: return "*"
        default: return ""
        }
    }

    private mutating func randomPiece() -> Item {
        nameCounter += 1
        let name = "p\(nameCounter)"
        if staticOnly {
            let literal = rng.pick(vocabulary)
            return .piece(.literal(literal.text), rng.pick(literal.forms))
        }
        switch rng.below(100) {
        case ..<40:
            let literal = rng.pick(vocabulary)
            return .piece(.literal(literal.text), rng.pick(literal.forms))
        case ..<54:
            return .piece(.parameter, rng.chance(0.7) ? ":\(name)" : "{\(name)}")
        case ..<75:
            let constraint = rng.pick(Self.constraints)
            return .piece(.constrained(constraint), "{\(name):\(constraint)}")
        default:
            return randomPartial()
        }
    }

    /// A partial segment of this seed's vocabulary, with fresh placeholder names and one of the
    /// spellings of each text piece.
    private mutating func randomPartial() -> Item {
        let template = rng.pick(partialVocabulary)
        var written = ""
        var textIndex = 0
        var named = false
        for part in template.parts {
            switch part {
            case .text:
                written += rng.pick(template.forms[textIndex])
                textIndex += 1
            case .placeholder(let constraint):
                // The first takes the name `randomPiece` counted; later ones count on, so names stay unique.
                if named { nameCounter += 1 }
                named = true
                written += "{p\(nameCounter)" + (constraint.map { ":" + $0 } ?? "") + "}"
            }
        }
        return .piece(.partial(template.parts), written)
    }

    private func render(_ items: [Item]) -> String {
        items.map { item -> String in
            switch item {
            case .piece(_, let text): return "/" + text
            case .group(let inner): return "(" + render(inner) + ")"
            }
        }.joined()
    }

    private func expand(_ items: [Item]) -> [[Piece]] {
        var results: [[Piece]] = [[]]
        for item in items {
            let options: [[Piece]]
            switch item {
            case .piece(let piece, _): options = [[piece]]
            case .group(let inner): options = expand(inner) + [[]]
            }
            results = results.flatMap { prefix in options.map { prefix + $0 } }
        }
        return results
    }

    // MARK: URLs

    mutating func generateURL(routes: [GenRoute]) -> String {
        var segments: [String] = []
        var table = Table.global
        if let route = routes.isEmpty ? nil : rng.pick(routes), rng.chance(0.85) {
            table = route.table
            for piece in rng.pick(route.variants) {
                switch piece {
                case .literal(let text):
                    segments.append(rng.chance(0.25) ? flipCase(text) : text)
                case .parameter:
                    segments.append(rng.pick(Self.values))
                case .constrained(let source):
                    let fitting = Self.values.filter { ReferenceMatcher.accepts(source, Array($0.utf8)) }
                    segments.append(!fitting.isEmpty && rng.chance(0.75) ? rng.pick(fitting) : rng.pick(Self.values))
                case .partial(let parts):
                    segments.append(rng.chance(0.85) ? partialSegment(parts) : randomSegment())
                case .wildcard:
                    for _ in 0..<rng.below(4) { segments.append(randomSegment()) }
                }
            }
        } else {
            for _ in 0..<rng.below(5) { segments.append(randomSegment()) }
            switch rng.below(10) {
            case 0, 1: table = .custom(rng.chance(0.7) ? "myapp" : "other")
            case 2, 3: table = .web(scheme: "https", host: "*")
            default: table = .global
            }
        }
        if case .global = table {
            switch rng.below(10) {
            case 0, 1: table = .custom("myapp")
            case 2, 3: table = .web(scheme: rng.chance(0.8) ? "https" : "http", host: "*")
            default: break
            }
        }

        var url: String
        var path = segments
        switch table {
        case .global:
            url = ""
        case .custom(let scheme):
            guard let host = path.first, host.utf8.allSatisfy(Self.isPlainHostByte) else {
                url = ""
                break
            }
            url = casedScheme(scheme) + "://" + (rng.chance(0.25) ? flipCase(host) : host)
            path.removeFirst()
        case .web(let scheme, let host):
            url = casedScheme(scheme) + "://"
            if rng.chance(0.1) { url += "user:pw@" }
            url += urlHost(for: host)
            if rng.chance(0.15) { url += ":8443" }
        }
        for segment in path {
            url += rng.chance(0.1) ? "//" : "/"
            url += encode(segment, inQuery: false)
        }
        if path.isEmpty || rng.chance(0.15) {
            if url.isEmpty || rng.chance(0.5) { url += "/" }
        }
        if rng.chance(0.03) {
            url += "/x" + rng.pick(Self.badPieces)
        }
        if rng.chance(0.35) {
            var items: [String] = []
            for _ in 0..<(1 + rng.below(4)) { items.append(rng.pick(Self.queryItems)) }
            if rng.chance(0.3) { items.append("v=" + encode(rng.pick(Self.values), inQuery: true)) }
            if rng.chance(0.02) { items.append("bad=" + rng.pick(Self.badPieces)) }
            url += "?" + items.joined(separator: "&")
        }
        if rng.chance(0.1) { url += rng.pick(["#frag", "#a%ZZ", "#x?y=1", "#%00"]) }
        return url
    }

    static func isPlainHostByte(_ b: UInt8) -> Bool {
        ReferenceMatcher.isAlpha(b) || ReferenceMatcher.isDigit(b) || b == UInt8(ascii: "-") || b == UInt8(ascii: ".")
    }

    private mutating func randomSegment() -> String {
        switch rng.below(10) {
        case ..<4: return rng.pick(vocabulary).text
        case ..<8: return rng.pick(Self.values)
        default: return partialSegment(rng.pick(partialVocabulary).parts)
        }
    }

    /// A URL segment meant for a partial segment: its text (case flipped now and then) around
    /// values that mostly fit each placeholder's constraint. Sometimes a value holds the text that
    /// follows its placeholder, so the segment splits more than one way; sometimes it does not
    /// fit, or is empty, to probe the boundaries.
    private mutating func partialSegment(_ parts: [PartialPart]) -> String {
        var segment = ""
        for (index, part) in parts.enumerated() {
            switch part {
            case .text(let text):
                segment += rng.chance(0.15) ? flipCase(text) : text
            case .placeholder(let source):
                let pool = Self.values + Self.partialValues
                let fitting = source.map { source in pool.filter { ReferenceMatcher.accepts(source, Array($0.utf8)) } }
                    ?? pool
                let value = { (rng: inout SplitMix64) in fitting.isEmpty ? rng.pick(pool) : rng.pick(fitting) }
                switch rng.below(20) {
                case 0: break
                case 1, 2: segment += rng.pick(pool)
                case 3, 4, 5, 6:
                    segment += value(&rng)
                    if index + 1 < parts.count, case .text(let next) = parts[index + 1] { segment += next + value(&rng) }
                default: segment += value(&rng)
                }
            }
        }
        return segment
    }

    private mutating func casedScheme(_ scheme: String) -> String {
        rng.chance(0.2) ? scheme.uppercased() : scheme
    }

    private mutating func urlHost(for rule: String) -> String {
        let host: String
        if rule.hasPrefix("*.") {
            switch rng.below(5) {
            case 0, 1: host = "a" + rule.dropFirst()
            case 2: host = "x.y" + rule.dropFirst()
            case 3: host = String(rule.dropFirst(2))
            default: host = rng.pick(Self.webHosts)
            }
        } else if rule.isEmpty || rule == "*" || rng.chance(0.2) {
            host = rng.pick(Self.webHosts + ["a.b.example.com", "localhost", "notexample.com"])
        } else {
            host = rule
        }
        let cased = rng.chance(0.3) ? flipCase(host) : host
        // A host is validated like the path and matched decoded: escape one of its letters now
        // and then, or spoil it.
        if rng.chance(0.03) { return cased + rng.pick(Self.badPieces) }
        guard rng.chance(0.1), let letter = cased.utf8.firstIndex(where: { $0 != UInt8(ascii: ".") }) else { return cased }
        let byte = cased.utf8[letter]
        let escaped = "%" + String(byte >> 4, radix: 16, uppercase: rng.chance(0.5))
            + String(byte & 0xF, radix: 16, uppercase: rng.chance(0.5))
        return String(cased[..<letter]) + escaped + String(cased[cased.utf8.index(after: letter)...])
    }

    private mutating func flipCase(_ text: String) -> String {
        String(text.map { character -> Character in
            guard character.isASCII, character.isLetter, rng.chance(0.5) else { return character }
            return character.isUppercase ? Character(character.lowercased()) : Character(character.uppercased())
        })
    }

    /// Percent-encodes what must be encoded and, at random, some of what need not be.
    private mutating func encode(_ text: String, inQuery: Bool) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            let bytes = Array(String(scalar).utf8)
            let mustEncode: Bool
            switch scalar {
            case "/", "?", "#", "%": mustEncode = true
            case "&", "=", "+": mustEncode = inQuery
            case " ":
                if inQuery && options.plusAsSpace && rng.chance(0.5) { out += "+"; continue }
                mustEncode = inQuery || rng.chance(0.7)
            default: mustEncode = false
            }
            if mustEncode || rng.chance(scalar.isASCII ? 0.06 : 0.5) {
                for byte in bytes {
                    let hex = String(byte, radix: 16, uppercase: rng.chance(0.7))
                    out += "%" + (hex.count == 1 ? "0" + hex : hex)
                }
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    // MARK: run

    mutating func run() -> Outcome {
        var outcome = Outcome()
        let routes = generateRoutes()
        let router = Router<Int>(options: options)
        var reference = ReferenceMatcher(options: options)
        let matcher = Matcher(router: router)
        var log: [String] = []

        func fail(_ what: String) -> Outcome {
            var result = outcome
            result.failure = """
                differential mismatch, seed \(seed)\(wide ? " (wide)" : ""): \(what)
                options: caseInsensitivePaths=\(options.caseInsensitivePaths) globalFallback=\(options.globalFallback) plusAsSpace=\(options.plusAsSpace) headFallback=\(options.headFallback)
                operations:
                \(log.joined(separator: "\n"))
                """
            return result
        }

        var index = 0
        while index < routes.count {
            let batch = Array(routes[index..<min(routes.count, index + (rng.chance(0.2) ? 3 : 1))])
            index += batch.count
            let expected = reference.add(batch.map { ($0.pattern, $0.methods, $0.priority, $0.id) })
            let actual: Result<[UInt64], RouterError>
            let methods = { (route: GenRoute) in route.methods.map { HTTPMethod(rawValue: $0)! } }
            if batch.count == 1 && batch[0].methods.isEmpty && rng.chance(0.5) {
                actual = routerOutcome { () throws(RouterError) in
                    [try router.add(batch[0].pattern, priority: batch[0].priority, id: batch[0].id, value: index)]
                }
            } else if batch.count == 1 {
                actual = routerOutcome { () throws(RouterError) in
                    [try router.add(batch[0].pattern, methods: methods(batch[0]), priority: batch[0].priority,
                                    id: batch[0].id, value: index)]
                }
            } else {
                actual = routerOutcome { () throws(RouterError) in
                    try router.add(contentsOf: batch.map {
                        Route($0.pattern, methods: methods($0), priority: $0.priority, id: $0.id, value: index)
                    })
                }
            }
            let described = batch.map {
                ($0.methods.isEmpty ? "" : $0.methods.joined(separator: ",") + " ")
                    + "\($0.pattern.debugDescription) priority \($0.priority) id \($0.id)"
            }.joined(separator: ", ")
            log.append("  add [\(described)] -> \(expected)")
            switch (expected, actual) {
            case (.added, .success):
                break
            case (.duplicate, .failure(let error)) where error.code == .duplicateRoute:
                break
            case (.tooManyMethods, .failure(let error)) where error.code == .invalidArgument:
                break
            case (.unsupported(let pattern), _):
                return fail("the reference cannot read generated pattern \(pattern.debugDescription)")
            default:
                return fail("add [\(described)]: expected \(expected), router gave \(actual)")
            }
            // Removals between adds, so later inserts land in a table that has shrunk.
            if rng.chance(0.06) {
                let id = rng.pick(Array(routes[..<index])).id
                let expected = reference.remove(id: id)
                let actual = router.remove(id: id)
                log.append("  remove id \(id) -> \(expected)")
                if expected != actual { return fail("remove(id: \(id)) removed \(actual), expected \(expected)") }
                router.core.checkInvariants()
            }
            if rng.chance(0.05) {
                for _ in 0..<3 {
                    outcome.lookups += 1
                    let url = generateURL(routes: routes)
                    let methods = requestMethods()
                    if let problem = check(url, methods, router, reference, matcher, &outcome) {
                        return fail(problem)
                    }
                }
            }
        }
        if rng.chance(0.3) {
            for _ in 0..<(1 + rng.below(2)) {
                let id = rng.pick(routes).id
                let expected = reference.remove(id: id)
                let actual = router.remove(id: id)
                log.append("  remove id \(id) -> \(expected)")
                if expected != actual { return fail("remove(id: \(id)) removed \(actual), expected \(expected)") }
                router.core.checkInvariants()
            }
        }
        if reference.count != router.count {
            return fail("count \(router.count), expected \(reference.count)")
        }
        router.core.checkInvariants()
        let prefixed = router.core.tables.published.prefixLength != 0
        for _ in 0..<(wide ? 80 : 40) {
            outcome.lookups += 1
            if prefixed { outcome.prefixed += 1 }
            let url = generateURL(routes: routes)
            let methods = requestMethods()
            if let problem = check(url, methods, router, reference, matcher, &outcome) {
                return fail(problem)
            }
        }
        return outcome
    }

    /// One or two methods to request a URL with.
    private mutating func requestMethods() -> [String] {
        (0..<(1 + rng.below(2))).map { _ in randomRequestMethod() }
    }

    /// Compares one lookup without a method, then the requests with each of `methods`.
    private func check(_ url: String, _ methods: [String], _ router: Router<Int>, _ reference: ReferenceMatcher,
                       _ matcher: Matcher<Int>, _ outcome: inout Outcome) -> String? {
        if let problem = checkLookup(url, router, reference, matcher, &outcome) { return problem }
        for method in methods {
            if let problem = checkRequest(url, method: method, router, reference, matcher, &outcome) { return problem }
        }
        return nil
    }

    /// Compares one lookup through `matches`, then the decline order through `matcher`.
    private func checkLookup(_ url: String, _ router: Router<Int>, _ reference: ReferenceMatcher, _ matcher: Matcher<Int>,
                             _ outcome: inout Outcome) -> String? {
        let actual = routerOutcome { () throws(RouterError) in try router.matches(url) }
        guard let expected = reference.matches(url) else {
            if case .failure(let error) = actual, error.code == .invalidURL { return nil }
            return "URL \(url.debugDescription): expected invalidURL, router gave \(describe(actual))"
        }
        if expected.partialCandidates > 0 { outcome.partial += 1 }
        if expected.orderedByPartial { outcome.orderedByPartial += 1 }
        if expected.greedyChoice { outcome.greedyChoice += 1 }
        guard case .success(let found) = actual else {
            return "URL \(url.debugDescription): expected \(expected.candidates), router gave \(describe(actual))"
        }
        let got = found.map { match in
            ReferenceMatcher.Candidate(id: match.routeID, parameters: match.parameters.map {
                ReferenceMatcher.Pair(name: $0.name, value: $0.value)
            })
        }
        if expected.ambiguous {
            outcome.ambiguous += 1
            if Set(got) != Set(expected.candidates) || got.count != expected.candidates.count {
                return "URL \(url.debugDescription) (order not compared): expected \(expected.candidates), router gave \(got)"
            }
            return nil
        }
        if got != expected.candidates {
            return "URL \(url.debugDescription):\n  expected \(expected.candidates)\n  router   \(got)"
        }
        if let fragment = expected.fragment, !fragment.isEmpty, let first = found.first, first.fragment != fragment {
            return "URL \(url.debugDescription): fragment \(String(describing: first.fragment)), expected \(fragment)"
        }
        let best = routerOutcome { () throws(RouterError) in try router.match(url) }
        guard case .success(let single) = best, single?.routeID == found.first?.routeID,
              single.map({ Array($0.parameters.map(\.value)) }) == found.first.map({ Array($0.parameters.map(\.value)) }) else {
            return "URL \(url.debugDescription): match gave \(best), matches began with \(got.first.map(\.description) ?? "nothing")"
        }
        var ids: [UInt64] = []
        do {
            if try matcher.match(url) {
                repeat {
                    ids.append(matcher.routeID)
                    if ids.count == 1, let best = expected.candidates.first {
                        for pair in best.parameters {
                            let first = best.parameters.first { $0.name == pair.name }?.value
                            if matcher.parameter(pair.name) != first {
                                return "URL \(url.debugDescription): Matcher.parameter(\(pair.name)) is \(String(describing: matcher.parameter(pair.name))), expected \(String(describing: first))"
                            }
                        }
                    }
                } while matcher.next() && ids.count <= expected.candidates.count
            }
        } catch {
            return "URL \(url.debugDescription): Matcher threw \(error)"
        }
        if ids != expected.candidates.map(\.id) {
            return "URL \(url.debugDescription): Matcher decline order \(ids), expected \(expected.candidates.map(\.id))"
        }
        return nil
    }

    private func describe(_ result: Result<[Match<Int>], RouterError>) -> String {
        switch result {
        case .success(let matches):
            return matches.map { match in
                "#\(match.routeID)(" + match.parameters.map { "\($0.name)=\($0.value.debugDescription)" }.joined(separator: ", ") + ")"
            }.description
        case .failure(let error):
            return "error \(error)"
        }
    }
}

extension DifferentialScenario {
    /// A small deterministic PRNG (SplitMix64), so every seed replays the same routes and URLs.
    struct SplitMix64 {
        var state: UInt64

        init(seed: UInt64) { state = seed }

        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }

        /// A value in `0..<bound`.
        mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }

        mutating func chance(_ probability: Double) -> Bool {
            Double(next() >> 11) / Double(1 << 53) < probability
        }

        mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }
    }
}
