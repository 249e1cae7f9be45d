import Testing
@testable import FastRouter

@Suite struct RouterTests {
    @Test func literalParameterAndWildcardRoutesMatch() throws {
        let router = Router<String>()
        try router.add("/users/:id", value: "user")
        try router.add("/users/me", value: "me")
        try router.add("/files/*path", value: "files")
        let user = try #require(try router.match("/users/42?tab=posts&x=1#frag"))
        #expect(user.value == "user")
        #expect(user.parameters["id"] == "42")
        #expect(user.parameters["tab"] == "posts")
        #expect(user.fragment == "frag")
        #expect(try router.match("/users/me")?.value == "me")
        let files = try #require(try router.match("/files/a/b%2Fc/d"))
        #expect(files.parameters["path"] == "a/b/c/d")
        #expect(files.parameters.wildcardSegments == ["a", "b/c", "d"])
        #expect(try router.match("/nothing") == nil)
        #expect(try router.matches("/users/me").map(\.value) == ["me", "user"])
    }

    /// `candidates(_:)` yields the same order as `matches(_:)`, one at a time, and keeps its
    /// candidates readable (values included) even when the router changes mid-iteration.
    @Test func candidatesAreLazyAndOrderedLikeMatches() throws {
        let router = Router<String>()
        try router.add("/users/:id", value: "user")
        try router.add("/users/me", value: "me")
        try router.add("/users/*rest", value: "rest")
        try router.add("/users/{id:alpha}", priority: -1, value: "low")
        #expect(try router.matches("/users/me").map(\.value) == ["me", "user", "rest", "low"])
        #expect(Array(try router.candidates("/users/me")).map(\.value) == ["me", "user", "rest", "low"])

        var iterator = try router.candidates("/users/me?x=1")
        let first = iterator.next()
        #expect(first?.value == "me" && first?.parameters["x"] == "1")
        // Remove the next candidate after the lookup: the sequence answers from its own lookup.
        #expect(router.remove(id: try #require(router.matches("/users/42").first?.routeID)) == 1)
        let second = iterator.next()
        #expect(second?.value == "user" && second?.parameters["id"] == "me")
        #expect(iterator.next()?.value == "rest")
        #expect(iterator.next()?.value == "low")
        #expect(iterator.next() == nil && iterator.next() == nil)

        #expect(Array(try router.candidates("/nothing")).isEmpty)
        #expect(throws: RouterError.self) { _ = try router.candidates("/bad%zz") }
    }

