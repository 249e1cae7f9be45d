#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a route pattern (docs/SEMANTICS.md §2, §3.6) from raw bytes into a ``Pattern``.
///
/// One method per grammar rule, left to right, so the first error reported is the leftmost one,
/// at the byte offset of the offending construct's first byte:
/// ```
/// pattern   = [ scheme "://" [ host ] ] path
/// path      = *( "/" segment / group ) [ "/" ]
/// segment   = literal | param | wildcard
/// group     = "(" 1*( "/" segment / group ) ")"
/// ```
/// Regex constraints are compiled here, once per distinct source, so a bad regex is a
/// registration error and lookups never compile anything.
package enum PatternParser {
    /// Longest pattern accepted, in bytes.
    package static let maxLength = 8192

    /// Parses a whole pattern.
    ///
    /// ```swift
    /// let pattern = try PatternParser.parse(bytes, webSchemes: ["http", "https"])
    /// // "/users/:id(/posts)" → variants [users, :id, posts] and [users, :id]
    /// ```
    /// - Parameters:
    ///   - pattern: The pattern bytes; they may come from C, so any byte value is handled.
    ///   - webSchemes: Lower-cased web scheme names (e.g. `["http", "https"]`): their authority is a host rule.
    ///   - knownRegex: A regex already compiled from a source (by the router or the same batch),
    ///     reused instead of compiled again: PCRE2 compilation and JIT cost far more than parsing.
    /// - Returns: The scheme (`nil` for the global table), the host rule, every variant and the compiled regexes.
    /// - Throws: ``RouterError`` with code `.invalidPattern`, or `.invalidRegex` for a regex that
    ///   PCRE2 rejects, and the byte offset of the offending construct.
    /// - Complexity: O(pattern length) plus regex compilation and the 2^groups variants.
    static func parse(_ pattern: UnsafeBufferPointer<UInt8>, webSchemes: Set<String>,
                      knownRegex: (String) -> CompiledRegex? = { _ in nil }) throws(RouterError) -> Pattern {
        var lists = Lists()
        return try parse(pattern, webSchemes: webSchemes, reusing: &lists, knownRegex: knownRegex)
    }

    /// The lists a ``Pattern`` of one variant is made of, kept by a writer that parses many
    /// patterns: a pattern's lists handed back (``Lists/recycle(segments:)``,
    /// ``Lists/recycle(variants:)``) serve the next one, so a
    /// single add allocates no list for its pattern.
    struct Lists {
        var segments: [Segment] = []
        var variants: [[Segment]] = []
        var literals = RecentLiterals()

        /// Keeps the lists of `segments` (a variant's, no longer used) and of `variants` for the
        /// next pattern, emptied.
        mutating func recycle(segments: inout [Segment]) {
            segments.clearKeepingCapacity()
            if segments.capacity > self.segments.capacity { swap(&segments, &self.segments) }
        }

        @inline(__always)
        mutating func recycle(variants: inout [[Segment]]) {
            variants.clearKeepingCapacity()
            if variants.capacity > self.variants.capacity { swap(&variants, &self.variants) }
        }
    }

    /// ``parse(_:webSchemes:knownRegex:)``, its lists taken from `lists` when it has some.
    static func parse(_ pattern: UnsafeBufferPointer<UInt8>, webSchemes: Set<String>, reusing lists: inout Lists,
                      knownRegex: (String) -> CompiledRegex? = { _ in nil }) throws(RouterError) -> Pattern {
        guard pattern.count <= maxLength else {
            throw RouterError(.invalidPattern, offset: maxLength, "pattern is longer than \(maxLength) bytes")
        }
        var reader = PatternReader(bytes: pattern)
        swap(&reader.literals, &lists.literals)
        defer { swap(&reader.literals, &lists.literals) }
        var parsed = try reader.readPattern(webSchemes: webSchemes, reusing: &lists)
        // Regexes compile once the whole pattern has read well, so its syntax errors come before
        // a regex's compile error; and the reader holds no closure (one kept in a value costs an
        // allocation per pattern).
        for (source, offset) in reader.regexSources where parsed.regexes[source] == nil {
            if let known = knownRegex(source) {
                parsed.regexes[source] = known
            } else {
                parsed.regexes[source] = try CompiledRegex(source: source, patternOffset: offset)
            }
        }
        return parsed
    }
}

