/// Reverse routing: building the URL of a registered route from parameter values.
extension RouterCore {
    /// Builds the URL of the route with `id` (the first registered when several share the id).
    ///
    /// The signature behind `fr_router_url`; see ``url(for:parameters:host:)``.
    package func url(for id: UInt64, parameters: [(name: String, value: String)]) throws(RouterError) -> String {
        try url(for: id, parameters: parameters, host: nil)
    }

    /// Builds the URL of the route with `id` (the first registered when several share the id).
    ///
    /// Optional groups are filled when their parameters are given: among the route's expansions
    /// whose placeholders all have values, the one using the most given names wins, then the
    /// shortest. An empty value for a placeholder inside an optional group counts as not given
    /// (placeholders match non-empty segments only), so its group is left out. Values are checked against their constraints and percent-encoded; the pairs the
    /// chosen expansion does not use are appended as a query, in the order given. The URL is then
    /// matched back: unless this route reads the given values from it (a value holding the text
    /// that separates two placeholders of one segment cannot round-trip), it is an error.
    ///
    /// Global routes give a path; custom-scheme routes `scheme://first/rest`; a web route with
    /// an exact host an absolute URL on that host. A web route accepting several hosts gives an
    /// absolute URL on `host` when one is given (it must be accepted by the route's host rule),
    /// and its path otherwise.
    ///
    /// - Parameters:
    ///   - id: the route id.
    ///   - parameters: (name, value) pairs, values decoded; the first pair of a name fills its
    ///     placeholder, the others go to the query.
    ///   - host: the host (optionally `host:port`) for a web route; `nil` to use the route's own.
    /// - Throws: `.notFound` for an unknown id; `.invalidArgument` when a required placeholder has
    ///   no value, an empty one, or one its constraint rejects, when a name or value holds NUL, when `host`
    ///   is invalid or not accepted by the route, or when the URL would not give the values back.
    /// - Complexity: O(pattern length + values), plus compiling the route's regexes and one lookup.
    func url(for id: UInt64, parameters: [(name: String, value: String)], host: String?) throws(RouterError) -> String {
        guard let record = routes(withID: id).min(by: { $0.sequence < $1.sequence }) else {
            throw RouterError(.notFound, offset: 0, "no route has id \(id)")
        }
        let pattern = try parsedPattern(record.pattern)
        for (name, value) in parameters {
            if value.utf8.contains(0) {
                throw RouterError(.invalidArgument, offset: 0, "the value for '\(name)' holds a NUL byte")
            }
            if name.utf8.contains(0) { throw RouterError(.invalidArgument, offset: 0, "a parameter name holds a NUL byte") }
        }
        let builder = URLBuilder(pattern: pattern, parameters: parameters)
        let chosen = try builder.chooseVariant()
        let path = try builder.path(of: chosen, customScheme: pattern.scheme.map { !options.webSchemes.contains($0) } ?? false)
        let query = builder.query(excluding: chosen)

        var url: String
        var checkURL: String
        switch (pattern.scheme, pattern.host) {
        case (nil, _):
            if let host { throw RouterError(.invalidArgument, offset: 0, "host '\(host)' given for a global route, which has no host") }
            url = path.isEmpty ? "/" : path
            checkURL = url
        case (let scheme?, _) where !options.webSchemes.contains(scheme):
            if let host {
                throw RouterError(.invalidArgument, offset: 0,
                                  "host '\(host)' given for a '\(scheme)' route: its first path segment is its host")
            }
            url = "\(scheme)://" + path.dropFirst()
            checkURL = url
        case (let scheme?, let rule):
            let root = path.isEmpty ? "/" : path
            if let host {
                try Self.check(host: host, against: rule)
                url = "\(scheme)://\(host)\(root)"
                checkURL = url
            } else if case .exact(let exact) = rule {
                url = "\(scheme)://\(exact)\(root)"
                checkURL = url
            } else {
                url = root
                let sample: String
                switch rule {
                case .suffix(let suffix): sample = "www" + suffix
                default: sample = "example.com"
                }
                checkURL = "\(scheme)://\(sample)\(root)"
            }
        }
        if !query.isEmpty {
            url += "?" + query
            checkURL += "?" + query
        }
        try builder.verify(checkURL, routeID: id, variant: chosen, core: self)
        return url
    }

