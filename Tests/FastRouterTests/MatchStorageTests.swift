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
