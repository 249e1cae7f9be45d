import FastRouter
import Foundation
import Testing

/// A URL, the route it must reach and every parameter pair that match carries, in order.
struct URLDecodingCase: Sendable, CustomTestStringConvertible {
    var label: String
    var options = RouterOptions()
    var routes: [String]
    var url: String
    /// Index into `routes` of the best match, or nil for no match.
    var route: Int?
    var pairs: [String] = []
    var fragment: String?? = .none

    var testDescription: String { label }
}

@Suite struct URLDecodingTests {
    static func makeRouter(_ routes: [String], options: RouterOptions = RouterOptions()) throws -> Router<Int> {
        let router = Router<Int>(options: options)
        for (index, pattern) in routes.enumerated() { try router.add(pattern, id: UInt64(index), value: index) }
        return router
    }

    // MARK: §3.2 splitting and decoding

    static let pathCases: [URLDecodingCase] = [
        URLDecodingCase(label: "%2F stays inside its segment",
                     routes: ["/:x", "/a/b"], url: "/a%2Fb", route: 0, pairs: ["x=a/b"]),
        URLDecodingCase(label: "%2f lower-case too",
                     routes: ["/:x/:y"], url: "/a%2fb/c", route: 0, pairs: ["x=a/b", "y=c"]),
        URLDecodingCase(label: "repeated and trailing slashes are dropped",
                     routes: ["/a/b"], url: "//a///b//", route: 0),
        URLDecodingCase(label: "only slashes is the root",
                     routes: ["/", "/:x"], url: "///", route: 0),
        URLDecodingCase(label: "the empty URL is the root",
                     routes: ["/"], url: "", route: 0),
        URLDecodingCase(label: "segments are decoded before literals compare",
                     routes: ["/caf%C3%A9/a%20b"], url: "/caf%c3%a9/a%20b", route: 0),
        URLDecodingCase(label: "a decoded URL meets a raw UTF-8 literal",
                     routes: ["/café"], url: "/caf%C3%A9", route: 0),
        URLDecodingCase(label: "an encoded letter equals the letter",
                     routes: ["/users/:id"], url: "/%75sers/%34%32", route: 0, pairs: ["id=42"]),
        URLDecodingCase(label: "+ in the path is a plus",
                     routes: ["/:x"], url: "/a+b", route: 0, pairs: ["x=a+b"]),
        URLDecodingCase(label: "constraints see the decoded segment",
                     routes: ["/n/{n:int}"], url: "/n/%2D%35", route: 0, pairs: ["n=-5"]),
        URLDecodingCase(label: "a raw space is tolerated",
                     routes: ["/:x"], url: "/a b", route: 0, pairs: ["x=a b"]),
        URLDecodingCase(label: "raw < and > are tolerated",
                     routes: ["/:x"], url: "/a<b>", route: 0, pairs: ["x=a<b>"]),
        URLDecodingCase(label: "a wildcard joins decoded segments",
                     routes: ["/files/*path"], url: "/files//a/b%20c/", route: 0, pairs: ["path=a/b c"]),
        URLDecodingCase(label: "a custom scheme's path segments are decoded",
                     routes: ["/:h/:x"], url: "myapp://host/%41", route: 0, pairs: ["h=host", "x=A"]),
        URLDecodingCase(label: "userinfo is dropped",
                     routes: ["https://example.com/:x"], url: "https://me:pw@example.com/a", route: 0, pairs: ["x=a"]),
        URLDecodingCase(label: "userinfo and port together",
                     routes: ["https://example.com/:x"], url: "https://me@EXAMPLE.com:443/a", route: 0, pairs: ["x=a"]),
        URLDecodingCase(label: "an escaped web host is matched decoded",
                     routes: ["https://example.com/:x", "/:x"], url: "https://ex%61mple.com/a", route: 0, pairs: ["x=a"]),
        URLDecodingCase(label: "a decoded web host compares case-insensitively",
                     routes: ["https://example.com/:x", "/:x"], url: "https://%45XAMPLE.com/a", route: 0, pairs: ["x=a"]),
        URLDecodingCase(label: "a suffix rule applies to the decoded host",
                     routes: ["https://*.example.com/:x", "/:x"], url: "https://api.ex%61mple.com:8080/a", route: 0,
                     pairs: ["x=a"]),
        URLDecodingCase(label: "an escaped dot is a dot",
                     routes: ["https://example.com/:x", "/:x"], url: "https://example%2Ecom/a", route: 0, pairs: ["x=a"]),
    ]