/// The parser's cursor and what it has collected so far; lives for one `parse` call.
private struct PatternReader {
    // Safety: every read goes through `byte(at:)` or an index already compared with `bytes.count`;
    // the buffer is the caller's and outlives this reader, which never escapes `parse`.
    let bytes: UnsafeBufferPointer<UInt8>
    /// Index of the next unread byte.
    var position = 0
    /// Groups opened so far, nested ones included, to reject the ninth at its `(`.
    var groupCount = 0
    /// Placeholder and wildcard names seen so far, as the ranges of the pattern's bytes that
    /// spell them (the `*` of an unnamed wildcard): the first few in place, the rest in a list. A
    /// pattern names a few parameters, and scanning them beats hashing each name (the 8 KiB
    /// pattern limit bounds the quadratic worst case to a few million short comparisons); in
    /// place, as plain ranges, a pattern's names cost no allocation and no reference count.
    var firstNames = InlineArray<8, Range<Int>>(repeating: 0..<0)
    var nameCount = 0
    var moreNames: [Range<Int>] = []
    /// Regex sources in order of first use, each once, with the offset of its constraint: what
    /// ``PatternParser/parse(_:webSchemes:knownRegex:)`` compiles once the pattern has read well.
    var regexSources: [(source: String, offset: Int)] = []
    /// The writer's recent literals (``PatternParser/Lists``), lent for the parse.
    var literals = RecentLiterals()

    init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    private var atEnd: Bool { position == bytes.count }

    private func byte(at index: Int) -> UInt8? {
        index < bytes.count ? bytes[index] : nil
    }

    private func failure(_ offset: Int, _ message: String) -> RouterError {
        RouterError(.invalidPattern, offset: offset, message)
    }

    // MARK: pattern = [ scheme "://" [ host ] ] path

    @inline(__always)
    mutating func readPattern(webSchemes: Set<String>, reusing lists: inout PatternParser.Lists) throws(RouterError) -> Pattern {
        let scheme = try readScheme()
        var host = HostRule.any
        if let scheme {
            if webSchemes.contains(scheme) {
                position += 3
                host = try readHost()
            } else {
                // A custom scheme's host is its first path segment: read "scheme://REST" as the path
                // "/REST", starting at the second slash of "://" so offsets stay those of the input.
                // An empty host ("scheme:///REST", as the grammar allows) leaves the path "/REST"
                // too, as it does in a URL. A group may open the path right after "://", as it does
                // after a web host: "scheme://(/a)/b" is the path "(/a)/b", so a URL's host is `a`
                // in the variant with the group and `b` in the one without.
                position += 2
                if let next = byte(at: position + 1), next == UInt8(ascii: "/") || next == UInt8(ascii: "(") {
                    position += 1
                }
            }
        }
        if !hasGroupOpening(from: position) {
            // No group anywhere (not even a `(` inside a regex): one variant, read as it is.
            var segments: [Segment] = []
            swap(&segments, &lists.segments)
            try readPathWithoutGroups(into: &segments)
            var variants: [[Segment]] = []
            swap(&variants, &lists.variants)
            variants.append(segments)
            return Pattern(scheme: scheme, host: host, variants: variants)
        }
        let nodes = try readPath()
        let variants = try PatternExpansion.variants(of: nodes)
        return Pattern(scheme: scheme, host: host, variants: variants)
    }

    /// Whether a `(` follows `start` anywhere (a group, or one inside a regex): found with the C
    /// library's byte search, which reads a word at a time.
    private func hasGroupOpening(from start: Int) -> Bool {
        guard start < bytes.count, let base = bytes.baseAddress else { return false }
        return memchr(base + start, Int32(UInt8(ascii: "(")), bytes.count - start) != nil
    }

