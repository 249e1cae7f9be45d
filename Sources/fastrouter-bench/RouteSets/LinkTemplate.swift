/// A route written together with one URL that reaches it, so a set states each pattern, its
/// URL and the expected parameters in one place and they cannot drift apart.
///
/// Template syntax (the pattern language of docs/SEMANTICS.md §2 plus sample values):
/// - `{name=sample}`, `{name:constraint=sample}`, `:name=sample`: a placeholder and the raw URL
///   text standing in for it (percent-escapes allowed; the expected value is decoded).
/// - `*name=a/b/c` (or `*=a/b`): a wildcard and the rest of the path it receives.
/// - `( … )`: an optional group present in the URL; `(! … )`: a group left out of the URL.
/// - `https://*.example.com=acme.example.com/…`: a host pattern and the URL's host (with any
///   port or userinfo), for web schemes.
/// - `?query` and `#fragment`: appended to the URL only; query pairs are expected after the
///   path parameters, split on `&` and the first `=`, `+` read as a space, then decoded.
struct LinkTemplate: Sendable {
    var pattern: String
    var url: String
    var parameters: [Parameter]
    var pathParameterCount: Int

    /// Thrown for a template the benchmark itself got wrong; reported before any measurement.
    struct SyntaxError: Error, CustomStringConvertible {
        var template: String
        var reason: String
        var description: String { "link template \(template): \(reason)" }
    }

    static let webSchemes: Set<String> = ["http", "https"]

    init(_ template: String) throws(SyntaxError) {
        var parser = TemplateParser(template: template)
        try parser.parse()
        pattern = parser.pattern
        url = parser.url
        parameters = parser.pathParameters + parser.queryParameters
        pathParameterCount = parser.pathParameters.count
    }
}

/// Walks a template once, writing the pattern and the URL side by side.
private struct TemplateParser {
    let template: String
    let bytes: [UInt8]
    var index = 0
    var pattern = ""
    var url = ""
    var pathParameters: [Parameter] = []
    var queryParameters: [Parameter] = []
    /// One flag per open group: whether the URL includes it.
    var groupPresence: [Bool] = []

    init(template: String) {
        self.template = template
        bytes = Array(template.utf8)
    }

    var emitsURL: Bool { !groupPresence.contains(false) }

    func fail(_ reason: String) -> LinkTemplate.SyntaxError {
        LinkTemplate.SyntaxError(template: template, reason: reason)
    }

    mutating func parse() throws(LinkTemplate.SyntaxError) {
        let (path, query, fragment) = splitQueryAndFragment()
        var rest = path[...]
        if let schemeEnd = rest.firstRange(of: "://") {
            let scheme = String(rest[..<schemeEnd.lowerBound])
            pattern += scheme + "://"
            url += scheme + "://"
            rest = rest[schemeEnd.upperBound...]
            if LinkTemplate.webSchemes.contains(scheme.lowercased()) {
                let hostEnd = rest.firstIndex(where: { $0 == "/" || $0 == "(" }) ?? rest.endIndex
                let host = rest[..<hostEnd]
                if let equals = host.firstIndex(of: "=") {
                    pattern += host[..<equals]
                    url += host[host.index(after: equals)...]
                } else {
                    pattern += host
                    url += host
                }
                rest = rest[hostEnd...]
            }
        }
        try parsePath(Array(rest.utf8))
        guard groupPresence.isEmpty else { throw fail("unclosed group") }
        if let query {
            url += "?" + query
            for item in query.split(separator: "&", omittingEmptySubsequences: true) {
                let equals = item.firstIndex(of: "=")
                let key = equals.map { item[..<$0] } ?? item
                let value = equals.map { item[item.index(after: $0)...] } ?? ""
                guard let decodedKey = ExpectedValue.decode(String(key), plusAsSpace: true),
                      let decodedValue = ExpectedValue.decode(String(value), plusAsSpace: true) else {
                    throw fail("invalid escape in query item \(item)")
                }
                queryParameters.append(Parameter(name: decodedKey, value: decodedValue))
            }
        }
        if let fragment { url += "#" + fragment }
    }

