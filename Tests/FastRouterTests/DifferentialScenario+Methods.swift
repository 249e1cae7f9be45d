import FastRouter

/// HTTP methods in the differential scenario (docs/SEMANTICS.md §3.7): the method sets routes
/// get, the methods lookups ask with, and the comparison of one request with
/// ``ReferenceMatcher/request(_:method:)`` through every Swift entry point that takes a method.
extension DifferentialScenario {
    /// Names routes may accept. Besides standard and extension methods, each a trap for a
    /// shortcut: `get` (methods compare case-sensitively), `HEADER` (starts like HEAD),
    /// `PROPFIND` (exactly eight bytes), `PROPPATCH` and the `VERSION-CONTROL` pair (longer than
    /// eight bytes, the pair differing only in its last byte), `PATCH` (not RFC 9110's, so listed
    /// after its methods).
    static let methodPool = ["GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "CONNECT", "TRACE",
                             "PURGE", "PROPFIND", "PROPPATCH", "get", "HEADER", "M-SEARCH", "VERSION-CONTROL",
                             "VERSION-CONTROLS"]
    /// Names no generated route uses: only routes for any method accept them.
    static let unseenMethods = ["BREW", "HEA", "GETS", "VERSION-CONTROLX", "Head"]

    /// This seed's method names: GET always (HEAD falls back to it), HEAD in half the seeds (so
    /// that HEAD is served by its own routes in some and by GET's in others), and a few more.
    mutating func randomMethodVocabulary() -> [String] {
        var names = ["GET"]
        if rng.chance(0.5) { names.append("HEAD") }
        for _ in 0..<(1 + rng.below(5)) {
            let name = rng.pick(Self.methodPool)
            if !names.contains(name) { names.append(name) }
        }
        return names
    }

    /// A route's methods: none (any method) for about 40% of routes, else one to three names of
    /// the vocabulary, now and then repeated (the router keeps each once). With
    /// ``manyMethodNames``, two to eight names, most of them new, so the router's 64 names run out.
    mutating func randomMethods() -> [String] {
        if manyMethodNames {
            return (0..<(2 + rng.below(7))).map { _ in
                guard rng.chance(0.7) else { return rng.pick(methodVocabulary) }
                freshMethodNames += 1
                return "N\(freshMethodNames)"
            }
        }
        guard rng.chance(0.6) else { return [] }
        return (0..<(1 + rng.below(3))).map { _ in rng.pick(methodVocabulary) }
    }

    /// A method to look a URL up with: mostly GET, HEAD and the seed's own names, sometimes one
    /// the router never saw.
    mutating func randomRequestMethod() -> String {
        switch rng.below(20) {
        case ..<6: return "GET"
        case ..<11: return "HEAD"
        case ..<17: return rng.pick(methodVocabulary)
        default: return rng.pick(Self.unseenMethods + Self.methodPool)
        }
    }

    /// Compares one request (`name` on `url`) with the reference: `Router.match(_:method:)`'s
    /// status, route and parameters, or the `Allow` value of a 405 (as text, as a sequence and
    /// through `contains`); `Router.matches(_:method:)` and `Router.candidates(_:method:)`, the
    /// full decline order; and `Matcher.match(_:method:)` with its declines and
    /// `allowedMethods`. `nil` when they all agree.
    func checkRequest(_ url: String, method name: String, _ router: Router<Int>, _ reference: ReferenceMatcher,
                      _ matcher: Matcher<Int>, _ outcome: inout Outcome) -> String? {
        let method = HTTPMethod(rawValue: name)!
        let what = "\(name) \(url.debugDescription)"
        let result = routerOutcome { () throws(RouterError) in try router.match(url, method: method) }
        guard let expected = reference.request(url, method: name) else {
            if case .failure(let error) = result, error.code == .invalidURL { return nil }
            return "\(what): expected invalidURL, router gave \(result)"
        }
        outcome.requests += 1
        switch expected.status {
        case .matched: outcome.requestsMatched += 1
        case .notFound: outcome.requestsNotFound += 1
        case .methodNotAllowed: outcome.requestsNotAllowed += 1
        }
        if expected.servedByGet { outcome.headServedByGet += 1 }
        if expected.headPreferred { outcome.headPreferred += 1 }
        if expected.allow.contains(where: { !ReferenceMatcher.standardMethods.contains($0) }) {
            outcome.allowWithExtensions += 1
        }
        let allowText = expected.allow.joined(separator: ", ")
        let expectedText = expected.status == .methodNotAllowed ? "405 Allow: \(allowText)" : "\(expected.status) \(expected.candidates)"
        guard case .success(let answer) = result else { return "\(what): expected \(expectedText), router threw \(result)" }

        // The single answer.
        switch (expected.status, answer) {
        case (.matched, .matched(let match)):
            let got = Self.candidate(match)
            let right = expected.ambiguous ? expected.candidates.contains(got) : got == expected.candidates[0]
            if !right { return "\(what): match gave \(got), expected \(expectedText)" }
        case (.notFound, .notFound):
            break
        case (.methodNotAllowed, .methodNotAllowed(let allowed)):
            if allowed.headerValue != allowText || allowed.map(\.rawValue) != expected.allow {
                return "\(what): Allow \(allowed.headerValue.debugDescription) (\(allowed.map(\.rawValue))), expected \(allowText.debugDescription)"
            }
            for listed in expected.allow where !allowed.contains(HTTPMethod(rawValue: listed)!) {
                return "\(what): Allow \(allowText.debugDescription) but contains(\(listed)) is false"
            }
            // A 405 never allows what was asked; an unseen name is never allowed.
            for absent in [name, "BREW"] where allowed.contains(HTTPMethod(rawValue: absent)!) {
                return "\(what): Allow \(allowText.debugDescription) but contains(\(absent)) is true"
            }
        default:
            return "\(what): match gave \(answer), expected \(expectedText)"
        }

        // The whole chain, eagerly and lazily.
        let list = routerOutcome { () throws(RouterError) in try router.matches(url, method: method).map(Self.candidate) }
        guard case .success(let got) = list, Self.sameOrder(got, expected) else {
            return "\(what): matches gave \(list), expected \(expectedText)"
        }
        if case .matched(let match) = answer, Self.candidate(match) != got.first {
            return "\(what): match gave \(Self.candidate(match)) but matches began with \(got)"
        }
        let lazy = routerOutcome { () throws(RouterError) in try Array(router.candidates(url, method: method)).map(Self.candidate) }
        guard case .success(let lazyGot) = lazy, lazyGot == got else {
            return "\(what): candidates gave \(lazy), matches \(got)"
        }

        // The reusable matcher: its outcome, declines and allowed methods.
        return expected.matcherMismatch(what, expectedText, allow: allowText, matcher: matcher) { () throws(RouterError) in
            try matcher.match(url, method: method)
        }
    }

    static func candidate(_ match: Match<Int>) -> ReferenceMatcher.Candidate {
        ReferenceMatcher.Candidate(id: match.routeID, parameters: match.parameters.map {
            ReferenceMatcher.Pair(name: $0.name, value: $0.value)
        })
    }

    /// Whether `got` is the expected chain: in order, or as a multiset when the order is ambiguous.
    static func sameOrder(_ got: [ReferenceMatcher.Candidate], _ expected: ReferenceMatcher.Request) -> Bool {
        guard expected.ambiguous else { return got == expected.candidates }
        let key = { (candidate: ReferenceMatcher.Candidate) in candidate.description }
        return got.map(key).sorted() == expected.candidates.map(key).sorted()
    }
}
