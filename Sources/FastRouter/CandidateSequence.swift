/// The candidates for one URL, best first, produced one at a time: the lazy form of
/// ``Router/matches(_:)`` for handler chains that usually stop at the first candidate.
///
/// ```swift
/// for candidate in try router.candidates("/users/me") {
///     if handle(candidate) { break }   // declining = asking for the next one
/// }
/// ```
///
/// The lookup runs once, when the sequence is created; each step copies only the candidate it
/// yields, so stopping early pays for nothing more. The sequence keeps its own copy of the URL
/// and its own lookup state: it stays valid whatever the router does afterwards, and the values
/// of routes removed meanwhile are released only once the sequence is gone. It is meant to be
/// iterated once; a second iterator continues where the first stopped.
public struct CandidateSequence<Value>: Sequence, IteratorProtocol {
    private let matcher: Matcher<Value>
    private var started = false
    private var exhausted: Bool

    init(router: Router<Value>, url: String, method: HTTPMethod? = nil) throws(RouterError) {
        matcher = Matcher(router: router)
        exhausted = try !matcher.matchAll(url, method: method)
    }

    /// The next candidate in precedence order, or `nil` when none is left.
    public mutating func next() -> Match<Value>? {
        if exhausted { return nil }
        if started {
            guard matcher.next() else {
                exhausted = true
                matcher.clear()
                return nil
            }
        }
        started = true
        return Match<Value>(matcher.scratch)
    }
}

extension Router {
    /// Every route matching `url`, best first, produced lazily: the next candidate is copied out
    /// only when asked for (see ``CandidateSequence``).
    ///
    /// - Throws: ``RouterError`` `.invalidURL` for a malformed URL.
    public func candidates(_ url: String) throws(RouterError) -> CandidateSequence<Value> {
        try CandidateSequence(router: self, url: url)
    }

    /// The routes matching `url` that accept `method`, best first, produced lazily (see
    /// ``CandidateSequence``); empty when none does, whether or not other methods would match.
    ///
    /// - Throws: ``RouterError`` `.invalidURL` for a malformed URL.
    public func candidates(_ url: String, method: HTTPMethod) throws(RouterError) -> CandidateSequence<Value> {
        try CandidateSequence(router: self, url: url, method: method)
    }
}