    @Test(arguments: pathCases)
    func pathDecoding(_ c: URLDecodingCase) throws { try check(c) }

    static let queryCases: [URLDecodingCase] = [
        URLDecodingCase(label: "+ is a space in the query",
                     routes: ["/q"], url: "/q?a=1+2", route: 0, pairs: ["a=1 2"]),
        URLDecodingCase(label: "+ stays a plus with the option off",
                     options: RouterOptions(plusAsSpace: false),
                     routes: ["/q"], url: "/q?a=1+2&b+c=d", route: 0, pairs: ["a=1+2", "b+c=d"]),
        URLDecodingCase(label: "%2B is a plus, not a space",
                     routes: ["/q"], url: "/q?a=%2B+", route: 0, pairs: ["a=+ "]),
        URLDecodingCase(label: "repeated keys are kept in order",
                     routes: ["/q"], url: "/q?k=1&j=0&k=2", route: 0, pairs: ["k=1", "j=0", "k=2"]),
        URLDecodingCase(label: "a key without = has an empty value",
                     routes: ["/q"], url: "/q?flag&x=1", route: 0, pairs: ["flag=", "x=1"]),
        URLDecodingCase(label: "=v gives an empty key",
                     routes: ["/q"], url: "/q?=v", route: 0, pairs: ["=v"]),
        URLDecodingCase(label: "empty items are skipped",
                     routes: ["/q"], url: "/q?&&a=1&&&b=2&", route: 0, pairs: ["a=1", "b=2"]),
        URLDecodingCase(label: "an empty query has no pairs",
                     routes: ["/q"], url: "/q?", route: 0),
        URLDecodingCase(label: "only the first = splits",
                     routes: ["/q"], url: "/q?a=b=c", route: 0, pairs: ["a=b=c"]),
        URLDecodingCase(label: "keys are decoded, + included",
                     routes: ["/q"], url: "/q?%6Bey+x=v%26w", route: 0, pairs: ["key x=v&w"]),
        URLDecodingCase(label: "path parameters, then the wildcard, then the query",
                     routes: ["/u/:id/*rest"], url: "/u/7/a/b?id=8&z", route: 0,
                     pairs: ["id=7", "rest=a/b", "id=8", "z="]),
        URLDecodingCase(label: "a ? ends the path",
                     routes: ["/a", "/:x"], url: "/a?/b", route: 0, pairs: ["/b="]),
        URLDecodingCase(label: "the fragment is not part of the query",
                     routes: ["/q"], url: "/q?a=1#b=2&c", route: 0, pairs: ["a=1"], fragment: "b=2&c"),
        URLDecodingCase(label: "the fragment is raw and not validated",
                     routes: ["/q"], url: "/q#a%ZZ%2F%00 x", route: 0, fragment: "a%ZZ%2F%00 x"),
        URLDecodingCase(label: "a fragment with ? is still the fragment",
                     routes: ["/q"], url: "/q#x?y=1", route: 0, fragment: "x?y=1"),
        URLDecodingCase(label: "no fragment is nil",
                     routes: ["/q"], url: "/q", route: 0, fragment: .some(nil)),
        URLDecodingCase(label: "the fragment is ignored for matching",
                     routes: ["/q", "/q/:x"], url: "/q#/x", route: 0, fragment: "/x"),
        URLDecodingCase(label: "= alone is an empty key and an empty value",
                     routes: ["/q"], url: "/q?=&a", route: 0, pairs: ["=", "a="]),
        URLDecodingCase(label: "a URL inside the query is not a scheme",
                     routes: ["/path", "/:x"], url: "/path?r=https://x.com/a", route: 0, pairs: ["r=https://x.com/a"]),
        URLDecodingCase(label: "a web URL with no path and a query is the root",
                     routes: ["https://example.com", "/*rest"], url: "https://example.com?x=1#f", route: 0,
                     pairs: ["x=1"], fragment: "f"),
        URLDecodingCase(label: "a custom scheme with a host and a query",
                     routes: ["myapp://settings", "/*rest"], url: "myapp://settings?tab=a+b", route: 0, pairs: ["tab=a b"]),
        URLDecodingCase(label: "raw space and < in the query are tolerated",
                     routes: ["/q"], url: "/q?a=b c<d", route: 0, pairs: ["a=b c<d"]),
    ]

