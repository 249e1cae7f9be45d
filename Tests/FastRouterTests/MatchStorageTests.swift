import Testing
@testable import FastRouter

/// A match's parameters: copied out of the lookup as one block with the walk's captures as their
/// spans, names read from the route's layout.
@Suite struct MatchStorageTests {
    /// Values of every length, short and long, ASCII or not, and empty ones, come back whole.
    @Test func valuesOfEveryLengthComeBackWhole() throws {
        let router = Router<Int>()
        try router.add("/a/:first/b/:second(/:third)", value: 1)
        try router.add("/c/{x}.{y}", value: 2)
        for length in 0...40 {
            let first = String(repeating: "f", count: length + 1)
            let second = String(repeating: "é", count: length / 2) + String(repeating: "s", count: length % 2 + 1)
            let escaped = second.addingPercentEscapes
            let match = try #require(try router.match("/a/\(first)/b/\(escaped)?k\(length)=v\(length)"))
            #expect(match.parameters.map(\.name) == ["first", "second", "k\(length)"])
            #expect(match.parameters.map(\.value) == [first, second, "v\(length)"])
            #expect(match.value == 1 && match.fragment == nil)
            let slices = try #require(try router.match("/c/\(first).\(first)"))
            #expect(slices.parameters["x"] == first && slices.parameters["y"] == first)
        }
    }

    /// A match of path parameters alone, copied straight from the walk, keeps every byte of
    /// blocks of every length (the copy's word sizes and its loop), with one, two or three
    /// values, and values that are not the block's last.
    @Test func pathValuesOfEveryBlockLengthComeBackWhole() throws {
        let router = Router<Int>()
        try router.add("/:one", value: 1)
        try router.add("/p/:one/:two", value: 2)
        try router.add("/q/:one/:two/:three/tail", value: 3)
        for length in 1...90 {
            let text = String((0..<length).map { Character(UnicodeScalar(UInt8(97 + $0 % 26))) })
            #expect(try router.match("/\(text)")?.parameters["one"] == text, "\(length)")
            let pair = try #require(try router.match("/p/\(text)/x\(text)"))
            #expect(pair.parameters.map(\.value) == [text, "x" + text], "\(length)")
            let three = try #require(try router.match("/q/\(text)/\(length)/y/tail"))
            #expect(three.parameters.map(\.value) == [text, "\(length)", "y"], "\(length)")
        }
    }

    /// `forEachUTF8` reads the same pairs as iterating, in the same order, as bytes: path values
    /// (plain and decoded), the wildcard, query pairs, and nothing for a match without any.
    @Test func forEachUTF8ReadsThePairsAsIterating() throws {
        let router = Router<Int>()
        try router.add("/repos/:owner/:repo/issues/:number", value: 1)
        try router.add("/files/*path", value: 2)
        try router.add("/static/page", value: 3)
        try router.add("myapp://users/:id", value: 4)
        for url in ["/repos/octocat/Hello-World/issues/1347", "/repos/%C3%A9t%C3%A9/r%2Fx/issues/1?a=1&b=%C3%A9&a=2#top",
                    "/files/a/b%20c/d", "/files/", "/static/page", "/static/page?q=1", "myapp://users/42?tab=posts"] {
            let match = try #require(try router.match(url), "\(url)")
            var pairs: [(name: String, value: String)] = []
            match.parameters.forEachUTF8 { name, value in
                pairs.append((String(decoding: name, as: UTF8.self), String(decoding: value, as: UTF8.self)))
            }
            #expect(pairs.map(\.name) == match.parameters.map(\.name), "\(url)")
            #expect(pairs.map(\.value) == match.parameters.map(\.value), "\(url)")
        }
        let decoded = try #require(try router.match("/repos/%C3%A9t%C3%A9/r%2Fx/issues/1?a=1&b=%C3%A9&a=2"))
        var values: [[UInt8]] = []
        decoded.parameters.forEachUTF8 { _, value in values.append(Array(value)) }
        #expect(values == [Array("été".utf8), Array("r/x".utf8), Array("1".utf8), Array("1".utf8), Array("é".utf8), Array("2".utf8)])
        var none = 0
        try #require(try router.match("/static/page")).parameters.forEachUTF8 { _, _ in none += 1 }
        #expect(none == 0)
    }

    /// The bytes `forEachUTF8` lends are the match's own: a later lookup on the same thread,
    /// which reuses the thread's buffers, does not change them.
    @Test func forEachUTF8OutlivesLaterLookups() throws {
        let router = Router<Int>()
        try router.add("/u/:name", value: 1)
        let first = try #require(try router.match("/u/first-value-that-is-long"))
        _ = try router.match("/u/second-value-that-is-longer-still")
        var seen: [String] = []
        first.parameters.forEachUTF8 { _, value in seen.append(String(decoding: value, as: UTF8.self)) }
        #expect(seen == ["first-value-that-is-long"])
    }

    /// A capture that holds nothing still names its value: the block before it is empty.
    @Test func emptyValuesAtTheStartOfThePath() throws {
        let router = Router<Int>()
        try router.add("/*rest", value: 2)
        let wildcard = try #require(try router.match("/x/y"))
        #expect(wildcard.parameters["rest"] == "x/y" && wildcard.parameters.wildcardSegments == ["x", "y"])
        for _ in 0..<3 {
            let match = try #require(try router.match("/"))
            #expect(match.value == 2 && match.parameters["rest"] == "" && match.parameters.wildcardSegments.isEmpty)
        }
    }

    /// A 405 keeps its methods for the caller, and the next lookup of the thread forgets them.
    @Test func methodNotAllowedThenAMatch() throws {
        let router = Router<Int>()
        try router.add("/users/:id", methods: [.get], value: 1)
        try router.add("/teams/:id", value: 2)
        guard case .methodNotAllowed(let allowed) = try router.match("/users/7", method: .delete) else {
            Issue.record("DELETE /users/7 is not a 405")
            return
        }
        #expect(allowed.headerValue.contains("GET"))
        let match = try #require(try router.match("/teams/9", method: .delete).match)
        #expect(match.value == 2 && match.parameters["id"] == "9")
        #expect(try router.match("/nothing", method: .get).match == nil)
    }
}

private extension String {
    /// Every non-ASCII byte percent-escaped.
    var addingPercentEscapes: String {
        utf8.map { $0 < 0x80 ? String(UnicodeScalar($0)) : "%" + String($0, radix: 16, uppercase: true) }.joined()
    }
}
