/// Reverse routing: building the URL of a registered route from parameter values.
extension RouterCore {
    /// Builds the URL of the route with `id` (the first registered when several share the id).
    ///
    /// Optional groups are filled when their parameters are given: among the route's expansions
    /// whose placeholders all have values, the one using the most given names wins, then the
    /// shortest. Values are checked against their constraints and percent-encoded; names the
    /// pattern does not use are appended as a query, in the order given. A web route with an exact
    /// host yields an absolute URL; a route accepting several hosts yields its path.
    ///
    /// - Throws: `.notFound` for an unknown id; `.invalidArgument` when a placeholder has no
    ///   value, an empty one, or one its constraint rejects.
    func url(for id: UInt64, parameters: [(name: String, value: String)]) throws(RouterError) -> String {
        guard let record = routes(withID: id).min(by: { $0.sequence < $1.sequence }) else {
            throw RouterError(.notFound, offset: 0, "no route has id \(id)")
        }
        let pattern = try Array(record.pattern.utf8).withUnsafeBufferPointer { (bytes) throws(RouterError) -> Pattern in
            try PatternParser.parse(bytes, webSchemes: options.webSchemes)
        }
        var given: [String: String] = [:]
        for (name, value) in parameters where given[name] == nil { given[name] = value }

        func placeholderNames(_ segments: [Segment]) -> [String] {
            segments.compactMap { segment -> [String]? in
                switch segment {
                case .literal: return nil
                case .parameter(let name), .constrained(let name, _), .wildcard(let name): return [name]
                case .partial(let pieces):
                    return pieces.compactMap { piece -> String? in
                        if case .parameter(let name, _) = piece { return name }
                        return nil
                    }
                }
            }.flatMap { $0 }
        }
        let usable = pattern.variants.filter { variant in
            variant.allSatisfy { segment in
                switch segment {
                case .literal: return true
                case .parameter(let name), .constrained(let name, _): return !(given[name] ?? "").isEmpty
                case .wildcard: return true
                case .partial: return placeholderNames([segment]).allSatisfy { !(given[$0] ?? "").isEmpty }
                }
            }
        }
        guard let chosen = usable.max(by: { lhs, rhs in
            let left = placeholderNames(lhs).filter { given[$0] != nil }.count
            let right = placeholderNames(rhs).filter { given[$0] != nil }.count
            if left != right { return left < right }
            return lhs.count > rhs.count
        }) else {
            let missing = placeholderNames(pattern.variants.last ?? []).first { (given[$0] ?? "").isEmpty } ?? "?"
            throw RouterError(.invalidArgument, offset: 0, "no value for parameter '\(missing)'")
        }

        var path = ""
        var used = Set<String>()
        let scratch = RegexScratch()
        func accepts(_ value: [UInt8], _ constraint: Constraint) -> Bool {
            value.withUnsafeBufferPointer { bytes -> Bool in
                if case .regex(let source) = constraint {
                    return pattern.regexes[source]?.match(bytes, scratch: scratch) == .matched
                }
                return constraint.matchesBuiltin(bytes)
            }
        }
        for segment in chosen {
            path += "/"
            switch segment {
            case .literal(let bytes):
                path += URLEncoding.encodeSegment(bytes)
            case .parameter(let name):
                path += URLEncoding.encodeSegment(Array(given[name]!.utf8))
                used.insert(name)
            case .constrained(let name, let constraint):
                let value = Array(given[name]!.utf8)
                guard accepts(value, constraint) else {
                    throw RouterError(.invalidArgument, offset: 0,
                                      "value '\(given[name]!)' for '\(name)' does not satisfy {\(name):\(constraint.source)}")
                }
                path += URLEncoding.encodeSegment(value)
                used.insert(name)
            case .partial(let pieces):
                var bytes: [UInt8] = []
                for piece in pieces {
                    switch piece {
                    case .text(let text):
                        bytes += text
                    case .parameter(let name, let constraint):
                        let value = Array(given[name]!.utf8)
                        if let constraint, !accepts(value, constraint) {
                            throw RouterError(.invalidArgument, offset: 0,
                                              "value '\(given[name]!)' for '\(name)' does not satisfy {\(name):\(constraint.source)}")
                        }
                        bytes += value
                        used.insert(name)
                    }
                }
                path += URLEncoding.encodeSegment(bytes)
            case .wildcard(let name):
                let parts = (given[name] ?? "").split(separator: "/", omittingEmptySubsequences: true)
                path += parts.map { URLEncoding.encodeSegment(Array($0.utf8)) }.joined(separator: "/")
                if parts.isEmpty { path.removeLast() }
                used.insert(name)
            }
        }
        var url: String
        switch (pattern.scheme, pattern.host) {
        case (nil, _):
            url = path.isEmpty ? "/" : path
        case (let scheme?, .exact(let host)):
            url = "\(scheme)://\(host)\(path)"
        case (let scheme?, _) where !options.webSchemes.contains(scheme):
            url = "\(scheme)://" + path.dropFirst()
        default:
            url = path.isEmpty ? "/" : path
        }
        let extra = parameters.filter { !used.contains($0.name) }
        if !extra.isEmpty {
            url += "?" + extra.map { URLEncoding.encodeQuery($0.name) + "=" + URLEncoding.encodeQuery($0.value) }
                .joined(separator: "&")
        }
        return url
    }
}

/// Percent-encoding for generated URLs.
enum URLEncoding {
    /// Encodes a decoded segment so it decodes back to the same bytes as one segment.
    static func encodeSegment(_ bytes: [UInt8]) -> String {
        encode(bytes) { byte in
            isUnreserved(byte) || "!$&'()*+,;=:@".utf8.contains(byte)
        }
    }

    /// Encodes a query key or value (`+`, `&`, `=` and spaces escaped).
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