    /// `scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )`, followed by "://".
    ///
    /// Leaves `position` at the `:` of "://" and returns the lower-cased scheme, or returns `nil`
    /// at position 0 for a pattern without one.
    @inline(__always)
    private mutating func readScheme() throws(RouterError) -> String? {
        guard let first = byte(at: 0), first != UInt8(ascii: "/"), first != UInt8(ascii: "(") else { return nil }
        if ASCII.isAlpha(first) {
            var end = 1
            while let next = byte(at: end), ASCII.isSchemeCharacter(next) { end += 1 }
            if byte(at: end) == UInt8(ascii: ":"), byte(at: end + 1) == UInt8(ascii: "/"),
               byte(at: end + 2) == UInt8(ascii: "/") {
                position = end
                return String(decoding: bytes[0..<end].map(ASCII.lowercased), as: UTF8.self)
            }
        }
        throw failure(0, "pattern must start with '/', '(' or 'scheme://'")
    }

    // MARK: host = "*" | [ "*." ] reg-name   (web schemes)

    /// Reads the host up to the next `/`, `(` or the end, lower-cased.
    ///
    /// A pattern host is written as URLs write it: URL hosts are compared as written, never
    /// decoded, so a percent-escape in a pattern host is an error (at its `%`). An escape could
    /// only spell a character that is allowed raw, or a delimiter no URL host can carry.
    private mutating func readHost() throws(RouterError) -> HostRule {
        let start = position
        var end = start
        while let next = byte(at: end), next != UInt8(ascii: "/"), next != UInt8(ascii: "(") { end += 1 }
        defer { position = end }
        if end == start || (end == start + 1 && bytes[start] == UInt8(ascii: "*")) { return .any }

        var index = start
        var isSuffix = false
        if bytes[start] == UInt8(ascii: "*") {
            guard bytes[start + 1] == UInt8(ascii: ".") else {
                throw failure(start, "'*' in a host must be the whole host or a leading '*.' (as in '*.example.com')")
            }
            guard end > start + 2 else { throw failure(start, "'*.' must be followed by a domain, as in '*.example.com'") }
            isSuffix = true
            index = start + 2
        }

        var host: [UInt8] = []
        while index < end {
            let current = bytes[index]
            switch current {
            case UInt8(ascii: "%"):
                throw failure(index, "a percent-escape in a host: write the host as URLs carry it (letters, digits, '-', '.')")
            case UInt8(ascii: ":"):
                throw failure(index, "a pattern host cannot have a port; ports are ignored when matching")
            case UInt8(ascii: "*"):
                throw failure(index, "'*' in a host must be the whole host or a leading '*.' (as in '*.example.com')")
            case 0x80...:
                throw failure(index, "non-ASCII host: write it in its ASCII (punycode, 'xn--') form")
            default:
                guard ByteClass.isHostCharacter(current) else {
                    throw failure(index, "invalid character \(ByteClass.describe(current)) in host")
                }
                host.append(current)
            }
            index += 1
        }
        let name = String(decoding: host.map(ASCII.lowercased), as: UTF8.self)
        return isSuffix ? .suffix("." + name) : .exact(name)
    }

    // MARK: path = *( "/" segment / group ) [ "/" ]

    /// The whole path; at top level ``readItems(inGroup:)`` stops only at the end of input.
    private mutating func readPath() throws(RouterError) -> [PathNode] {
        try readItems(inGroup: false)
    }

    /// The whole path of a pattern that has no `(`: its segments in order, the one variant.
    /// ``readItems(inGroup:)`` restricted to what can occur without a group, with the same
    /// errors at the same offsets; it skips the path nodes and their expansion, which most
    /// patterns do not need.
    @inline(__always)
    private mutating func readPathWithoutGroups(into segments: inout [Segment]) throws(RouterError) {
        // Room for most paths at once (a longer one grows): counting its slashes first would
        // cost more than the list.
        segments.reserveCapacity(8)
        var wildcardOffset: Int?
        while let current = byte(at: position) {
            switch current {
            case UInt8(ascii: "/"):
                guard try segmentFollowsSlash(inGroup: false) else { continue }
                if let wildcardOffset { throw wildcardNotLast(at: wildcardOffset) }
                position += 1
                let start = position
                let segment = try readSegmentValue()
                if case .wildcard = segment { wildcardOffset = start }
                segments.append(segment)
            case UInt8(ascii: ")"):
                throw failure(position, "unbalanced ')'")
            default:
                throw failure(position, "a group must start with '/' or '(', as in '/a(/b)'")
            }
        }
    }

