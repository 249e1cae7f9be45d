/// A pattern as peers can take it: a path of literal, placeholder and wildcard segments.
///
/// Peers (routing-kit, r3) have no schemes, hosts, optional groups, priorities or percent-
/// decoding of literals, so a set is offered to a peer only when every route parses here;
/// otherwise the reason is printed and the peer sits that set out.
struct PathPattern: Sendable {
    enum Segment: Sendable, Equatable {
        case literal(String)
        case placeholder(name: String)
        /// A built-in constraint (`int`, `uuid`, …) or a regex, as written after the colon.
        case constrained(name: String, constraint: String)
        /// `*` or `*name`; the name is `*` when unnamed, as FastRouter reports it.
        case wildcard(name: String)

        var isWildcard: Bool {
            if case .wildcard = self { return true }
            return false
        }
    }

    var segments: [Segment]

    /// Parses a route, or says why a path-only router cannot take it.
    static func parse(_ spec: RouteSpec) -> Result<PathPattern, Inexpressible> {
        let pattern = spec.pattern
        guard spec.priority == 0 else { return .failure(Inexpressible("priority \(spec.priority) in \(pattern)")) }
        guard pattern.hasPrefix("/") else { return .failure(Inexpressible("scheme or group in \(pattern)")) }
        var segments: [Segment] = []
        for text in segmentTexts(pattern) {
            if text.contains("(") && !text.hasPrefix("{") || text.contains("%") {
                return .failure(Inexpressible("optional group or escape in \(pattern)"))
            }
            if text.hasPrefix(":") {
                segments.append(.placeholder(name: String(text.dropFirst())))
            } else if text.hasPrefix("{") && text.hasSuffix("}") && closesAtEnd(text) {
                let body = text.dropFirst().dropLast()
                if let colon = body.firstIndex(of: ":") {
                    segments.append(.constrained(name: String(body[..<colon]),
                                                 constraint: String(body[body.index(after: colon)...])))
                } else {
                    segments.append(.placeholder(name: String(body)))
                }
            } else if text.hasPrefix("*") {
                let name = text.dropFirst()
                segments.append(.wildcard(name: name.isEmpty ? "*" : String(name)))
            } else if text.contains("{") || text.contains("}") || text.contains("*") {
                return .failure(Inexpressible("segment \(text) in \(pattern)"))
            } else {
                segments.append(.literal(text))
            }
        }
        if segments.dropLast().contains(where: \.isWildcard) {
            return .failure(Inexpressible("wildcard not last in \(pattern)"))
        }
        return .success(PathPattern(segments: segments))
    }
}

extension PathPattern {
    /// Whether the brace opened by the first byte closes at the last one: `{id:[0-9]{4}}` is one
    /// placeholder, `{name}.{ext}` (a partial segment) is not.
    static func closesAtEnd(_ text: String) -> Bool {
        var depth = 0
        for (offset, byte) in text.utf8.enumerated() {
            if byte == UInt8(ascii: "{") { depth += 1 }
            if byte == UInt8(ascii: "}") { depth -= 1 }
            if depth == 0 { return offset == text.utf8.count - 1 }
        }
        return false
    }

    /// The pattern's segments, split on `/` outside braces (a regex may hold `/`).
    static func segmentTexts(_ pattern: String) -> [String] {
        var segments: [String] = []
        var current = ""
        var depth = 0
        for character in pattern {
            switch character {
            case "{": depth += 1
            case "}": depth -= 1
            case "/" where depth == 0:
                if !current.isEmpty { segments.append(current) }
                current = ""
                continue
            default: break
            }
            current.append(character)
        }
        if !current.isEmpty { segments.append(current) }
        return segments
    }
}

/// Why a peer cannot take a route.
struct Inexpressible: Error, CustomStringConvertible, Sendable {
    var description: String
    init(_ description: String) { self.description = description }
}
