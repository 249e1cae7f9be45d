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

extension Match: Equatable where Value: Equatable {
    public static func == (lhs: Match<Value>, rhs: Match<Value>) -> Bool {
        lhs.routeID == rhs.routeID && lhs.value == rhs.value && lhs.parameters == rhs.parameters
    }
}