    /// Reads `"/" segment` and groups until the end of input, or until the `)` closing the current group.
    private mutating func readItems(inGroup: Bool) throws(RouterError) -> [PathNode] {
        var nodes: [PathNode] = []
        nodes.reserveCapacity(8)
        while let current = byte(at: position) {
            switch current {
            case UInt8(ascii: "/"):
                guard try segmentFollowsSlash(inGroup: inGroup) else { continue }
                try rejectAfterWildcard(nodes)
                position += 1
                nodes.append(try readSegment())
            case UInt8(ascii: "("):
                try rejectAfterWildcard(nodes)
                nodes.append(try readGroup())
                if let next = byte(at: position), next != UInt8(ascii: "/"), next != UInt8(ascii: "("),
                   next != UInt8(ascii: ")") {
                    throw failure(position, "text after a group: a group must be followed by '/', '(', ')' or the end")
                }
            case UInt8(ascii: ")"):
                if inGroup { return nodes }
                throw failure(position, "unbalanced ')'")
            default:
                // Only reachable right after a group's '(': every other position starts with '/' or '('.
                throw failure(position, "a group must start with '/' or '(', as in '/a(/b)'")
            }
        }
        return nodes
    }

    /// At a `/`: true when a segment follows it (`position` stays at the `/`); false after
    /// consuming a trailing `/`, which is ignored (inside a group the missing `)` is reported by
    /// the caller); an error for anything else a `/` cannot precede.
    private mutating func segmentFollowsSlash(inGroup: Bool) throws(RouterError) -> Bool {
        let slash = position
        switch byte(at: slash + 1) {
        case nil:
            position += 1
            return false
        case UInt8(ascii: "/"):
            throw failure(slash, "empty segment ('//')")
        case UInt8(ascii: "("):
            throw failure(slash + 1, "a group must follow a segment or start the path: write '/a(/b)', not '/a/(/b)'")
        case UInt8(ascii: ")"):
            if inGroup { throw failure(slash, "a group cannot end with '/'") }
            throw failure(slash + 1, "unbalanced ')'")
        default:
            return true
        }
    }

    /// A segment or group right after a wildcard of the same level always follows it in some
    /// expansion: report the wildcard now, before a later construct's error (leftmost first).
    /// Wildcards that only some expansions follow are found by ``PatternExpansion``.
    private func rejectAfterWildcard(_ nodes: [PathNode]) throws(RouterError) {
        if case .segment(.wildcard, let offset)? = nodes.last { throw wildcardNotLast(at: offset) }
    }

    private func wildcardNotLast(at offset: Int) -> RouterError {
        failure(offset, "a wildcard must be the last segment (in every optional-group variant)")
    }

    // MARK: group = "(" 1*( "/" segment / group ) ")"

    private mutating func readGroup() throws(RouterError) -> PathNode {
        let open = position
        groupCount += 1
        guard groupCount <= PatternExpansion.maxGroups else {
            throw failure(open, "more than \(PatternExpansion.maxGroups) optional groups in one pattern")
        }
        position += 1
        if byte(at: position) == UInt8(ascii: ")") { throw failure(open, "empty group '()'") }
        let children = try readItems(inGroup: true)
        guard byte(at: position) == UInt8(ascii: ")") else { throw failure(open, "unbalanced '(': missing ')'") }
        position += 1
        return .group(children, offset: open)
    }

    // MARK: segment = literal | param | wildcard