    @Test(arguments: queryCases)
    func queryDecoding(_ c: URLDecodingCase) throws { try check(c) }

    func check(_ c: URLDecodingCase) throws {
        let router = try Self.makeRouter(c.routes, options: c.options)
        let match = try router.match(c.url)
        #expect(match?.value == c.route, "route for \(c.url.debugDescription)")
        guard let match, c.route != nil else { return }
        #expect(match.parameters.map { "\($0.name)=\($0.value)" } == c.pairs)
        if case .some(let fragment) = c.fragment {
            #expect(match.fragment == fragment)
        }
    }

    // MARK: §3.4 / §3.6 invalid URLs

    static let invalidURLs: [String] = [
        "/%G1", "/%4", "/a%", "/%", "/ok/%4/x", "/%00", "/a%00b", "/a\u{0}b",
        "/%C3%28", "/%ED%A0%80", "/%C0%AF", "/%FF", "/%E2%82", "/%F4%90%80%80",
        "/q?a=%G1", "/q?a=%00", "/q?%ZZ=1", "/q?%C3%28=1", "/q?a=%4", "/q?a=\u{0}",
        "myapp://%00/x", "myapp://ho%GGst", "https://example.com/%C0%AF",
        // The authority is validated whole, though only the host is matched.
        "https://ex%GGample.com/q", "https://h%/q", "https://h%4/q", "https://h%00/q", "https://h%FF/q",
        "https://h%C3%28/q", "https://u%zz@example.com/q", "https://u:%00@example.com/q",
        "https://example.com:%zz/q", "http://[::1%zz]/q", "myapp://u%zz@h/x",
        "/" + String(repeating: "a", count: 65536),
        String(repeating: "/a", count: 1025),
        "myapp://h" + String(repeating: "/a", count: 1024),
    ]

    @Test(arguments: invalidURLs)
    func invalidURLIsRejected(_ url: String) throws {
        let router = try Self.makeRouter(["/*rest", "/q", "myapp://*rest", "https://example.com/*"])
        let label = url.count > 60 ? "\(url.prefix(30))… (\(url.utf8.count) bytes)" : url.debugDescription
        #expect(throws: RouterError.self, "match(\(label))") { try router.match(url) }
        do {
            _ = try router.matches(url)
            Issue.record("matches(\(label)) did not throw")
        } catch {
            #expect(error.code == .invalidURL, "\(label)")
        }
        do {
            _ = try router.match(url)
        } catch {
            #expect(error.code == .invalidURL, "\(label)")
        }
        let matcher = Matcher(router: router)
        do {
            _ = try matcher.match(url)
            Issue.record("Matcher.match(\(label)) did not throw")
        } catch {
            #expect(error.code == .invalidURL, "\(label)")
            #expect(matcher.routeID == UInt64.max)
        }
    }

    /// The path is split eight or sixteen bytes at a time (the last block overlapping bytes
    /// already read) and short segments are compared as whole words: every segment length and
    /// every position of '/', '?', '#' and '%' within a block must agree with the byte-at-a-time
    /// reading, also after a scheme and host whose bytes share the path's first block.
    @Test func segmentBoundariesAtEveryWordOffset() throws {
        let router = Router<String>()
        for length in 1...40 {
            let word = String(repeating: "k", count: length)
            try router.add("/\(word)", id: UInt64(length), value: "literal")
            try router.add("/\(word)/:p", id: UInt64(100 + length), value: "param")
        }
        for length in 1...40 {
            let word = String(repeating: "k", count: length)
            for suffix in ["", "/", "?q=1", "#f", "//", "?#"] {
                let match = try #require(try router.match("/\(word)\(suffix)"), "\(word)\(suffix)")
                #expect(match.routeID == UInt64(length))
            }
            for value in ["v", "vvvvvvvv", "v%2Fw", "v%20"] {
                let match = try #require(try router.match("//\(word)/\(value)?x=y"))
                #expect(match.routeID == UInt64(100 + length))
                #expect(match.parameters["p"] == value.removingPercentEncoding)
            }
            for prefix in ["https://ex%41mple.com/", "https://u%25:p@example.com:8080/", "x:"] {
                #expect(try router.match("\(prefix)\(word)?q=%41#f")?.routeID == UInt64(length), "\(prefix)\(word)")
            }
            #expect(try router.match("/\(word)x") == nil)
            #expect(try router.match("/\(word.dropLast())K") == nil)
        }
    }