    /// Parses a registered pattern again (patterns are stored as text; this compiles its regexes).
    package func parsedPattern(_ text: String) throws(RouterError) -> Pattern {
        try Array(text.utf8).withUnsafeBufferPointer { (bytes) throws(RouterError) -> Pattern in
            try PatternParser.parse(bytes, webSchemes: options.webSchemes)
        }
    }

    /// Checks a caller's `host[:port]` for a web route: a valid domain its host rule accepts.
    private static func check(host: String, against rule: HostRule) throws(RouterError) {
        var name = Substring(host)
        if let colon = host.lastIndex(of: ":") {
            let port = host[host.index(after: colon)...]
            guard !port.isEmpty, port.count <= 5, port.allSatisfy(\.isASCII), port.allSatisfy(\.isNumber),
                  let value = Int(port), value <= 65535 else {
                throw RouterError(.invalidArgument, offset: 0, "host '\(host)' has an invalid port")
            }
            name = host[..<colon]
        }
        guard !name.isEmpty, name.utf8.allSatisfy({ ASCII.isUnreserved($0) || ASCII.isSubDelimiter($0) }) else {
            throw RouterError(.invalidArgument, offset: 0,
                              "host '\(host)' is not a valid host name (letters, digits, '-', '.' and sub-delimiters)")
        }
        let lowered = name.lowercased()
        switch rule {
        case .any:
            return
        case .exact(let exact):
            guard lowered == exact else {
                throw RouterError(.invalidArgument, offset: 0, "the route only accepts host '\(exact)', not '\(host)'")
            }
        case .suffix(let suffix):
            guard lowered.hasSuffix(suffix), lowered.count > suffix.count else {
                throw RouterError(.invalidArgument, offset: 0,
                                  "the route only accepts subdomains of '\(suffix.dropFirst())' (as in 'www\(suffix)'), not '\(host)'")
            }
        }
    }
}

/// One URL generation: the parsed route and the caller's values.
private struct URLBuilder {
    let pattern: Pattern
    let parameters: [(name: String, value: String)]
    /// The first value given for each name: it is the one a placeholder takes.
    let given: [String: String]

    init(pattern: Pattern, parameters: [(name: String, value: String)]) {
        self.pattern = pattern
        // An empty value of an optional group's placeholder means "leave the group out": drop the
        // pair, so it neither fills the placeholder nor lands in the query as "name=".
        let required = Set((pattern.variants.last ?? []).flatMap(\.placeholderNames))
        let optional = Set(pattern.variants.flatMap { variant in
            variant.filter { !$0.isWildcard }.flatMap(\.placeholderNames)
        }).subtracting(required)
        let parameters = parameters.filter { !($0.value.isEmpty && optional.contains($0.name)) }
        self.parameters = parameters
        var given: [String: String] = [:]
        for (name, value) in parameters where given[name] == nil { given[name] = value }
        self.given = given
    }

