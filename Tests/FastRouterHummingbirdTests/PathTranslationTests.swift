#if Hummingbird
import Hummingbird
@testable import FastRouterHummingbird
import Testing

/// How Hummingbird paths become FastRouter patterns, and what each FastRouter parameter becomes.
@Suite struct PathTranslationTests {
    @Test(arguments: [
        ("/users/:id", "/users/{_0}", [TranslatedPath.Slot.parameter("id")]),
        ("/users/{id}", "/users/{_0}", [.parameter("id")]),
        ("", "/", []),
        ("/", "/", []),
        ("/users", "/users", []),
        ("users/", "/users", []),
        ("/users/:id/posts/:post", "/users/{_0}/posts/{_1}", [.parameter("id"), .parameter("post")]),
        ("/files/{file}.jpg", "/files/{_0}.jpg", [.parameter("file")]),
        ("/archive/v{version}", "/archive/v{_0}", [.parameter("version")]),
        ("/any/*/end", "/any/{_0}/end", [.hidden]),
        ("/images/*.gif", "/images/{_0}.gif", [.hidden]),
        ("/docs/draft*", "/docs/draft{_0}", [.hidden]),
        ("/static/**", "/static/{_0}/*_1", [.catchAllFirst, .catchAllRest]),
        ("/**", "/{_0}/*_1", [.catchAllFirst, .catchAllRest]),
        ("/r/:owner/*/{x}.md/**", "/r/{_0}/{_1}/{_2}.md/{_3}/*_4",
         [.parameter("owner"), .hidden, .parameter("x"), .catchAllFirst, .catchAllRest]),
    ] as [(RouterPath, String, [TranslatedPath.Slot])])
    func translation(path: RouterPath, pattern: String, slots: [TranslatedPath.Slot]) throws {
        let translated = try TranslatedPath(path)
        #expect(translated.pattern == pattern)
        #expect(translated.slots == slots)
    }

    /// Names FastRouter's grammar refuses, or that repeat, still translate: the pattern only holds
    /// generated names.
    @Test(arguments: [
        ("/a/:x/:x", "/a/{_0}/{_1}", [TranslatedPath.Slot.parameter("x"), .parameter("x")]),
        ("/a/:1st", "/a/{_0}", [.parameter("1st")]),
        ("/a/{my-id}", "/a/{_0}", [.parameter("my-id")]),
        ("/a/:", "/a/{_0}", [.parameter("")]),
    ] as [(RouterPath, String, [TranslatedPath.Slot])])
    func anyParameterNameTranslates(path: RouterPath, pattern: String, slots: [TranslatedPath.Slot]) throws {
        let translated = try TranslatedPath(path)
        #expect(translated.pattern == pattern)
        #expect(translated.slots == slots)
    }

    /// Text with a meaning in FastRouter's grammar stays text once escaped.
    @Test(arguments: [
        ("/a(b)/c", "/a%28b%29/c"),
        ("/c*d", "/c%2Ad"),
        ("/{a", "/%7Ba"),
        ("/a}", "/a%7D"),
        ("/a{b", "/a%7Bb"),
        ("/100%", "/100%25"),
        ("/%zz", "/%25zz"),
        ("/%4", "/%254"),
        ("/%41b", "/%41b"),
        ("/%4a", "/%4a"),
        ("/%00", "/%2500"),
        ("/a:b", "/a:b"),
        ("/a b", "/a%20b"),
        ("/a\"<>", "/a%22%3C%3E"),
        ("/q?x#y", "/q%3Fx%23y"),
        ("/-._~!$&'+,;=@", "/-._~!$&'+,;=@"),
        ("/café", "/café"),
        ("/{f}(1).jpg", "/{_0}%281%29.jpg"),
        ("/{f}:x", "/{_0}:x"),
        ("/(v){n}", "/%28v%29{_0}"),
        ("/*(x)", "/{_0}%28x%29"),
        ("/(x)*", "/%28x%29{_0}"),
    ] as [(RouterPath, String)])
    func literalTextIsEscaped(path: RouterPath, pattern: String) throws {
        #expect(try TranslatedPath(path).pattern == pattern)
    }