    /// Reads one segment; `position` is at its first byte, which is not `/`, `(`, `)` or the end.
    private mutating func readSegment() throws(RouterError) -> PathNode {
        let start = position
        return .segment(try readSegmentValue(), offset: start)
    }

    /// ``readSegment()`` without its offset.
    private mutating func readSegmentValue() throws(RouterError) -> Segment {
        switch bytes[position] {
        case UInt8(ascii: ":"): return try readColonParameter()
        case UInt8(ascii: "*"): return try readWildcard()
        default: return try readPieces()
        }
    }

    /// Ends a placeholder or wildcard: only a segment boundary may follow it.
    private func expectSegmentEnd(after construct: @autoclosure () -> String, rule: String) throws(RouterError) {
        guard let next = byte(at: position), !ByteClass.endsSegment(next) else { return }
        throw failure(position, "unexpected \(ByteClass.describe(next)) after \(construct()): \(rule)")
    }

    // MARK: literal = 1*( unreserved / pct-encoded / sub-delims / ":" / "@" )

    /// Reads a literal, a `{…}` placeholder, or a partial segment mixing text and `{…}`
    /// placeholders (`{name}.{ext}`, `v{major:int}`): one piece at a time up to the segment's end.
    private mutating func readPieces() throws(RouterError) -> Segment {
        // Most segments are plain ASCII literals: copied out in one allocation, no decoding.
        var end = position
        // '{' and the bytes that end a segment are no literal characters (all of which are
        // ASCII); the literal's hash for the recent literals is taken on the way.
        let (low, high) = ByteClass.literalCharacters.asciiWords
        var hash = RecentLiterals.hashSeed
        while end < bytes.count {
            let current = bytes[end]
            guard current < 0x80, (current < 64 ? low : high) &>> UInt64(current & 63) & 1 != 0 else { break }
            hash = RecentLiterals.hash(hash, current)
            end += 1
        }
        if end > position && (end == bytes.count || ByteClass.endsSegment(bytes[end])) {
            defer { position = end }
            return .literal(literals.array(of: UnsafeBufferPointer(rebasing: bytes[position..<end]), hash: hash))
        }
        // A placeholder that is the whole segment, the next most common: no pieces to collect.
        // (An unbalanced brace is left to the loop below, which reports it.)
        if end == position, bytes[position] == UInt8(ascii: "{"), let close = try? matchingBrace(from: position),
           close + 1 == bytes.count || ByteClass.endsSegment(bytes[close + 1]) {
            guard case .parameter(let name, let constraint) = try readBracedPlaceholder() else {
                preconditionFailure("a braced placeholder reads as a parameter piece")
            }
            return Self.wholeSegment(name: name, constraint: constraint)
        }
        var pieces: [PartialPiece] = []
        var text = DecodedText()
        while let current = byte(at: position), !ByteClass.endsSegment(current) {
            if current == UInt8(ascii: "{") {
                if !text.bytes.isEmpty {
                    try text.validate()
                    pieces.append(.text(text.bytes))
                    text = DecodedText()
                } else if case .parameter? = pieces.last {
                    throw failure(position, "two placeholders in one segment must be separated by text, as in '{a}-{b}'")
                }
                pieces.append(try readBracedPlaceholder())
                continue
            }
            if current == UInt8(ascii: "%") {
                try text.append(percentEscapeAt: position, in: bytes)
                position += 3
                continue
            }
            if current >= 0x80 {
                try appendRawUTF8(to: &text)
                continue
            }
            guard ByteClass.isLiteralCharacter(current) else {
                throw literalCharacterError(current, at: position)
            }
            text.append(current, from: position)
            position += 1
        }
        if !text.bytes.isEmpty {
            try text.validate()
            // A literal with escapes or non-ASCII bytes: no pieces to collect.
            if pieces.isEmpty { return .literal(text.bytes) }
            pieces.append(.text(text.bytes))
        }
        if pieces.count == 1, case .parameter(let name, let constraint) = pieces[0] {
            return Self.wholeSegment(name: name, constraint: constraint)
        }
        return .partial(pieces)
    }