    /// The fragment shares the parameters' storage: it must come back whole next to parameters and
    /// wildcard segments, and never count as a parameter.
    @Test func fragmentParametersAndWildcardSegmentsKeepApart() throws {
        let router = Router<Int>()
        try router.add("/files/:owner/*path", value: 1)
        try router.add("/plain", value: 2)
        let full = try #require(try router.match("/files/ann/a/b%2Fc?q=1#sec%20tion"))
        #expect(full.parameters.map(\.name) == ["owner", "path", "q"])
        #expect(full.parameters.map(\.value) == ["ann", "a/b/c", "1"])
        #expect(full.parameters.wildcardSegments == ["a", "b/c"])
        #expect(full.fragment == "sec%20tion")
        #expect(full.parameters.values("sec%20tion").isEmpty && full.parameters["sec%20tion"] == nil)
        let noFragment = try #require(try router.match("/files/ann/a/b%2Fc?q=1"))
        #expect(noFragment.fragment == nil)
        #expect(noFragment.parameters == full.parameters, "the fragment is not a parameter")
        #expect(try router.match("/files/ann/a/b%2Fc?q=1#")?.fragment == "")
        let plain = try #require(try router.match("/plain#top"))
        #expect(plain.parameters.isEmpty && plain.parameters.wildcardSegments.isEmpty && plain.fragment == "top")
        #expect(try router.match("/plain")?.fragment == nil)
        let built = Parameters([(name: "a", value: "1")], wildcardSegments: ["x", "y"])
        #expect(built.count == 1 && built["a"] == "1" && built.wildcardSegments == ["x", "y"])
        #expect(built != Parameters([(name: "a", value: "1")], wildcardSegments: ["x"]))
        #expect(built != Parameters([(name: "a", value: "1"), (name: "x", value: "y")]))
        // A match's parameters and the same pairs built by hand are equal: one layout for both.
        #expect(full.parameters == Parameters([(name: "owner", value: "ann"), (name: "path", value: "a/b/c"),
                                                (name: "q", value: "1")], wildcardSegments: ["a", "b/c"]))
        #expect(full.parameters != Parameters([(name: "owner", value: "ann"), (name: "path", value: "a/b/c"),
                                                (name: "q", value: "1")], wildcardSegments: ["a", "b"]))
    }

    /// A match carries its route's value, parameters and fragment by copy: they stay readable
    /// after the route is removed and the router is gone, with or without parameters.
    @Test func matchesKeepValueAndParametersAfterTheRouteIsGone() throws {
        final class Handler: Sendable {
            let name: String
            init(_ name: String) { self.name = name }
        }
        var router: Router<Handler>? = Router<Handler>()
        let long = "/" + String(repeating: "long-segment/", count: 6) + ":id"
        try router!.add("/a", value: Handler("short"))
        try router!.add(long, id: 7, value: Handler("long"))
        // Patterns around the 16- and 32-byte edges of the block copy.
        let edges = ["/pattern-17-bytes", "/a-pattern-of-exactly-32-bytes/x", "/a-pattern-of-exactly-33-bytes/xy"]
        for pattern in edges { try router!.add(pattern, value: Handler(pattern)) }
        let short = try #require(try router!.match("/a#x"))
        let edgeMatches = try edges.map { try #require(try router!.match($0)) }
        let longMatch = try #require(try router!.match("/" + String(repeating: "long-segment/", count: 6) + "42?q=1"))
        #expect(router!.remove(id: 7) == 1)
        weak var released: Router<Handler>?
        released = router
        router = nil
        #expect(released == nil, "a match does not keep the router alive")
        #expect(short.value.name == "short" && short.fragment == "x")
        for (pattern, match) in zip(edges, edgeMatches) {
            #expect(match.value.name == pattern && match.parameters.isEmpty && match.fragment == nil)
        }
        #expect(longMatch.value.name == "long")
        #expect(longMatch.parameters.map(\.name) == ["id", "q"] && longMatch.parameters["id"] == "42")
    }

    /// A matcher's byte views point into its own copy of the URL: the caller may overwrite its
    /// buffer, or drop its string, as soon as the lookup returns.
    @Test func matcherResultsOutliveTheCallersBuffer() throws {
        let router = Router<Int>()
        try router.add("/users/:id/files/*path", value: 1)
        let matcher = Matcher(router: router)
        var buffer = Array("/users/ann/files/a/b?q=1#top".utf8)
        #expect(try buffer.withUnsafeBufferPointer { (bytes) throws(RouterError) in try matcher.match(utf8: bytes) })
        for index in buffer.indices { buffer[index] = UInt8(ascii: "X") }
        #expect(matcher.parameter("id") == "ann" && matcher.parameter("path") == "a/b" && matcher.parameter("q") == "1")
        #expect(matcher.fragment.map { String(decoding: $0, as: UTF8.self) } == "top")
        do {
            let url = "/users/" + String(repeating: "b", count: 40) + "/files/c"
            #expect(try matcher.match(url))
        }
        #expect(matcher.parameter("id") == String(repeating: "b", count: 40) && matcher.parameter("path") == "c")
    }

    /// A match's parameters live in storage a later match of the same thread may reuse, but only
    /// once nothing refers to it: matches kept alive, here or on other threads, keep their values.
    @Test func matchesKeptAliveKeepTheirParameters() async throws {
        let router = Router<Int>()
        try router.add("/users/:id/posts/:post", value: 1)
        try router.add("/files/*path", value: 2)
        var kept: [(Match<Int>, String, String)] = []
        for round in 0..<200 {
            let id = String(repeating: "u", count: round % 40 + 1) + "\(round)"
            let post = "p\(round * 7)"
            let match = try #require(try router.match("/users/\(id)/posts/\(post)?q=\(round)#f\(round)"))
            if round % 3 == 0 { kept.append((match, id, post)) }
            // Dropped matches free their storage for the next round to reuse.
            _ = try router.match("/files/a/b/\(round)")
        }
        for (match, id, post) in kept {
            #expect(match.parameters["id"] == id && match.parameters["post"] == post)
            #expect(match.fragment == "f\(match.parameters["q"] ?? "?")")
        }
        // Matches handed to other threads and dropped there; this thread keeps matching meanwhile.
        let sent = try (0..<64).map { round in try #require(try router.match("/users/t\(round)/posts/x\(round)")) }
        await withTaskGroup(of: Bool.self) { group in
            for (round, match) in sent.enumerated() {
                group.addTask { match.parameters["id"] == "t\(round)" && match.parameters["post"] == "x\(round)" }
            }
            for round in 0..<64 {
                let match = try? router.match("/users/again\(round)/posts/y")
                #expect(match?.parameters["id"] == "again\(round)")
            }
            for await intact in group { #expect(intact) }
        }
        let all = try router.matches("/users/a/posts/b")
        #expect(all.count == 1 && all[0].parameters["id"] == "a")
    }

    @Test func removalDropsEveryRouteWithTheID() throws {
        let router = Router<Int>()
        try router.add("/a", id: 7, value: 1)
        try router.add("/b", id: 7, value: 2)
        try router.add("/c", id: 8, value: 3)
        #expect(router.count == 3)
        #expect(router.remove(id: 7) == 2)
        #expect(router.count == 1)
        #expect(try router.match("/a") == nil)
        #expect(try router.match("/c")?.value == 3)
    }
}

@Suite struct PartialSegmentTests {
    @Test func placeholdersInsideASegmentCaptureSlices() throws {
        let router = Router<String>()
        try router.add("/files/{name}.{ext}", value: "file")
        try router.add("/api/v{major:int}.{minor:int}", value: "version")
        try router.add("/@{user}", value: "profile")
        let file = try #require(try router.match("/files/archive.tar.gz"))
        #expect(file.parameters["name"] == "archive.tar")
        #expect(file.parameters["ext"] == "gz")
        let version = try #require(try router.match("/api/v2.10"))
        #expect(version.parameters.int("major") == 2)
        #expect(version.parameters.int("minor") == 10)
        #expect(try router.match("/api/vx.1") == nil)
        #expect(try router.match("/@octocat")?.parameters["user"] == "octocat")
        #expect(try router.match("/@") == nil)
    }

    @Test func partialRanksBetweenLiteralAndPlaceholder() throws {
        let router = Router<String>()
        try router.add("/files/:any", value: "parameter")
        try router.add("/files/{name}.json", value: "partial")
        try router.add("/files/index.json", value: "literal")
        try router.add("/files/{id:int}", value: "constraint")
        #expect(try router.matches("/files/index.json").map(\.value) == ["literal", "partial", "parameter"])
        #expect(try router.matches("/files/7").map(\.value) == ["constraint", "parameter"])
    }

    @Test func partialSegmentsRoundTripThroughURLGeneration() throws {
        let router = Router<String>()
        let id = try router.add("/files/{name}.{ext:alnum}", value: "file")
        let url = try router.core.url(for: id, parameters: [("name", "a b"), ("ext", "txt")])
        #expect(url == "/files/a%20b.txt")
        #expect(try router.match(url)?.parameters["name"] == "a b")
        #expect(throws: RouterError.self) { try router.core.url(for: id, parameters: [("name", "a"), ("ext", "t-t")]) }
    }

    @Test func removingThePartialRouteReleasesItsTemplate() throws {
        let router = Router<Int>()
        try router.add("/x/{a}-{b}", id: 1, value: 1)
        try router.add("/y/{c}-{d}", id: 2, value: 2)
        #expect(router.remove(id: 1) == 1)
        #expect(try router.match("/x/1-2") == nil)
        #expect(try router.match("/y/1-2")?.parameters["d"] == "2")
    }
}

extension Match: Equatable where Value: Equatable {
    public static func == (lhs: Match<Value>, rhs: Match<Value>) -> Bool {
        lhs.routeID == rhs.routeID && lhs.value == rhs.value && lhs.parameters == rhs.parameters
    }
}