    /// Cuts at the first `?` or `#` outside braces (regex constraints may hold both).
    func splitQueryAndFragment() -> (path: String, query: String?, fragment: String?) {
        var depth = 0
        var cut: Int?
        for (offset, byte) in bytes.enumerated() {
            if byte == UInt8(ascii: "{") { depth += 1 }
            if byte == UInt8(ascii: "}") { depth -= 1 }
            if depth == 0 && (byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#")) { cut = offset; break }
        }
        guard let cut else { return (template, nil, nil) }
        let path = String(decoding: bytes[..<cut], as: UTF8.self)
        let tail = String(decoding: bytes[cut...], as: UTF8.self)
        if tail.hasPrefix("#") { return (path, nil, String(tail.dropFirst())) }
        let afterMark = tail.dropFirst()
        if let hash = afterMark.firstIndex(of: "#") {
            return (path, String(afterMark[..<hash]), String(afterMark[afterMark.index(after: hash)...]))
        }
        return (path, String(afterMark), nil)
    }

    mutating func parsePath(_ path: [UInt8]) throws(LinkTemplate.SyntaxError) {
        var position = 0
        var atSegmentStart = true
        func text(_ range: Range<Int>) -> String { String(decoding: path[range], as: UTF8.self) }
        while position < path.count {
            let byte = path[position]
            switch byte {
            case UInt8(ascii: "/"):
                pattern += "/"
                if emitsURL { url += "/" }
                position += 1
                atSegmentStart = true
                continue
            case UInt8(ascii: "("):
                let present = position + 1 < path.count && path[position + 1] == UInt8(ascii: "!") ? false : true
                groupPresence.append(present)
                pattern += "("
                position += present ? 1 : 2
                atSegmentStart = true
                continue
            case UInt8(ascii: ")"):
                guard !groupPresence.isEmpty else { throw fail("unbalanced )") }
                groupPresence.removeLast()
                pattern += ")"
                position += 1
                continue
            case UInt8(ascii: "{"):
                var depth = 0
                var end = position
                repeat {
                    if path[end] == UInt8(ascii: "{") { depth += 1 }
                    if path[end] == UInt8(ascii: "}") { depth -= 1 }
                    end += 1
                } while depth > 0 && end < path.count
                guard depth == 0 else { throw fail("unbalanced {") }
                let body = text(position + 1 ..< end - 1)
                guard let equals = body.lastIndex(of: "=") else { throw fail("placeholder \(body) has no =sample") }
                let declaration = body[..<equals]
                let sample = String(body[body.index(after: equals)...])
                let name = declaration.split(separator: ":", maxSplits: 1).first.map(String.init) ?? ""
                pattern += "{" + declaration + "}"
                try capture(name: name, sample: sample)
                position = end
            case UInt8(ascii: ":") where atSegmentStart:
                var end = position + 1
                while end < path.count, path[end] != UInt8(ascii: "=") { end += 1 }
                let name = text(position + 1 ..< end)
                guard end < path.count else { throw fail("placeholder :\(name) has no =sample") }
                var sampleEnd = end + 1
                while sampleEnd < path.count, ![UInt8(ascii: "/"), UInt8(ascii: "("), UInt8(ascii: ")")].contains(path[sampleEnd]) {
                    sampleEnd += 1
                }
                pattern += ":" + name
                try capture(name: name, sample: text(end + 1 ..< sampleEnd))
                position = sampleEnd
            case UInt8(ascii: "*") where atSegmentStart:
                var end = position + 1
                while end < path.count, ![UInt8(ascii: "="), UInt8(ascii: ")")].contains(path[end]) { end += 1 }
                let name = text(position + 1 ..< end)
                var sample = ""
                var sampleEnd = end
                if end < path.count, path[end] == UInt8(ascii: "=") {
                    sampleEnd = end + 1
                    while sampleEnd < path.count, path[sampleEnd] != UInt8(ascii: ")") { sampleEnd += 1 }
                    sample = text(end + 1 ..< sampleEnd)
                }
                pattern += "*" + name
                if emitsURL {
                    url += sample
                    var decoded: [String] = []
                    for segment in sample.split(separator: "/", omittingEmptySubsequences: true) {
                        guard let value = ExpectedValue.decode(String(segment), plusAsSpace: false) else {
                            throw fail("invalid escape in wildcard sample \(sample)")
                        }
                        decoded.append(value)
                    }
                    pathParameters.append(Parameter(name: name.isEmpty ? "*" : name, value: decoded.joined(separator: "/")))
                }
                position = sampleEnd
            default:
                guard byte < 0x80 else { throw fail("non-ASCII literal; write it percent-encoded") }
                pattern.unicodeScalars.append(Unicode.Scalar(byte))
                if emitsURL { url.unicodeScalars.append(Unicode.Scalar(byte)) }
                position += 1
            }
            atSegmentStart = false
        }
    }

    mutating func capture(name: String, sample: String) throws(LinkTemplate.SyntaxError) {
        guard emitsURL else { return }
        guard !sample.isEmpty else { throw fail("placeholder \(name) has an empty sample") }
        guard let value = ExpectedValue.decode(sample, plusAsSpace: false) else {
            throw fail("invalid escape in sample \(sample)")
        }
        url += sample
        pathParameters.append(Parameter(name: name, value: value))
    }
}

/// Decodes expected values the way docs/SEMANTICS.md §3.2 says a router must.
enum ExpectedValue {
    /// Percent-decodes `text` (and `+` as a space when asked); `nil` for a bad escape or invalid UTF-8.
    static func decode(_ text: String, plusAsSpace: Bool) -> String? {
        var output: [UInt8] = []
        output.reserveCapacity(text.utf8.count)
        var bytes = text.utf8.makeIterator()
        while let byte = bytes.next() {
            if byte == UInt8(ascii: "+") && plusAsSpace {
                output.append(UInt8(ascii: " "))
            } else if byte == UInt8(ascii: "%") {
                guard let high = bytes.next().flatMap(hexValue), let low = bytes.next().flatMap(hexValue) else { return nil }
                output.append(high << 4 | low)
            } else {
                output.append(byte)
            }
        }
        return String(validating: output, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