    /// A placeholder alone in its segment: a plain or a constrained one.
    private static func wholeSegment(name: String, constraint: Constraint?) -> Segment {
        constraint.map { .constrained(name: name, $0) } ?? .parameter(name: name)
    }

    /// Appends the raw (unescaped) UTF-8 character at `position`.
    ///
    /// The pattern is text: its raw bytes must be UTF-8 on their own. Checking only the decoded
    /// literal would accept a raw lead byte completed by an escape (`\xD5%A7`), and such a pattern
    /// could not be kept as a string and parsed again (reverse routing, lint, dump).
    private mutating func appendRawUTF8(to text: inout DecodedText) throws(RouterError) {
        let length = UTF8Validation.sequenceLength(bytes.baseAddress!, bytes.count, at: position)
        guard length > 0 else {
            // An escape just before that this byte cannot complete is the earlier problem.
            try text.validate()
            throw failure(position, "invalid UTF-8 in pattern: raw bytes must be UTF-8; percent-encode other bytes")
        }
        for index in position..<(position + length) { text.append(bytes[index], from: index) }
        position += length
    }

    private func literalCharacterError(_ byte: UInt8, at offset: Int) -> RouterError {
        switch byte {
        case UInt8(ascii: "*"):
            return failure(offset, "'*' is only allowed as a whole last segment: '*' or '*name'")
        case UInt8(ascii: "}"):
            return failure(offset, "unbalanced '}'")
        case 0:
            return failure(offset, "NUL byte in pattern")
        default:
            return failure(offset, "invalid character \(ByteClass.describe(byte)) in a literal: percent-encode it as %\(ASCII.hex(byte))")
        }
    }

    // MARK: param = ":" name | "{" name [ ":" constraint ] "}"

    private mutating func readColonParameter() throws(RouterError) -> Segment {
        let start = position
        position += 1
        guard let first = byte(at: position), !ByteClass.endsSegment(first) else {
            throw failure(start, "empty parameter name after ':'")
        }
        guard ByteClass.isNameStart(first) else {
            throw failure(position, "invalid parameter name: it must start with a letter or '_'")
        }
        let nameStart = position
        while let next = byte(at: position), ByteClass.isNameCharacter(next) { position += 1 }
        try register(nameStart..<position, at: start)
        let name = String(decoding: UnsafeBufferPointer(rebasing: bytes[nameStart..<position]), as: UTF8.self)
        try expectSegmentEnd(after: "parameter ':\(name)'", rule: "a placeholder is a whole segment")
        return .parameter(name: name)
    }

    private mutating func readBracedPlaceholder() throws(RouterError) -> PartialPiece {
        let open = position
        let close = try matchingBrace(from: open)
        var colon: Int?
        for index in (open + 1)..<close where bytes[index] == UInt8(ascii: ":") {
            colon = index
            break
        }
        let nameEnd = colon ?? close
        guard nameEnd > open + 1 else { throw failure(open, "empty parameter name in '{…}'") }
        let name = try readName(from: open + 1, to: nameEnd)
        try register((open + 1)..<nameEnd, at: open)

        var constraint: Constraint?
        if let colon {
            guard close > colon + 1 else {
                throw failure(colon, "empty constraint after ':': write '{\(name)}' or '{\(name):int}'")
            }
            constraint = try readConstraint(from: colon + 1, to: close)
        }
        position = close + 1
        return .parameter(name: name, constraint: constraint)
    }

