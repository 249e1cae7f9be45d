import FastRouter

/// Example URLs that show a finding, built from the segments involved and checked by a lookup.
extension RouteAnalysis {
    /// Sample segment values tried for placeholders and constraints: numbers, words, a UUID,
    /// punctuation, and the shapes regex constraints often ask for (a 40-digit hex SHA, a date,
    /// a version).
    static let witnesses: [[UInt8]] = [
        "1", "42", "0", "-1", "1.5", "a", "x", "abc", "A", "ff", "a1", "new", "me", "index", "json",
        "3f2b8c1e-9a4d-4e6f-8b7a-1c2d3e4f5a6b", "_", "a-b", "a.b", "a_b", "x.json", "a b", "é",
        "6dcb09b5b57875f334f61aebed695e2e4193db5e", "2024-01-31", "v1",
    ].map { Array($0.utf8) }

    /// `values` starting at position `rotation` (modulo their count), then the ones before it.
    static func rotated(_ values: [[UInt8]], by rotation: Int) -> [[UInt8]] {
        let start = rotation % values.count
        return Array(values[start...] + values[..<start])
    }

    /// A URL `expansion` matches, also matched by `other` when given (`nil` when none is found).
    /// `rotation` starts the placeholders' sample values further down ``witnesses``, for another
    /// URL of the same expansion; `wildcardValue` gives a trailing wildcard one segment.
    func exampleURL(for expansion: Expansion, alsoIn other: Expansion?, rotation: Int = 0,
                    wildcardValue: Bool = false) -> String? {
        let pattern = entries[expansion.entry].pattern
        let otherPattern = other.map { entries[$0.entry].pattern }
        if let other, !other.wildcard, !expansion.wildcard, other.segments.count != expansion.segments.count { return nil }
        var segments: [[UInt8]] = []
        for (position, segment) in expansion.segments.enumerated() {
            var candidates = samples(segment, pattern, rotation: rotation)
            var otherSegment: Segment?
            if let other, position < other.segments.count {
                otherSegment = other.segments[position]
                candidates += samples(other.segments[position], otherPattern!)
            }
            guard let value = candidates.first(where: { candidate in
                accepts(segment, pattern, candidate, position: position)
                    && otherSegment.map { accepts($0, otherPattern!, candidate, position: position) } ?? true
            }) else { return nil }
            segments.append(value)
        }
        if let other, other.segments.count > expansion.segments.count {
            // `expansion` ends in a wildcard that must cover the rest of `other`'s segments.
            for position in expansion.segments.count..<other.segments.count {
                guard let value = samples(other.segments[position], otherPattern!)
                    .first(where: { accepts(other.segments[position], otherPattern!, $0, position: position) }) else { return nil }
                segments.append(value)
            }
        }
        if wildcardValue && expansion.wildcard && other == nil {
            segments.append(Self.rotated(Self.witnesses, by: rotation).first { !$0.contains(UInt8(ascii: " ")) } ?? Array("a".utf8))
        }
        let custom = isCustomScheme(pattern)
        let path = segments.enumerated().map { offset, bytes in
            "/" + URLEncoding.encodeSegment(bytes, inAuthority: custom && offset == 0)
        }.joined()
        guard let scheme = pattern.scheme else { return path.isEmpty ? "/" : path }
        if custom { return "\(scheme)://" + path.dropFirst() }
        // A host both routes accept: an exact one, a subdomain of the longer suffix, or any.
        let rules = [pattern.host] + (otherPattern.map { [$0.host] } ?? [])
        let hosts = rules.compactMap { rule -> String? in
            switch rule {
            case .exact(let exact): return exact
            case .suffix(let suffix): return "www" + suffix
            case .any: return nil
            }
        }.sorted { $0.count > $1.count } + ["example.com"]
        guard let host = hosts.first(where: { host in rules.allSatisfy { hostIncludes($0, .exact(host)) } }) else {
            return nil
        }
        return "\(scheme)://\(host)" + (path.isEmpty ? "/" : path)
    }

    /// Values worth trying for `segment`: the literal itself, or built from the witnesses
    /// (starting `rotation` places down the list).
    private func samples(_ segment: Segment, _ pattern: Pattern, rotation: Int = 0) -> [[UInt8]] {
        switch segment {
        case .literal(let bytes): return [bytes]
        case .parameter, .constrained, .wildcard: return Self.rotated(Self.witnesses, by: rotation)
        case .partial(let pieces):
            return Self.rotated(Self.witnesses, by: rotation).map { preferred in
                pieces.flatMap { piece -> [UInt8] in
                    switch piece {
                    case .text(let text): return text
                    case .parameter(_, nil): return preferred
                    case .parameter(_, let constraint?):
                        if accepts(constraint, pattern, preferred[...]) { return preferred }
                        return Self.witnesses.first { accepts(constraint, pattern, $0[...]) } ?? preferred
                    }
                }
            }
        }
    }

    /// The route ids of every candidate for `url`, best first.
    func candidateIDs(_ url: String) -> [UInt64] {
        candidateIDs(url, method: nil)
    }

    /// The route ids of every candidate for a request with `method` (a lookup without one when
    /// `nil`), best first: the filtered order of docs/SEMANTICS.md §3.7, HEAD fallback included.
    func candidateIDs(_ url: String, method: HTTPMethod?) -> [UInt64] {
        candidates(url, method: method).map(\.id)
    }

    /// Every candidate for a request with `method` (without one when `nil`), best first: its
    /// route id and registration order (``Entry/sequence``).
    func candidates(_ url: String, method: HTTPMethod?) -> [(id: UInt64, sequence: UInt64)] {
        let scratch = MatchScratch()
        // The scratch points into the URL's bytes, which for a small string live only inside the
        // closure: every decline must run in there too (as Router.matches does).
        return withUTF8(url) { bytes in
            withUTF8(method?.rawValue ?? "") { methodBytes in
                var found: [(id: UInt64, sequence: UInt64)] = []
                // An empty method is a lookup without one.
                var status = core.match(method: methodBytes, url: bytes, into: scratch)
                while status == .found {
                    if let sequence = scratch.routeSequence { found.append((scratch.routeID, sequence)) }
                    status = scratch.next()
                }
                scratch.clearResult()
                return found
            }
        }
    }
}