    /// The expansion to build: its placeholders all have values; the most given names used, then the shortest.
    func chooseVariant() throws(RouterError) -> [Segment] {
        // A placeholder never matches an empty segment: for a required one an empty value is a
        // mistake, not "absent" (optional ones with an empty value were dropped in `init`).
        for variant in pattern.variants {
            for segment in variant {
                for name in segment.placeholderNames where !segment.isWildcard && given[name] == "" {
                    throw RouterError(.invalidArgument, offset: 0, "the value for parameter '\(name)' is empty")
                }
            }
        }
        let usable = pattern.variants.filter { variant in
            variant.allSatisfy { segment in
                segment.isWildcard || segment.placeholderNames.allSatisfy { given[$0] != nil }
            }
        }
        // `max(by:)` keeps the first of equal elements: expansion order breaks the last ties.
        guard let chosen = usable.max(by: { lhs, rhs in
            let left = lhs.flatMap(\.placeholderNames).filter { given[$0] != nil }.count
            let right = rhs.flatMap(\.placeholderNames).filter { given[$0] != nil }.count
            if left != right { return left < right }
            return lhs.count > rhs.count
        }) else {
            // The last expansion has every group absent: what it lacks is required.
            let required = pattern.variants.last ?? []
            let missing = required.filter { !$0.isWildcard }.flatMap(\.placeholderNames).first { given[$0] == nil } ?? "?"
            throw RouterError(.invalidArgument, offset: 0, "no value for parameter '\(missing)'")
        }
        return chosen
    }

    /// The encoded path of `variant`: "" for the root, else "/a/b".
    func path(of variant: [Segment], customScheme: Bool) throws(RouterError) -> String {
        var path = ""
        let scratch = RegexScratch()
        for (index, segment) in variant.enumerated() {
            // A custom scheme's first segment sits in the authority, where '@' and ':' mean userinfo and port.
            let inAuthority = customScheme && index == 0
            switch segment {
            case .literal(let bytes):
                path += "/" + URLEncoding.encodeSegment(bytes, inAuthority: inAuthority)
            case .parameter(let name):
                path += "/" + URLEncoding.encodeSegment(Array(given[name]!.utf8), inAuthority: inAuthority)
            case .constrained(let name, let constraint):
                let value = Array(given[name]!.utf8)
                try check(value, name: name, constraint, scratch)
                path += "/" + URLEncoding.encodeSegment(value, inAuthority: inAuthority)
            case .partial(let pieces):
                var bytes: [UInt8] = []
                for piece in pieces {
                    switch piece {
                    case .text(let text):
                        bytes += text
                    case .parameter(let name, let constraint):
                        let value = Array(given[name]!.utf8)
                        if let constraint { try check(value, name: name, constraint, scratch) }
                        bytes += value
                    }
                }
                path += "/" + URLEncoding.encodeSegment(bytes, inAuthority: inAuthority)
            case .wildcard(let name):
                // Empty segments are dropped when matching, so "a//b" and "a/b" are the same value.
                let parts = (given[name] ?? "").split(separator: "/", omittingEmptySubsequences: true)
                for (offset, part) in parts.enumerated() {
                    path += "/" + URLEncoding.encodeSegment(Array(part.utf8), inAuthority: inAuthority && offset == 0)
                }
            }
        }
        return path
    }

    private func check(_ value: [UInt8], name: String, _ constraint: Constraint, _ scratch: RegexScratch) throws(RouterError) {
        let accepted = value.withUnsafeBufferPointer { bytes -> Bool in
            if case .regex(let source) = constraint {
                return pattern.regexes[source]?.match(bytes, scratch: scratch) == .matched
            }
            return constraint.matchesBuiltin(bytes)
        }
        guard accepted else {
            throw RouterError(.invalidArgument, offset: 0,
                              "value '\(String(decoding: value, as: UTF8.self))' for '\(name)' does not satisfy {\(name):\(constraint.source)}")
        }
    }

    /// The encoded query: every pair except the first of each name the path uses, in the order given.
    func query(excluding variant: [Segment]) -> String {
        var placed = Set(variant.flatMap(\.placeholderNames))
        var items: [String] = []
        for (name, value) in parameters {
            if placed.remove(name) != nil { continue }
            items.append(URLEncoding.encodeQuery(name) + "=" + URLEncoding.encodeQuery(value))
        }
        return items.joined(separator: "&")
    }