    /// The URL is copied into the match in blocks (the last one overlapping) and scanned in words:
    /// every byte of every length must arrive, whatever a longer URL left in the buffer before.
    @Test func everyURLLengthIsCopiedWhole() throws {
        let router = Router<Int>()
        try router.add("/:p", value: 1)
        let alphabet = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.~".utf8)
        for length in stride(from: 90, through: 1, by: -1) {
            let value = String(decoding: (0..<length).map { alphabet[($0 * 7 + length) % alphabet.count] }, as: UTF8.self)
            let match = try #require(try router.match("/" + value), "length \(length)")
            #expect(match.parameters["p"] == value, "length \(length)")
            // The same with an escape at its end: the segment is then scanned for decoding.
            let escaped = try #require(try router.match("/" + value + "%41?q"), "length \(length) escaped")
            #expect(escaped.parameters["p"] == value + "A", "length \(length) escaped")
        }
    }

    @Test func invalidURLIsRejectedEvenWithoutRoutes() {
        let router = Router<Int>()
        #expect(throws: RouterError.self) { try router.match("/%G1") }
        #expect(throws: RouterError.self) { try router.match("/%00") }
    }

    @Test func limitsAreInclusive() throws {
        let router = try Self.makeRouter(["/*rest", "myapp://:h/*rest"])
        let longest = "/" + String(repeating: "a", count: 65535)
        #expect(longest.utf8.count == 65536)
        #expect(try router.match(longest)?.parameters["rest"]?.utf8.count == 65535)

        let longestWithQuery = "/a?q=" + String(repeating: "b", count: 65536 - 5)
        #expect(longestWithQuery.utf8.count == 65536)
        #expect(try router.match(longestWithQuery)?.parameters["q"]?.utf8.count == 65531)

        let deepest = String(repeating: "/a", count: 1024)
        let deep = try #require(try router.match(deepest))
        #expect(deep.parameters.wildcardSegments.count == 1024)

        // Empty segments are not counted.
        let sparse = String(repeating: "//a", count: 1024) + "///"
        #expect(try router.match(sparse)?.parameters.wildcardSegments.count == 1024)

        // A custom scheme's host counts as a segment: 1 + 1023 is the limit.
        let custom = "myapp://h" + String(repeating: "/a", count: 1023)
        let hosted = try #require(try router.match(custom))
        #expect(hosted.parameters["h"] == "h")
        #expect(hosted.parameters.wildcardSegments.count == 1023)
    }

    @Test func oneByteOverTheLengthLimitIsRejectedWhateverItHolds() throws {
        let router = try Self.makeRouter(["/*rest"])
        let overByFragment = "/a#" + String(repeating: "f", count: 65534)
        #expect(overByFragment.utf8.count == 65537)
        #expect(throws: RouterError.self) { try router.match(overByFragment) }
        let multibyte = "/" + String(repeating: "é", count: 32768)
        #expect(multibyte.utf8.count == 65537)
        #expect(throws: RouterError.self) { try router.match(multibyte) }
    }

    @Test func everyEscapedByteValue() throws {
        // Feed all 256 byte values as escapes: valid ASCII decodes, NUL and lone high bytes are rejected.
        let router = try Self.makeRouter(["/:x"])
        for byte in 0...255 {
            let escape = "/" + String(format: "%%%02X", byte)
            let result = routerOutcome { () throws(RouterError) in try router.match(escape) }
            switch byte {
            case 0:
                #expect(throws: RouterError.self) { try result.get() }
            case 1...0x7F:
                let value = try result.get()?.parameters["x"]
                #expect(value == String(UnicodeScalar(UInt8(byte))), "\(escape)")
            default:
                #expect(throws: RouterError.self, "\(escape) alone is not UTF-8") { try result.get() }
            }
        }
    }