    /// Index of the `}` that closes the `{` at `open`, counting nested braces (regex quantifiers such
    /// as `{2,3}`) and skipping backslash-escaped bytes (`\{`), so `/` and `(` inside stay regex text.
    private func matchingBrace(from open: Int) throws(RouterError) -> Int {
        var depth = 0
        var index = open
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\\"):
                index += 1
            case UInt8(ascii: "{"):
                depth += 1
            case UInt8(ascii: "}"):
                depth -= 1
                if depth == 0 { return index }
            default:
                break
            }
            index += 1
        }
        throw failure(open, "unbalanced '{': missing '}'")
    }

    /// `name = ( ALPHA / "_" ) *( ALPHA / DIGIT / "_" )` spanning exactly `start..<end` (non-empty).
    private func readName(from start: Int, to end: Int) throws(RouterError) -> String {
        guard ByteClass.isNameStart(bytes[start]) else {
            throw failure(start, "invalid parameter name: it must start with a letter or '_'")
        }
        for index in (start + 1)..<end where !ByteClass.isNameCharacter(bytes[index]) {
            throw failure(start, "invalid parameter name: use letters, digits and '_' only")
        }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
    }

    // MARK: constraint = built-in name | regex

    private mutating func readConstraint(from start: Int, to end: Int) throws(RouterError) -> Constraint {
        let raw = UnsafeBufferPointer(rebasing: bytes[start..<end])
        if raw.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) {
            // Printable ASCII (a built-in name, most regexes): nothing to reject or decode.
            return constraint(String(decoding: raw, as: UTF8.self), at: start)
        }
        var text = DecodedText()
        for index in start..<end {
            let current = bytes[index]
            if current == 0 { throw failure(index, "NUL byte in pattern") }
            if current < 0x20 || current == 0x7F {
                throw failure(index, "control character \(ByteClass.describe(current)) in regex: use an escape such as \\x{\(ASCII.hex(current))}")
            }
            text.append(current, from: index)
        }
        try text.validate()
        return constraint(String(decoding: text.bytes, as: UTF8.self), at: start)
    }

    /// The built-in constraint named `source`, or `source` as a regex (noted for compiling).
    private mutating func constraint(_ source: String, at start: Int) -> Constraint {
        if let builtin = Constraint(builtinName: source) { return builtin }
        if !regexSources.contains(where: { $0.source == source }) { regexSources.append((source, start)) }
        return .regex(source)
    }

    // MARK: wildcard = "*" [ name ]

    private mutating func readWildcard() throws(RouterError) -> Segment {
        let start = position
        position += 1
        var name = "*"
        var nameRange = start..<position
        if let first = byte(at: position), ByteClass.isNameStart(first) {
            let nameStart = position
            while let next = byte(at: position), ByteClass.isNameCharacter(next) { position += 1 }
            nameRange = nameStart..<position
            name = String(decoding: UnsafeBufferPointer(rebasing: bytes[nameRange]), as: UTF8.self)
        }
        // The '*' is the offending construct when more text follows it in its segment ('*.json').
        if let next = byte(at: position), !ByteClass.endsSegment(next) {
            throw failure(start, "'*' is only allowed as a whole last segment: '*' or '*name', not followed by \(ByteClass.describe(next))")
        }
        try register(nameRange, at: start)
        return .wildcard(name: name)
    }

    /// Records the name spelled by `name` (a range of the pattern's bytes), rejecting a second use
    /// anywhere in the pattern (all groups, wildcards included).
    @inline(__always)
    private mutating func register(_ name: Range<Int>, at offset: Int) throws(RouterError) {
        let seen = (0..<min(nameCount, firstNames.count)).contains { spellSame(firstNames[$0], name) }
            || moreNames.contains { spellSame($0, name) }
        guard !seen else {
            throw failure(offset, "duplicate parameter name '\(String(decoding: UnsafeBufferPointer(rebasing: bytes[name]), as: UTF8.self))'")
        }
        if nameCount < firstNames.count { firstNames[nameCount] = name } else { moreNames.append(name) }
        nameCount += 1
    }

    /// Whether two ranges of the pattern's bytes spell the same name.
    private func spellSame(_ lhs: Range<Int>, _ rhs: Range<Int>) -> Bool {
        lhs.count == rhs.count && ByteComparison.equal(bytes.baseAddress! + lhs.lowerBound, bytes.baseAddress! + rhs.lowerBound,
                                                        lhs.count, folded: false)
    }
}

