import Testing
@testable import FastRouter

/// Parses `bytes` with the default web schemes (or those given).
private func parse(_ bytes: [UInt8], webSchemes: Set<String> = ["http", "https"]) -> Result<Pattern, RouterError> {
    bytes.withUnsafeBufferPointer { buffer in
        do throws(RouterError) {
            return .success(try PatternParser.parse(buffer, webSchemes: webSchemes))
        } catch {
            return .failure(error)
        }
    }
}

private func parse(_ text: String, webSchemes: Set<String> = ["http", "https"]) -> Result<Pattern, RouterError> {
    parse(Array(text.utf8), webSchemes: webSchemes)
}

/// The pattern, or a test failure naming the error.
private func parsed(_ text: String, webSchemes: Set<String> = ["http", "https"],
                    sourceLocation: SourceLocation = #_sourceLocation) -> Pattern? {
    switch parse(text, webSchemes: webSchemes) {
    case .success(let pattern):
        return pattern
    case .failure(let error):
        Issue.record("\(text.debugDescription) failed: \(error)", sourceLocation: sourceLocation)
        return nil
    }
}

private func variants(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> [[Segment]]? {
    parsed(text, sourceLocation: sourceLocation)?.variants
}

private func lit(_ text: String) -> Segment { .literal(Array(text.utf8)) }
private func param(_ name: String) -> Segment { .parameter(name: name) }

/// One rejected pattern: its bytes, the code and offset it must report.
struct RejectedPattern: CustomTestStringConvertible, Sendable {
    var bytes: [UInt8]
    var offset: Int
    var code: RouterError.Code = .invalidPattern

    init(_ text: String, _ offset: Int, _ code: RouterError.Code = .invalidPattern) {
        self.bytes = Array(text.utf8)
        self.offset = offset
        self.code = code
    }

    init(bytes: [UInt8], _ offset: Int) {
        self.bytes = bytes
        self.offset = offset
    }

    var testDescription: String { String(decoding: bytes, as: UTF8.self).debugDescription }
}

@Suite struct PatternParserTests {
    // MARK: roots, literals, trailing slash

    @Test func emptyPatternAndSlashAreTheGlobalRoot() throws {
        for text in ["", "/"] {
            let pattern = try #require(parsed(text))
            #expect(pattern.scheme == nil)
            #expect(pattern.host == .any)
            #expect(pattern.variants == [[]])
            #expect(pattern.regexes.isEmpty)
        }
    }

    @Test func literalSegmentsSplitOnSlash() {
        #expect(variants("/users/list") == [[lit("users"), lit("list")]])
        #expect(variants("/a") == [[lit("a")]])
    }

    @Test func oneTrailingSlashIsIgnored() {
        #expect(variants("/a/") == variants("/a"))
        #expect(variants("/a/b/") == [[lit("a"), lit("b")]])
        #expect(variants("/a(/b)/") == [[lit("a"), lit("b")], [lit("a")]])
    }

    @Test func literalsAcceptUnreservedSubDelimsColonAndAt() {
        #expect(variants("/a-._~Z9") == [[lit("a-._~Z9")]])
        #expect(variants("/!$&'+,;=") == [[lit("!$&'+,;=")]])
        #expect(variants("/a:b") == [[lit("a:b")]])
        #expect(variants("/a@b:") == [[lit("a@b:")]])
        #expect(variants("/@me") == [[lit("@me")]])
    }

    @Test func literalsArePercentDecodedAtParseTime() {
        #expect(variants("/a%20b") == [[lit("a b")]])
        #expect(variants("/%2F") == [[lit("/")]])
        #expect(variants("/%e2%82%AC") == [[lit("€")]])
        #expect(variants("/100%25") == [[lit("100%")]])
    }

    @Test func rawUTF8IsAcceptedInLiterals() {
        #expect(variants("/café/日本") == [[lit("café"), lit("日本")]])
        #expect(variants("/😀") == [[lit("😀")]])
    }

    // MARK: placeholders and wildcards

    @Test func colonAndBraceParametersAreEquivalent() {
        #expect(variants("/users/:id") == [[lit("users"), param("id")]])
        #expect(variants("/users/{id}") == [[lit("users"), param("id")]])
        #expect(variants("/:_a1/{B_2}") == [[param("_a1"), param("B_2")]])
    }

    @Test(arguments: [
        ("int", Constraint.int), ("uint", .uint), ("float", .float), ("uuid", .uuid),
        ("alpha", .alpha), ("alnum", .alnum), ("hex", .hex),
    ])
    func builtinConstraintNamesNeedNoRegex(name: String, constraint: Constraint) throws {
        let pattern = try #require(parsed("/{x:\(name)}"))
        #expect(pattern.variants == [[.constrained(name: "x", constraint)]])
        #expect(pattern.regexes.isEmpty)
    }

    @Test func otherConstraintsAreCompiledRegexes() throws {
        let pattern = try #require(parsed("/{x:[0-9]{2,3}}/{y:Int}"))
        #expect(pattern.variants == [[.constrained(name: "x", .regex("[0-9]{2,3}")), .constrained(name: "y", .regex("Int"))]])
        #expect(pattern.regexes.keys.sorted() == ["Int", "[0-9]{2,3}"])
        #expect(pattern.regexes["[0-9]{2,3}"]?.source == "[0-9]{2,3}")
    }

    @Test func regexesMayHoldSlashesParenthesesAndEscapedBraces() {
        #expect(variants("/{p:a/b}") == [[.constrained(name: "p", .regex("a/b"))]])
        #expect(variants("/{p:(a|b)+}/c") == [[.constrained(name: "p", .regex("(a|b)+")), lit("c")]])
        #expect(variants("/{p:\\{[a-z]+\\}}") == [[.constrained(name: "p", .regex("\\{[a-z]+\\}"))]])
        #expect(variants("/{p:a:b?#}") == [[.constrained(name: "p", .regex("a:b?#"))]])
        #expect(variants("/{p:é+}") == [[.constrained(name: "p", .regex("é+"))]])
    }

    @Test func aRegexUsedTwiceCompilesOnce() throws {
        let pattern = try #require(parsed("/{a:[a-z]+}/{b:[a-z]+}"))
        #expect(pattern.regexes.count == 1)
    }

    @Test func wildcardsAreUnnamedOrNamed() {
        #expect(variants("/*") == [[.wildcard(name: "*")]])
        #expect(variants("/files/*path") == [[lit("files"), .wildcard(name: "path")]])
        #expect(variants("/files/*path/") == [[lit("files"), .wildcard(name: "path")]])
        #expect(variants("/a(/*rest)") == [[lit("a"), .wildcard(name: "rest")], [lit("a")]])
    }

    // MARK: schemes and hosts

    @Test func customSchemeHostIsTheFirstSegment() throws {
        let pattern = try #require(parsed("myapp://users/:id"))
        #expect(pattern.scheme == "myapp")
        #expect(pattern.host == .any)
        #expect(pattern.variants == [[lit("users"), param("id")]])
    }

    @Test func customSchemeRootAndCaseFolding() throws {
        let root = try #require(parsed("myapp://"))
        #expect(root.scheme == "myapp")
        #expect(root.variants == [[]])
        let folded = try #require(parsed("My.App+x-1://Users/"))
        #expect(folded.scheme == "my.app+x-1")
        // The host segment of a custom scheme is a path literal: its case is kept here.
        #expect(folded.variants == [[lit("Users")]])
    }

    @Test func webSchemeHostRules() throws {
        let exact = try #require(parsed("HTTPS://Example.COM/a"))
        #expect(exact.scheme == "https")
        #expect(exact.host == .exact("example.com"))
        #expect(exact.variants == [[lit("a")]])
        #expect(try #require(parsed("https://*.Example.com/a")).host == .suffix(".example.com"))
        #expect(try #require(parsed("http://*/a")).host == .any)
        #expect(try #require(parsed("http:///a")).host == .any)
        #expect(try #require(parsed("http://example.com")).variants == [[]])
        #expect(try #require(parsed("http://example.com/")).variants == [[]])
        #expect(try #require(parsed("http://*")).host == .any)
        let bare = try #require(parsed("http://"))
        #expect(bare.host == .any)
        #expect(bare.variants == [[]])
        #expect(try #require(parsed("http://a-b_c~d!$&'+,;=.com/")).host == .exact("a-b_c~d!$&'+,;=.com"))
    }

    @Test func webSchemeHostMayBeFollowedByAGroup() throws {
        let pattern = try #require(parsed("http://example.com(/a)"))
        #expect(pattern.host == .exact("example.com"))
        #expect(pattern.variants == [[lit("a")], []])
    }

    @Test func aGroupMayOpenACustomSchemePath() throws {
        let wide = try #require(parsed("myapp://(/a)(/*rest)"))
        #expect(wide.scheme == "myapp")
        #expect(wide.host == .any)
        #expect(wide.variants == [
            [lit("a"), .wildcard(name: "rest")], [lit("a")], [.wildcard(name: "rest")], [],
        ])
        let single = try #require(parsed("myapp://(/a)"))
        #expect(single.scheme == "myapp")
        #expect(single.variants == [[lit("a")], []])
        let thenLiteral = try #require(parsed("app://(/:p0)/x"))
        #expect(thenLiteral.scheme == "app")
        #expect(thenLiteral.variants == [[param("p0"), lit("x")], [lit("x")]])
        #expect(try #require(parsed("myapp://(/a(/b))/c")).variants == [
            [lit("a"), lit("b"), lit("c")], [lit("a"), lit("c")], [lit("c")],
        ])
        // After a host, as before.
        #expect(try #require(parsed("myapp://h(/a)")).variants == [[lit("h"), lit("a")], [lit("h")]])
    }

    @Test func aGroupOpensACustomSchemePathAsItOpensAWebOne() throws {
        // The same path after "://" gives the same variants, the host aside.
        for path in ["(/a)", "(/a)(/*rest)", "(/:p0)/x", "(/a)/b(/c)", "(/{v:int})"] {
            let web = try #require(parsed("https://" + path))
            let custom = try #require(parsed("myapp://" + path))
            #expect(web.host == .any)
            #expect(custom.variants == web.variants, "\(path)")
            let global = try #require(parsed(path))
            #expect(custom.variants == global.variants, "\(path)")
        }
    }

    @Test func webSchemesComeFromTheOptions() throws {
        let custom = try #require(parsed("myapp-web://Shop.example/a", webSchemes: ["myapp-web"]))
        #expect(custom.host == .exact("shop.example"))
        #expect(custom.variants == [[lit("a")]])
        let notWeb = try #require(parsed("http://example.com/a", webSchemes: []))
        #expect(notWeb.host == .any)
        #expect(notWeb.variants == [[lit("example.com"), lit("a")]])
    }

    // MARK: groups

    @Test func groupsExpandInWrittenOrderPresentFirst() {
        #expect(variants("/a(/b)(/:c)") == [
            [lit("a"), lit("b"), param("c")], [lit("a"), lit("b")], [lit("a"), param("c")], [lit("a")],
        ])
        #expect(variants("/a(/b(/c))") == [[lit("a"), lit("b"), lit("c")], [lit("a"), lit("b")], [lit("a")]])
        #expect(variants("(/a)") == [[lit("a")], []])
        #expect(variants("/a(/b)/c") == [[lit("a"), lit("b"), lit("c")], [lit("a"), lit("c")]])
        #expect(variants("(/a)(/b)") == [[lit("a"), lit("b")], [lit("a")], [lit("b")], []])
        #expect(variants("/a(/b/c)") == [[lit("a"), lit("b"), lit("c")], [lit("a")]])
    }

    @Test func threeGroupsGiveEightVariantsWithTheFirstVaryingSlowest() throws {
        let all = try #require(variants("/a(/b)(/c)(/d)"))
        let names = all.map { variant in
            variant.map { segment -> String in
                if case .literal(let bytes) = segment { return String(decoding: bytes, as: UTF8.self) }
                return "?"
            }.joined()
        }
        #expect(names == ["abcd", "abc", "abd", "ab", "acd", "ac", "ad", "a"])
    }

    @Test func eightGroupsAreAllowed() throws {
        let text = "/a" + (1...8).map { "(/g\($0))" }.joined()
        #expect(try #require(variants(text)).count == 256)
        let nested = "/a" + String(repeating: "(/b", count: 8) + String(repeating: ")", count: 8)
        #expect(try #require(variants(nested)).count == 9)
    }

    @Test func everyVariantKeepsTheSchemeAndHost() throws {
        let pattern = try #require(parsed("https://api.example.com/v1(/:x)"))
        #expect(pattern.scheme == "https")
        #expect(pattern.host == .exact("api.example.com"))
        #expect(pattern.variants == [[lit("v1"), param("x")], [lit("v1")]])
    }

    // MARK: errors, each with its offset

    static let rejected: [RejectedPattern] = [
        // start
        RejectedPattern("users/:id", 0), RejectedPattern("1x://a", 0), RejectedPattern("http:/a", 0),
        RejectedPattern("http:a", 0), RejectedPattern("://a", 0), RejectedPattern(" /a", 0),
        RejectedPattern("a_b://x", 0), RejectedPattern("http//a", 0), RejectedPattern(")", 0),
        // hosts
        RejectedPattern("http://a:8080/x", 8), RejectedPattern("http://a:/x", 8), RejectedPattern("http://a*.b/x", 8),
        RejectedPattern("http://*example.com/", 7), RejectedPattern("http://a.*.b/", 9),
        RejectedPattern("http://**.b/", 7), RejectedPattern("http://*./", 7), RejectedPattern("http://ex ample.com/", 9),
        RejectedPattern("http://café.com/", 10), RejectedPattern("http://u@b/", 8), RejectedPattern("http://a%zz/", 8),
        RejectedPattern("http://a%00/", 8),
        RejectedPattern("http://a%2Fb/x", 8), RejectedPattern("https://a%40b/", 9), RejectedPattern("https://ex%41mple.com/", 10), RejectedPattern("http://a)/", 8), RejectedPattern("http://{h}.com/", 7),
        // slashes
        RejectedPattern("//a", 0), RejectedPattern("/a//b", 2), RejectedPattern("/a//", 2),
        RejectedPattern("myapp:////a", 8), RejectedPattern("myapp://a//b", 9), RejectedPattern("http://h//a", 8),
        // groups
        RejectedPattern("/a/(/b)", 3), RejectedPattern("/(/a)", 1), RejectedPattern("myapp://a/(/b)", 10),
        RejectedPattern("https://x.com/(/a)", 14), RejectedPattern("myapp:///(/a)", 9), RejectedPattern("https:///(/a)", 9),
        RejectedPattern("myapp://()", 8), RejectedPattern("myapp://(a)", 9), RejectedPattern("myapp://(/a", 8),
        RejectedPattern("myapp://(/a)b", 12), RejectedPattern("myapp://(/*)/a", 10),
        RejectedPattern("()", 0), RejectedPattern("/a()", 2), RejectedPattern("(/)", 1), RejectedPattern("/a(/b/)", 5),
        RejectedPattern("/a(/b)c", 6), RejectedPattern("/a(/b):c", 6), RejectedPattern("(a)", 1),
        RejectedPattern("/a(/b", 2), RejectedPattern("/a(/b/", 2), RejectedPattern("/a(/b(/c)", 2),
        RejectedPattern("/a)", 2), RejectedPattern("/a(/b))", 6), RejectedPattern("/a/)", 3), RejectedPattern("(/a))", 4),
        // names
        RejectedPattern("/:", 1), RejectedPattern("/:/a", 1), RejectedPattern("/:(/a)", 1), RejectedPattern("/{}", 1),
        RejectedPattern("/{:int}", 1), RejectedPattern("/:1a", 2), RejectedPattern("/{1a}", 2), RejectedPattern("/{a-b}", 2),
        RejectedPattern("/{a b:int}", 2), RejectedPattern("/:é", 2),
        // braces and placeholders
        RejectedPattern("/{x:}", 3), RejectedPattern("/{x", 1), RejectedPattern("/{x:[0-9]{2}", 1), RejectedPattern("/{x:\\}", 1),
        RejectedPattern("/a}", 2), RejectedPattern("/}", 1), RejectedPattern("/:id.json", 4),
        RejectedPattern("/{a}{b}", 4), RejectedPattern("/x{a}{b:int}", 5), RejectedPattern("/:id:x", 4),
        // wildcards
        // (a '*' with more text in its segment is reported at the '*')
        RejectedPattern("/*.json", 1), RejectedPattern("/*1", 1), RejectedPattern("/*a.b", 1), RejectedPattern("/a*", 2),
        RejectedPattern("/**", 1), RejectedPattern("/x/*a*", 3), RejectedPattern("/:a*", 3), RejectedPattern("/{a}*", 4),
        RejectedPattern("/*/a", 1), RejectedPattern("/*a/b", 1), RejectedPattern("/a(/*)(/b)", 4), RejectedPattern("(/*)/a", 2),
        RejectedPattern("/a(/*(/b))", 4), RejectedPattern("/*(/a)", 1), RejectedPattern("/*x/:x", 1), RejectedPattern("/*/{", 1),
        // duplicates (the second occurrence)
        RejectedPattern("/:id/:id", 5), RejectedPattern("/:id/{id:int}", 5), RejectedPattern("/:id(/{id})", 6),
        RejectedPattern("/a(/*)/*", 7), RejectedPattern("/:x/*x", 4), RejectedPattern("/:x(/b)(/*x)", 9),
        RejectedPattern("(/:a)(/:a)", 7),
        // percent-escapes and UTF-8
        RejectedPattern("/a%G1", 2), RejectedPattern("/a%4", 2), RejectedPattern("/a%4/", 2), RejectedPattern("/a%", 2),
        RejectedPattern("/%00", 1), RejectedPattern("/a%C3%28", 2), RejectedPattern("/a%C3", 2), RejectedPattern("/%80", 1),
        RejectedPattern("/%ED%A0%80", 1), RejectedPattern("/%C0%AF", 1), RejectedPattern("/%F4%90%80%80", 1),
        RejectedPattern("/ok/%E2%82", 4), RejectedPattern("/é%80", 3),
        RejectedPattern(bytes: [0x2F, 0xFF], 1), RejectedPattern(bytes: [0x2F, 0x61, 0xC3], 2),
        RejectedPattern(bytes: [0x2F, 0xC3, 0xA9, 0xE2, 0x82], 3),
        // raw bytes must be UTF-8 on their own, even when an escape would complete them
        RejectedPattern(bytes: Array("/n".utf8) + [0xD5] + Array("%A7".utf8), 2),
        RejectedPattern(bytes: Array("/a%C3".utf8) + [0xA9], 2), RejectedPattern(bytes: Array("/ok/".utf8) + [0xA9], 4),
        // raw characters that must be percent-encoded
        RejectedPattern("/a b", 2), RejectedPattern("/a\"", 2), RejectedPattern("/<", 1), RejectedPattern("/>", 1),
        RejectedPattern("/a?b", 2), RejectedPattern("/a#b", 2), RejectedPattern("/[", 1), RejectedPattern("/]", 1),
        RejectedPattern("/\\", 1), RejectedPattern("/^", 1), RejectedPattern("/`", 1), RejectedPattern("/|", 1),
        RejectedPattern("/a\tb", 2), RejectedPattern("/\u{7F}", 1), RejectedPattern(bytes: [0x2F, 0x61, 0x00], 2),
        RejectedPattern(bytes: [0x00], 0), RejectedPattern(bytes: [0x2F, 0x00, 0x61], 1),
        // regexes: control bytes and NUL are rejected before PCRE2 sees them
        RejectedPattern("/{x:a\tb}", 5), RejectedPattern(bytes: Array("/{x:a".utf8) + [0x00] + Array("}".utf8), 5),
        RejectedPattern(bytes: Array("/{x:a".utf8) + [0xFF] + Array("}".utf8), 5),
        // PCRE2 compile errors: offset of the regex plus PCRE2's offset
        RejectedPattern("/{x:a(}", 6, .invalidRegex), RejectedPattern("/a/{x:[z-a]}", 9, .invalidRegex),
        RejectedPattern("/{x:*a}", 4, .invalidRegex), RejectedPattern("myapp://{x:a)}", 12, .invalidRegex),
        // regexes compile once the whole pattern reads well: a syntax error after a bad regex comes first
        RejectedPattern("/{x:a(}/a b", 9), RejectedPattern("/{x:[z-a]}/{x}", 11),
        // whole-segment placeholders and partial segments read alike
        RejectedPattern("/{x}{y}", 4), RejectedPattern("/{x", 1), RejectedPattern("/{}", 1),
    ]

    @Test(arguments: rejected)
    func rejectsWithOffset(_ case: RejectedPattern) {
        switch parse(`case`.bytes) {
        case .success(let pattern):
            Issue.record("accepted: \(pattern.variants)")
        case .failure(let error):
            #expect(error.code == `case`.code, "\(error)")
            #expect(error.offset == `case`.offset, "\(error)")
            #expect(!error.message.isEmpty)
            #expect(!error.message.contains("\n"))
        }
    }

    @Test func ninthGroupIsRejectedAtItsParenthesis() throws {
        let flat = "/a" + (1...9).map { "(/g\($0))" }.joined()
        let flatNinth = try #require(flat.utf8.indices.filter { flat.utf8[$0] == UInt8(ascii: "(") }.last)
        let nested = "/a" + String(repeating: "(/b", count: 9) + String(repeating: ")", count: 9)
        let nestedNinth = try #require(nested.utf8.indices.filter { nested.utf8[$0] == UInt8(ascii: "(") }.last)
        for (text, index) in [(flat, flatNinth), (nested, nestedNinth)] {
            guard case .failure(let error) = parse(text) else {
                Issue.record("\(text) accepted")
                continue
            }
            #expect(error.code == .invalidPattern)
            #expect(error.offset == text.utf8.distance(from: text.utf8.startIndex, to: index))
            #expect(error.message.contains("8"))
        }
    }

    @Test func patternsOver8KiBAreRejectedAtOffset8192() {
        let longest = "/" + String(repeating: "a", count: 8191)
        #expect(variants(longest)?.count == 1)
        guard case .failure(let error) = parse(longest + "a") else {
            Issue.record("8193-byte pattern accepted")
            return
        }
        #expect(error.code == .invalidPattern)
        #expect(error.offset == 8192)
    }

    @Test func regexErrorsCarryPCRE2Messages() {
        guard case .failure(let error) = parse("/{x:a(}") else {
            Issue.record("accepted")
            return
        }
        #expect(error.code == .invalidRegex)
        #expect(error.message.contains("parenthesis"))
    }

    @Test func errorsNameWhatWentWrong() {
        func message(_ text: String) -> String {
            if case .failure(let error) = parse(text) { return error.message }
            return ""
        }
        #expect(message("users/:id") == "pattern must start with '/', '(' or 'scheme://'")
        #expect(message("/{}").contains("empty parameter name"))
        #expect(message("/:1").contains("invalid parameter name"))
        #expect(message("/:a/:a").contains("duplicate parameter name 'a'"))
        #expect(message("/a b").contains("%20"))
        #expect(message("http://a:80/").contains("port"))
        #expect(message("/*/a").contains("last segment"))
        #expect(message("/a(/b").contains("unbalanced '('"))
        #expect(message("/a)").contains("unbalanced ')'"))
        #expect(message("/a/(/b)").contains("a group must follow a segment or start the path"))
        #expect(message("/a%4").contains("percent-escape"))
    }

    // MARK: every byte value inside a literal

    /// Raw ASCII bytes a literal keeps as they are (RFC 3986 unreserved, sub-delims but "(" ")" "*", ":" and "@").
    static let literalASCII = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~!$&'+,;=:@".utf8)

    @Test func everyByteValueInsideALiteral() throws {
        for value in 0...255 {
            let byte = UInt8(value)
            let bytes: [UInt8] = [0x2F, 0x61, byte, 0x7A]   // "/a?z"
            let result = parse(bytes)
            switch byte {
            case _ where Self.literalASCII.contains(byte):
                #expect(try result.get().variants == [[.literal([0x61, byte, 0x7A])]], "byte \(value)")
            case UInt8(ascii: "/"):
                #expect(try result.get().variants == [[lit("a"), lit("z")]], "byte \(value)")
            case UInt8(ascii: "("):
                // "(z" opens a group that does not start with '/'.
                #expect(result.failureOffset == 3, "byte \(value)")
            default:
                // Everything else, including every byte ≥ 0x80 on its own (invalid UTF-8), is an error at it.
                #expect(result.failureOffset == 2, "byte \(value)")
            }
        }
    }

    @Test func everyByteValueAfterAPercentSign() throws {
        for value in 0...255 {
            let byte = UInt8(value)
            let result = parse([0x2F, 0x25, byte, 0x31])   // "/%?1"
            let isHex = (0x30...0x39).contains(byte) || (0x41...0x46).contains(byte) || (0x61...0x66).contains(byte)
            if isHex {
                // The decoded byte is ASCII when the high digit is below 8, otherwise a lone non-ASCII byte.
                let decoded = UInt8(Int(String(decoding: [byte, 0x31], as: UTF8.self), radix: 16)!)
                if decoded < 0x80 {
                    #expect(try result.get().variants == [[.literal([decoded])]], "byte \(value)")
                } else {
                    #expect(result.failureOffset == 1, "byte \(value)")
                }
            } else {
                #expect(result.failureOffset == 1, "byte \(value)")
            }
        }
    }

    @Test func everyByteValueInsideAHost() throws {
        let hostASCII = Set("abcdefghijklmnopqrstuvwxyz0123456789-._~!$&'+,;=".utf8)
        for value in 0...255 {
            let byte = UInt8(value)
            let bytes = Array("http://a".utf8) + [byte] + Array("z/p".utf8)
            let result = parse(bytes)
            let lower = byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
            switch byte {
            case _ where hostASCII.contains(lower):
                let host = String(decoding: [0x61, lower, 0x7A], as: UTF8.self)
                #expect(try result.get().host == .exact(host), "byte \(value)")
            case UInt8(ascii: "/"):
                #expect(try result.get().host == .exact("a"), "byte \(value)")
            case UInt8(ascii: "("):
                #expect(result.failureOffset == 9, "byte \(value)")
            default:
                #expect(result.failureOffset == 8, "byte \(value)")
            }
        }
    }

    /// Random byte strings over the grammar's alphabet: always a pattern or an error within bounds.
    @Test func randomPatternsNeverCrash() {
        let alphabet = Array("/(){}:*%.-_~aZ9\\[]+?éhttp://x".utf8) + [0x00, 0xFF, 0xC3, 0x20]
        var generator = SeededRandom(seed: 0x5EED)
        for _ in 0..<20_000 {
            let length = Int(generator.next() % 24)
            var bytes: [UInt8] = []
            for _ in 0..<length { bytes.append(alphabet[Int(generator.next() % UInt64(alphabet.count))]) }
            if bytes.first != UInt8(ascii: "(") && generator.next() % 2 == 0 { bytes.insert(UInt8(ascii: "/"), at: 0) }
            switch parse(bytes) {
            case .success(let pattern):
                #expect(!pattern.variants.isEmpty)
                #expect(pattern.variants.count <= 256)
            case .failure(let error):
                #expect(error.offset >= 0 && error.offset <= bytes.count, "\(bytes) → \(error)")
            }
        }
    }
}

private extension Result where Failure == RouterError {
    /// The error's offset, or `nil` when parsing succeeded.
    var failureOffset: Int? {
        if case .failure(let error) = self { return error.offset }
        return nil
    }
}

/// A small seeded generator (SplitMix64) so the random cases replay identically.
private struct SeededRandom {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