    @Test func everyRawASCIIByteInASegmentIsHandled() throws {
        let router = try Self.makeRouter(["/s/:x"])
        for byte in UInt8(1)...0x7F {
            let scalar = String(UnicodeScalar(byte))
            let url = "/s/a" + scalar + "b"
            let result = routerOutcome { () throws(RouterError) in try router.match(url) }
            switch scalar {
            case "/":
                #expect(try result.get() == nil)
            case "?", "#":
                #expect(try result.get()?.parameters["x"] == "a")
            case "%":
                #expect(throws: RouterError.self) { try result.get() }
            default:
                #expect(try result.get()?.parameters["x"] == "a" + scalar + "b", "byte \(byte)")
            }
        }
    }

    // MARK: §3.3 typed access

    enum Tab: String { case posts, likes }

    @Test func typedParameters() throws {
        let router = try Self.makeRouter(["/u/:id/:score/:flag/:uuid/:tab/:tags/:neg"])
        let match = try #require(try router.match(
            "/u/42/3.5/true/E621E1F8-C36C-495A-93FC-0C247A3E6E5F/posts/a,b,c/-17?off=false&t=likes"))
        let p = match.parameters
        #expect(p.int("id") == 42)
        #expect(p.int("neg") == -17)
        #expect(p.int("score") == nil)
        #expect(p.int("tab") == nil)
        #expect(p.int("missing") == nil)
        #expect(p.double("score") == 3.5)
        #expect(p.double("id") == 42)
        #expect(p.double("tab") == nil)
        #expect(p.bool("flag") == true)
        #expect(p.bool("off") == false)
        #expect(p.bool("tab") == nil)
        #expect(p.value("tab", as: Tab.self) == .posts)
        #expect(p.value("t", as: Tab.self) == .likes)
        #expect(p.value("flag", as: Tab.self) == nil)
        #expect(p.list("tags") == ["a", "b", "c"])
        #expect(p.list("id") == ["42"])
        #expect(p["missing"] == nil)
    }

    @Test func listOfAnEncodedComma() throws {
        let router = try Self.makeRouter(["/t/:tags"])
        let match = try #require(try router.match("/t/a%2Cb,c?more=x,y"))
        #expect(match.parameters.list("tags") == ["a", "b", "c"])
        #expect(match.parameters.list("more") == ["x", "y"])
    }

    /// A list reads every value of its name, path value first, as deep-link arguments do.
    @Test func listReadsEveryValueOfItsName() throws {
        let router = try Self.makeRouter(["/t/:tags"])
        let match = try #require(try router.match("/t/a,b?tags=c&x=1&tags=d,,e&tags="))
        #expect(match.parameters.list("tags") == ["a", "b", "c", "d", "e"])
        #expect(match.parameters["tags"] == "a,b")
    }

    @Test func wildcardSegmentsAreTheDecodedSegments() throws {
        let router = try Self.makeRouter(["/files/*path", "/none/*"])
        let match = try #require(try router.match("/files/a//b%2Fc/d%20e/"))
        #expect(match.parameters.wildcardSegments == ["a", "b/c", "d e"])
        #expect(match.parameters["path"] == "a/b/c/d e")
        let empty = try #require(try router.match("/none"))
        #expect(empty.parameters.wildcardSegments == [])
        #expect(empty.parameters["*"] == "")
        let noWildcard = try Self.makeRouter(["/x/:y"])
        #expect(try noWildcard.match("/x/z")?.parameters.wildcardSegments == [])
    }

    @Test func pathValuesWinOverQueryValues() throws {
        let router = try Self.makeRouter(["/users/:id", "/files/*rest"])
        let match = try #require(try router.match("/users/42?id=7&id=8"))
        #expect(match.parameters["id"] == "42")
        #expect(match.parameters.int("id") == 42)
        #expect(match.parameters.values("id") == ["42", "7", "8"])
        #expect(match.parameters.count == 3)
        let files = try #require(try router.match("/files/a?rest=q"))
        #expect(files.parameters["rest"] == "a")
        #expect(files.parameters.values("rest") == ["a", "q"])
    }

    @Test func matcherExposesDecodedBytes() throws {
        let router = try Self.makeRouter(["/:x"])
        let matcher = Matcher(router: router)
        #expect(try matcher.match("/caf%C3%A9?q=a+b"))
        #expect(matcher.parameter("x") == "café")
        #expect(matcher.parameter("q") == "a b")
        #expect(matcher.parameterCount == 2)
        let bytes = try #require(matcher.parameterBytes("x"))
        #expect(Array(bytes) == Array("café".utf8))
        #expect(matcher.parameterBytes("nope") == nil)
    }
}