/// Bytes decoded from pattern text, each remembering the offset of the input that produced it,
/// so UTF-8 and NUL errors point at what the user wrote (the `%` of an escape).
private struct DecodedText {
    private(set) var bytes: [UInt8] = []
    /// Input offset of each byte, kept only once they stop being consecutive (after an escape):
    /// until then byte `i` came from `firstOffset + i`, and most literals never need the array.
    private var offsets: [Int]?
    private var firstOffset = 0

    mutating func append(_ byte: UInt8, from offset: Int) {
        if bytes.isEmpty { firstOffset = offset }
        if offsets == nil && offset != firstOffset + bytes.count {
            offsets = Array(firstOffset..<(firstOffset + bytes.count))
        }
        bytes.append(byte)
        offsets?.append(offset)
    }

    /// Input offset of decoded byte `index`.
    private func offset(of index: Int) -> Int { offsets?[index] ?? firstOffset + index }

    /// Decodes `%XX` at `offset`; rejects a malformed escape and `%00`.
    mutating func append(percentEscapeAt offset: Int, in input: UnsafeBufferPointer<UInt8>) throws(RouterError) {
        let complete = offset + 2 < input.count
        let high = complete ? ASCII.hexValue(input[offset + 1]) : 0xFF
        let low = complete ? ASCII.hexValue(input[offset + 2]) : 0xFF
        guard high != 0xFF, low != 0xFF else {
            throw RouterError(.invalidPattern, offset: offset, "invalid percent-escape: '%' must be followed by two hex digits")
        }
        let value = high << 4 | low
        guard value != 0 else { throw RouterError(.invalidPattern, offset: offset, "'%00' (NUL) is not allowed") }
        append(value, from: offset)
    }

    /// Requires well-formed UTF-8 (no overlongs, surrogates or code points above U+10FFFF).
    func validate() throws(RouterError) {
        if let bad = UTF8Validation.firstInvalidIndex(bytes) {
            throw RouterError(.invalidPattern, offset: offset(of: bad), "invalid UTF-8 in pattern")
        }
    }
}

/// The pattern grammar's byte classes, on top of ``ASCII``'s.
private enum ByteClass {
    static func isNameStart(_ byte: UInt8) -> Bool { ASCII.isAlpha(byte) || byte == UInt8(ascii: "_") }
    static func isNameCharacter(_ byte: UInt8) -> Bool { isNameStart(byte) || ASCII.isDigit(byte) }

    /// Sub-delimiters without "(" ")" "*", which the pattern language reserves for groups and wildcards.
    static func isSubDelimiter(_ byte: UInt8) -> Bool {
        ASCII.isSubDelimiter(byte) && byte != UInt8(ascii: "(") && byte != UInt8(ascii: ")") && byte != UInt8(ascii: "*")
    }

    /// A raw ASCII byte allowed in a literal (`%` escapes and bytes ≥ 0x80 are handled apart).
    static func isLiteralCharacter(_ byte: UInt8) -> Bool { literalCharacters.contains(byte) }

    /// The bytes of ``isLiteralCharacter(_:)``, one bit each, made once from the rule: every
    /// byte of a literal is tested, and the rule's branches cost more than a pattern's other work.
    static let literalCharacters = ByteSet { byte in
        ASCII.isUnreserved(byte) || isSubDelimiter(byte) || byte == UInt8(ascii: ":") || byte == UInt8(ascii: "@")
    }

    /// A raw byte allowed in a host (`%` escapes are handled apart).
    static func isHostCharacter(_ byte: UInt8) -> Bool { ASCII.isUnreserved(byte) || isSubDelimiter(byte) }

    static func endsSegment(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "/") || byte == UInt8(ascii: "(") || byte == UInt8(ascii: ")")
    }

    /// A byte as a message shows it: `'?'` when printable ASCII, `byte 0x0A` otherwise.
    static func describe(_ byte: UInt8) -> String {
        if byte > 0x20 && byte < 0x7F { return "'\(String(decoding: [byte], as: UTF8.self))'" }
        if byte == 0x20 { return "' ' (space)" }
        return "byte 0x\(ASCII.hex(byte))"
    }
}
