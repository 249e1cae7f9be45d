import FastRouter

/// Lookups with an HTTP method (docs/SEMANTICS.md §3.7), written straight from the rules on top of
/// the method-less candidate list of ``ReferenceMatcher/matches(_:)``: a method filters that list;
/// a HEAD request (with the fallback on) also keeps the routes accepting GET and, among routes of
/// the same shape, puts those naming HEAD first; a URL whose candidates all refuse the method
/// answers 405 with the union of what they accept. Methods are plain strings compared byte for
/// byte, so `get` is not `GET`.
extension ReferenceMatcher {
    /// RFC 9110's methods in its order: how an `Allow` value starts.
    static let standardMethods = ["GET", "HEAD", "POST", "PUT", "DELETE", "CONNECT", "OPTIONS", "TRACE"]

    enum RequestStatus: Equatable { case matched, notFound, methodNotAllowed }

    /// The answer to one request.
    struct Request {
        var status: RequestStatus
        /// The candidates that serve the request, in decline order (empty unless `matched`).
        var candidates: [Candidate]
        /// The `Allow` value's methods, in order (empty unless `methodNotAllowed`).
        var allow: [String]
        /// As ``Lookup/ambiguous``: the order of `candidates` is compared as a set.
        var ambiguous: Bool
        /// Coverage: a HEAD request answered first by a route that names GET but not HEAD.
        var servedByGet = false
        /// Coverage: a HEAD request whose order put a route naming HEAD before a route of the
        /// same shape registered earlier.
        var headPreferred = false
    }

    /// The answer to `method` on `url`, or `nil` when the URL is invalid.
    func request(_ url: String, method: String) -> Request? {
        guard let lookup = matches(url) else { return nil }
        func accepts(_ index: Int, _ name: String) -> Bool { lookup.methodSets[index]?.contains(name) ?? true }
        let headFallback = method == "HEAD" && options.headFallback
        // "A HEAD lookup also takes the routes that accept GET."
        var kept = lookup.candidates.indices.filter { accepts($0, method) || (headFallback && accepts($0, "GET")) }
        var headPreferred = false
        if headFallback {
            // "Between two routes of the same shape, the one that names HEAD comes first": the
            // list is in shape order, so routes of one shape are neighbours; keep registration
            // order within those naming HEAD and within the others.
            var ordered: [Int] = []
            var start = 0
            while start < kept.count {
                var end = start + 1
                while end < kept.count && lookup.shapes[kept[end]] == lookup.shapes[kept[start]] { end += 1 }
                let group = kept[start..<end]
                let naming = group.filter { accepts($0, "HEAD") }
                let others = group.filter { !accepts($0, "HEAD") }
                if (naming + others) != Array(group) { headPreferred = true }
                ordered += naming + others
                start = end
            }
            kept = ordered
        }
        let served = kept.map { lookup.candidates[$0] }
        if let first = kept.first {
            return Request(status: .matched, candidates: served, allow: [], ambiguous: lookup.ambiguous,
                           servedByGet: headFallback && !accepts(first, "HEAD"), headPreferred: headPreferred)
        }
        if lookup.candidates.isEmpty {
            return Request(status: .notFound, candidates: [], allow: [], ambiguous: false)
        }
        // Every candidate refused the method, so none accepts any method: each has a set.
        let union = lookup.methodSets.reduce(into: Set<String>()) { $0.formUnion($1 ?? []) }
        return Request(status: .methodNotAllowed, candidates: [], allow: allowOrder(union), ambiguous: false)
    }

    /// `names` in `Allow` order: the standard methods in RFC 9110 order (HEAD too when GET is
    /// there and GET routes serve HEAD), then the others in the order the router first saw them.
    func allowOrder(_ names: Set<String>) -> [String] {
        let impliedHead = options.headFallback && names.contains("GET")
        let standard = Self.standardMethods.filter { names.contains($0) || ($0 == "HEAD" && impliedHead) }
        return standard + methodNames.filter { names.contains($0) && !Self.standardMethods.contains($0) }
    }
}

extension ReferenceMatcher.Request {
    /// How `matcher` disagrees with this answer after `lookup` (a `Matcher.match(…, method:)` call
    /// on it): its outcome, its allowed methods (`allow`, the expected `Allow` value) and its
    /// decline order; `nil` when it agrees. `what` and `wanted` describe the request and the
    /// answer in the message. Shared by the differential test and its fuzz harness.
    func matcherMismatch(_ what: String, _ wanted: String, allow: String, matcher: Matcher<Int>,
                         lookup: () throws(RouterError) -> MatchOutcome) -> String? {
        var ids: [UInt64] = []
        do {
            let outcome = try lookup()
            let expectedOutcome: MatchOutcome = switch status {
            case .matched: .matched
            case .notFound: .notFound
            case .methodNotAllowed: .methodNotAllowed
            }
            if outcome != expectedOutcome { return "\(what): Matcher gave \(outcome), expected \(wanted)" }
            let allowed = matcher.allowedMethods?.headerValue
            if allowed != (status == .methodNotAllowed ? allow : nil) {
                return "\(what): Matcher.allowedMethods \(String(describing: allowed)), expected \(wanted)"
            }
            if outcome == .matched {
                repeat { ids.append(matcher.routeID) } while matcher.next() && ids.count <= candidates.count
            }
        } catch {
            return "\(what): Matcher threw \(error)"
        }
        let expectedIDs = candidates.map(\.id)
        if ambiguous ? ids.sorted() != expectedIDs.sorted() : ids != expectedIDs {
            return "\(what): Matcher decline order \(ids), expected \(expectedIDs)"
        }
        return nil
    }
}