    @Test func escapedLiteralEscapesALeadingColonOnlyAtASegmentStart() {
        #expect(TranslatedPath.escapedLiteral(":a", segmentStart: true) == "%3Aa")
        #expect(TranslatedPath.escapedLiteral(":a", segmentStart: false) == ":a")
        #expect(TranslatedPath.escapedLiteral("a:b:", segmentStart: true) == "a:b:")
    }

    @Test func escapedLiteralSamples() {
        #expect(TranslatedPath.escapedLiteral("", segmentStart: true) == "")
        #expect(TranslatedPath.escapedLiteral("(){}*%", segmentStart: false) == "%28%29%7B%7D%2A%25")
        #expect(TranslatedPath.escapedLiteral("%41%00%0", segmentStart: false) == "%41%2500%250")
        #expect(TranslatedPath.escapedLiteral("%", segmentStart: false) == "%25")
        #expect(TranslatedPath.escapedLiteral("a\tb", segmentStart: false) == "a%09b")
        #expect(TranslatedPath.escapedLiteral("é", segmentStart: false) == "é")
    }

    @Test(arguments: ["/a/**/b", "/**/x", "/a/**/**", "/**/:id"] as [RouterPath])
    func recursiveWildcardMustBeLast(path: RouterPath) {
        let error = #expect(throws: PathTranslationError.self) { try TranslatedPath(path) }
        #expect(error?.path == path.description)
        #expect(error?.element == "**")
        #expect(error?.reason == "is not the last element (FastRouter's wildcard only ends a path)")
        #expect(error?.description == "cannot route \(path.description) with FastRouter: '**' is not the last element (FastRouter's wildcard only ends a path)")
    }

    /// Hummingbird's `RouterPath("/a/!")` holds the literal `!`; only its internal `.null` element,
    /// which cannot be built through the public API, never matches.
    @Test func exclamationMarkIsLiteralText() throws {
        let translated = try TranslatedPath("/a/!")
        #expect(translated.pattern == "/a/!")
        #expect(translated.slots == [])
    }
}

/// Classification of path elements, which must agree with Hummingbird's `RouterPath.Element.init`.
@Suite struct HummingbirdElementTests {
    @Test(arguments: [
        ("{a}", HummingbirdElement.capture("a")),
        (":a", .capture("a")),
        (":", .capture("")),
        (":{a}", .capture("{a}")),
        ("{a}b", .captureWithSuffix(name: "a", suffix: "b")),
        ("{a}.jpg", .captureWithSuffix(name: "a", suffix: ".jpg")),
        ("{a}{b}", .captureWithSuffix(name: "a", suffix: "{b}")),
        ("a{b}", .captureWithPrefix(prefix: "a", name: "b")),
        ("v{version}", .captureWithPrefix(prefix: "v", name: "version")),
        ("a{b}{c}", .captureWithPrefix(prefix: "a{b}", name: "c")),
        ("{a", .literal("{a")),
        ("a}", .literal("a}")),
        ("{}", .capture("")),
        ("*", .wildcard),
        ("**", .recursiveWildcard),
        ("*x", .wildcardWithSuffix("x")),
        ("*.gif", .wildcardWithSuffix(".gif")),
        ("***", .wildcardWithSuffix("**")),
        ("x*", .wildcardWithPrefix("x")),
        ("draft*", .wildcardWithPrefix("draft")),
        ("x*y", .literal("x*y")),
        ("users", .literal("users")),
        ("a:b", .literal("a:b")),
        ("!!", .literal("!!")),
    ])
    func classification(text: String, expected: HummingbirdElement) {
        #expect(HummingbirdElement(text) == expected)
    }

    /// Hummingbird's `RouterPath.Element.init("!")` gives the literal `!`.
    @Test func exclamationMarkIsLiteral() {
        #expect(HummingbirdElement("!") == .literal("!"))
    }

    /// Every sample's Hummingbird description reads back as the same element, so classifying an
    /// element by its description loses nothing for these forms.
    @Test(arguments: ["{a}", "{a}b", "a{b}", "{a", "a}", "*", "**", "*x", "x*", ":a", "users"])
    func descriptionClassifiesAsTheText(text: String) throws {
        let element = try #require(RouterPath(text).first)
        let fromDescription = HummingbirdElement(element.description)
        let fromText = HummingbirdElement(text)
        #expect(fromDescription == fromText)
    }
}
#endif