    /// Matches `url` and requires a candidate of route `routeID` that reads the given values back.
    func verify(_ url: String, routeID: UInt64, variant: [Segment], core: RouterCore) throws(RouterError) {
        let scratch = MatchScratch()
        var expected: [(name: String, value: String)] = []
        for segment in variant {
            for name in segment.placeholderNames {
                var value = given[name] ?? ""
                if segment.isWildcard {
                    value = value.split(separator: "/", omittingEmptySubsequences: true).joined(separator: "/")
                }
                expected.append((name, value))
            }
        }
        // Parameter values may point into the URL bytes: keep them alive for the whole walk.
        let bytes = Array(url.utf8)
        let (status, found) = bytes.withUnsafeBufferPointer { buffer -> (LookupStatus, [(name: String, value: String)]?) in
            var status = core.match(url: buffer, into: scratch)
            if status == .invalidURL { return (status, nil) }
            var found: [(name: String, value: String)]?
            while status == .found {
                if scratch.routeID == routeID {
                    var read: [(name: String, value: String)] = []
                    for (name, _) in expected {
                        let value = Array(name.utf8).withUnsafeBufferPointer { scratch.parameter(named: $0) }
                        read.append((name, value.map { String(decoding: $0, as: UTF8.self) } ?? ""))
                    }
                    if read.elementsEqual(expected, by: { $0 == $1 }) { return (.found, nil) }
                    found = found ?? read
                }
                status = scratch.next()
            }
            return (status, found)
        }
        if status == .invalidURL {
            throw RouterError(.invalidArgument, offset: 0, "the URL '\(url)' would be rejected as malformed or over a limit")
        }
        if status == .found { return }
        guard let found else {
            throw RouterError(.invalidArgument, offset: 0, "the URL '\(url)' does not match route \(routeID) back")
        }
        let readBack = found.map { "\($0.name)='\($0.value)'" }.joined(separator: ", ")
        throw RouterError(.invalidArgument, offset: 0,
                          "the URL '\(url)' would give \(readBack): a value holds the text that separates its placeholders")
    }
}

extension Segment {
    /// The names this segment captures, in pattern order.
    var placeholderNames: [String] {
        switch self {
        case .literal: return []
        case .parameter(let name), .constrained(let name, _), .wildcard(let name): return [name]
        case .partial(let pieces):
            return pieces.compactMap { piece in
                if case .parameter(let name, _) = piece { return name }
                return nil
            }
        }
    }

    var isWildcard: Bool {
        if case .wildcard = self { return true }
        return false
    }
}

/// Percent-encoding for generated URLs.
package enum URLEncoding {
    /// Encodes a decoded segment so it decodes back to the same bytes as one segment.
    ///
    /// `.` and `..` are escaped whole: a URL library on the way would otherwise remove them as
    /// dot-segments. In the authority (a custom scheme's first segment) `@` and `:` are escaped too.
    package static func encodeSegment(_ bytes: [UInt8], inAuthority: Bool = false) -> String {
        if bytes == [0x2E] { return "%2E" }
        if bytes == [0x2E, 0x2E] { return "%2E%2E" }
        return encode(bytes) { byte in
            if inAuthority && (byte == UInt8(ascii: "@") || byte == UInt8(ascii: ":")) { return false }
            return isUnreserved(byte) || "!$&'()*+,;=:@".utf8.contains(byte)
        }
    }

    /// Encodes a query key or value (`+`, `&`, `=`, `#` and spaces escaped).
    static func encodeQuery(_ text: String) -> String {
        encode(Array(text.utf8)) { byte in isUnreserved(byte) || "!$'()*,;:@/?".utf8.contains(byte) }
    }

    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
             UInt8(ascii: "~"):
            return true
        default:
            return false
        }
    }

    private static func encode(_ bytes: [UInt8], keeping keep: (UInt8) -> Bool) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        for byte in bytes {
            if keep(byte) {
                output.append(byte)
            } else {
                output.append(UInt8(ascii: "%"))
                output.append(hex[Int(byte >> 4)])
                output.append(hex[Int(byte & 0xF)])
            }
        }
        return String(decoding: output, as: UTF8.self)
    }
}
