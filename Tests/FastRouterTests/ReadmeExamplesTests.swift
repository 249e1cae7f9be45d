import Testing
import FastRouter

/// The README's examples, run as written, so the documentation cannot drift from the code.
@Suite struct ReadmeExamplesTests {
    @Test func swiftQuickTour() throws {
        let router = Router<String>()
        try router.add("/users/:id", value: "user")
        try router.add("/users/me", value: "me")
        try router.add("myapp://settings(/:section)", value: "settings")
        try router.add("https://*.example.com/docs/*path", value: "docs")

        let match = try #require(try router.match("myapp://users/42?tab=posts#top"))
        #expect(match.value == "user")
        #expect(match.parameters["id"] == "42")
        #expect(match.parameters["tab"] == "posts")
        #expect(match.fragment == "top")

        #expect(try router.match("/users/me")?.value == "me")
        #expect(try router.matches("/users/me").map(\.value) == ["me", "user"])
        #expect(try router.match("https://api.example.com/docs/a/b")?.parameters["path"] == "a/b")
        #expect(try router.match("myapp://settings/privacy")?.parameters["section"] == "privacy")
    }

    @Test func matcherHotPath() throws {
        let router = Router<String>()
        try router.add("/users/:id", value: "user")
        let matcher = Matcher(router: router)
        #expect(try matcher.match("/users/42"))
        let id = try #require(matcher.parameterBytes("id"))
        #expect(String(decoding: id, as: UTF8.self) == "42")
        #expect(matcher.value == "user")
    }

    @Test func errorsNameTheirOffset() {
        let router = Router<String>()
        #expect { try router.add("/a/{id:int", value: "x") } throws: { error in
            "\(error)" == "invalid pattern at offset 3: unbalanced '{': missing '}'"
        }
    }

    @Test(arguments: [
        ("/users/:id", "/users/42", ["id=42"]),
        ("/users/{id:int}", "/users/-7", ["id=-7"]),
        ("/tags/{tag:[a-z]+-[0-9]{2}}", "/tags/swift-06", ["tag=swift-06"]),
        ("/files/*path", "/files", ["path="]),
        ("/files/*path", "/files/a/b%2Fc", ["path=a/b/c"]),
        ("/files/{name}.{ext}", "/files/archive.tar.gz", ["name=archive.tar", "ext=gz"]),
        ("myapp://users/:id", "myapp://users/42", ["id=42"]),
        ("https://*.example.com/x", "https://a.b.example.com/x", []),
    ])
    func patternTable(pattern: String, url: String, expected: [String]) throws {
        let router = Router<Void>()
        try router.add(pattern)
        let match = try #require(try router.match(url))
        #expect(match.parameters.map { "\($0.name)=\($0.value)" } == expected)
    }

    @Test func patternTableNonMatches() throws {
        let router = Router<Void>()
        try router.add("/users/{id:int}")
        try router.add("https://*.example.com/x")
        #expect(try router.match("/users/x") == nil)
        #expect(try router.match("https://example.com/x") == nil)
        let groups = Router<Void>()
        try groups.add("/a(/b)(/:c)", id: 1)
        for url in ["/a/b/x", "/a/b", "/a/x", "/a"] { #expect(try groups.match(url)?.routeID == 1) }
        #expect(groups.count == 1)
    }
}
