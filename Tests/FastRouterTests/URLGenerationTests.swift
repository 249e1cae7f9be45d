import Foundation
import Testing
@testable import FastRouter

@Suite struct URLGenerationTests {
    // MARK: Building

    @Test func globalRouteFillsPlaceholdersAndEncodesValues() throws {
        let router = Router<Void>()
        let id = try router.add("/users/:name/files/{file}")
        #expect(try router.url(for: id, parameters: ["name": "a b/c", "file": "50%?#"]) == "/users/a%20b%2Fc/files/50%25%3F%23")
        let match = try #require(try router.match("/users/a%20b%2Fc/files/50%25%3F%23"))
        #expect(match.parameters["name"] == "a b/c")
        #expect(match.parameters["file"] == "50%?#")
    }

    @Test func rootRoutesGiveASlashOrTheSchemeAlone() throws {
        let router = Router<Void>()
        let global = try router.add("/")
        let custom = try router.add("myapp://")
        let web = try router.add("https://example.com/")
        #expect(try router.url(for: global) == "/")
        #expect(try router.url(for: custom) == "myapp://")
        #expect(try router.url(for: web) == "https://example.com/")
    }

    @Test func customSchemeRouteStartsWithItsHostSegment() throws {
        let router = Router<Void>()
        let id = try router.add("myapp://users/{id:int}/posts")
        #expect(try router.url(for: id, parameters: ["id": "42"]) == "myapp://users/42/posts")
        let host = try router.add("myapp://:section/home")
        // '@' and ':' in the authority would read as userinfo and port.
        let url = try router.url(for: host, parameters: ["section": "a@b:c"])
        #expect(url == "myapp://a%40b%3Ac/home")
        #expect(try router.match(url)?.parameters["section"] == "a@b:c")
    }

    @Test func customSchemeHostLiteralsEscapeUserinfoAndPortCharacters() throws {
        let router = Router<Void>()
        let id = try router.add("myapp://u@h:1/x@y:z")
        let url = try router.url(for: id)
        #expect(url == "myapp://u%40h%3A1/x@y:z")
        #expect(try router.match(url)?.routeID == id)
    }

    @Test func webRoutesUseTheirExactHostOrTheGivenOne() throws {
        let router = Router<Void>()
        let exact = try router.add("https://shop.example.com/items/:sku")
        let suffix = try router.add("https://*.example.org/items/:sku")
        let any = try router.add("https://*/p/:slug")
        #expect(try router.url(for: exact, parameters: ["sku": "A1"]) == "https://shop.example.com/items/A1")
        #expect(try router.url(for: exact, parameters: ["sku": "A1"], host: "SHOP.example.com:8443")
                == "https://SHOP.example.com:8443/items/A1")
        #expect(try router.url(for: suffix, parameters: ["sku": "A1"], host: "eu.example.org") == "https://eu.example.org/items/A1")
        #expect(try router.url(for: suffix, parameters: ["sku": "A1"]) == "/items/A1")
        #expect(try router.url(for: any, parameters: ["slug": "x"], host: "anything.test") == "https://anything.test/p/x")
        #expect(throws: RouterError.self) { try router.url(for: exact, parameters: ["sku": "A1"], host: "other.example.com") }
        #expect(throws: RouterError.self) { try router.url(for: suffix, parameters: ["sku": "A1"], host: "example.org") }
        #expect(throws: RouterError.self) { try router.url(for: any, parameters: ["slug": "x"], host: "bad host") }
        #expect(throws: RouterError.self) { try router.url(for: any, parameters: ["slug": "x"], host: "h.test:99999") }
    }

    @Test func hostIsRefusedForRoutesWithoutOne() throws {
        let router = Router<Void>()
        let global = try router.add("/a")
        let custom = try router.add("myapp://a")
        #expect(throws: RouterError.self) { try router.url(for: global, host: "example.com") }
        #expect(throws: RouterError.self) { try router.url(for: custom, host: "example.com") }
    }

    @Test func optionalGroupsAreFilledWhenTheirParametersAreGiven() throws {
        let router = Router<Void>()
        let id = try router.add("/shop(/:category(/:item))(/page/{page:uint})")
        #expect(try router.url(for: id) == "/shop")
        #expect(try router.url(for: id, parameters: ["category": "toys"]) == "/shop/toys")
        #expect(try router.url(for: id, parameters: ["category": "toys", "item": "ball"]) == "/shop/toys/ball")
        #expect(try router.url(for: id, parameters: ["page": "2"]) == "/shop/page/2")
        #expect(try router.url(for: id, parameters: ["item": "ball", "category": "toys", "page": "3"])
                == "/shop/toys/ball/page/3")
        // An item without its category cannot fill the nested group: it goes to the query.
        #expect(try router.url(for: id, parameters: ["item": "ball"]) == "/shop?item=ball")
    }

    @Test func extraValuesBecomeAnOrderedQuery() throws {
        let router = Router<Void>()
        let id = try router.add("/search/:scope")
        let url = try router.url(for: id, parameters: [("q", "a+b c&d=e"), ("scope", "all"), ("tag", "x"), ("scope", "more"), ("tag", "y")])
        #expect(url == "/search/all?q=a%2Bb%20c%26d%3De&tag=x&scope=more&tag=y")
        let match = try #require(try router.match(url))
        #expect(match.parameters["q"] == "a+b c&d=e")
        #expect(match.parameters.values("tag") == ["x", "y"])
        #expect(match.parameters.values("scope") == ["all", "more"])
    }

    @Test func wildcardsTakeSlashSeparatedValues() throws {
        let router = Router<Void>()
        let id = try router.add("/files/*path")
        #expect(try router.url(for: id, parameters: ["path": "a/b c/d.txt"]) == "/files/a/b%20c/d.txt")
        #expect(try router.url(for: id) == "/files")
        #expect(try router.url(for: id, parameters: ["path": "//a//b/"]) == "/files/a/b")
        let unnamed = try router.add("/static/*")
        #expect(try router.url(for: unnamed, parameters: ["*": "css/site.css"]) == "/static/css/site.css")
    }

    @Test func dotSegmentsAreEscapedSoURLLibrariesKeepThem() throws {
        let router = Router<Void>()
        let id = try router.add("/dir/:name/x")
        let url = try router.url(for: id, parameters: ["name": ".."])
        #expect(url == "/dir/%2E%2E/x")
        #expect(try router.match(url)?.parameters["name"] == "..")
        #expect(URL(string: "https://h" + url)?.standardized.path == "/dir/../x")
    }

    // MARK: Errors

    @Test func unknownIDIsNotFound() throws {
        let router = Router<Void>()
        #expect(throws: RouterError(.notFound, offset: 0, "no route has id 7")) { try router.url(for: 7) }
    }

    @Test func missingEmptyAndInvalidValuesNameTheParameter() throws {
        let router = Router<Void>()
        let id = try router.add("/users/{id:int}/:tab")
        #expect(throws: RouterError(.invalidArgument, offset: 0, "no value for parameter 'id'")) {
            try router.url(for: id, parameters: ["tab": "posts"])
        }
        #expect(throws: RouterError(.invalidArgument, offset: 0, "the value for parameter 'tab' is empty")) {
            try router.url(for: id, parameters: ["id": "1", "tab": ""])
        }
        #expect(throws: RouterError(.invalidArgument, offset: 0, "value 'x1' for 'id' does not satisfy {id:int}")) {
            try router.url(for: id, parameters: ["id": "x1", "tab": "posts"])
        }
        #expect(throws: RouterError.self) { try router.url(for: id, parameters: ["id": "1", "tab": "a\u{0}b"]) }
        #expect(throws: RouterError.self) { try router.url(for: id, parameters: ["id": "1", "tab": "t", "q": "\u{0}"]) }
    }

    @Test func regexConstraintsAreChecked() throws {
        let router = Router<Void>()
        let id = try router.add("/tickets/{key:[A-Z]+-[0-9]+}")
        #expect(try router.url(for: id, parameters: ["key": "FR-12"]) == "/tickets/FR-12")
        #expect(throws: RouterError.self) { try router.url(for: id, parameters: ["key": "fr-12"]) }
    }

    @Test func urlOverTheLengthLimitIsRefused() throws {
        let router = Router<Void>()
        let id = try router.add("/x/:v")
        #expect(throws: RouterError.self) { try router.url(for: id, parameters: ["v": String(repeating: "a", count: 70_000)]) }
    }

    // MARK: Partial segments

    @Test func partialSegmentsAreBuiltAndChecked() throws {
        let router = Router<Void>()
        let file = try router.add("/files/{name}.{ext}")
        let version = try router.add("/v{major:int}.{minor:int}")
        #expect(try router.url(for: file, parameters: ["name": "archive.tar", "ext": "gz"]) == "/files/archive.tar.gz")
        #expect(try router.url(for: version, parameters: ["major": "2", "minor": "10"]) == "/v2.10")
        #expect(throws: RouterError.self) { try router.url(for: version, parameters: ["major": "two", "minor": "1"]) }
        // "tar.gz" as the extension would be read back as name "a.tar", ext "gz".
        #expect(throws: RouterError.self) { try router.url(for: file, parameters: ["name": "a", "ext": "tar.gz"]) }
        #expect(throws: RouterError(.invalidArgument, offset: 0, "no value for parameter 'ext'")) {
            try router.url(for: file, parameters: ["name": "a"])
        }
    }

    // MARK: Round trip

    /// Route shapes and how to make a valid value for each placeholder.
    static let shapes: [(pattern: String, host: String?, values: [(String, ValueKind)])] = [
        ("/users/:id", nil, [("id", .text)]),
        ("/a/{n:int}/{u:uint}/{f:float}", nil, [("n", .int), ("u", .uint), ("f", .float)]),
        ("/o/{x:uuid}/{y:alpha}/{z:alnum}/{h:hex}", nil, [("x", .uuid), ("y", .alpha), ("z", .alnum), ("h", .hex)]),
        ("/t/{key:[a-z]+_[0-9]+}", nil, [("key", .regexKey)]),
        ("/files/{name}.{ext:alnum}", nil, [("name", .text), ("ext", .alnum)]),
        ("/api/v{major:int}.{minor:int}/:rest", nil, [("major", .int), ("minor", .int), ("rest", .text)]),
        ("/p/{first}-{last:alpha}", nil, [("first", .text), ("last", .alpha)]),
        ("/static/*path", nil, [("path", .path)]),
        ("/s(/:a(/:b))(/x/{c:int})", nil, [("a", .text), ("b", .text), ("c", .int)]),
        ("myapp://:host/items/:item", nil, [("host", .text), ("item", .text)]),
        ("myapp://users/{id:int}(/:tab)", nil, [("id", .int), ("tab", .text)]),
        ("https://example.com/r/:slug", nil, [("slug", .text)]),
        ("https://*.example.com/r/:slug/*more", "eu.example.com", [("slug", .text), ("more", .path)]),
        ("https://*/any/:slug", "somewhere.test", [("slug", .text)]),
    ]

    enum ValueKind { case text, int, uint, float, uuid, alpha, alnum, hex, regexKey, path }

    @Test(arguments: 0..<shapes.count)
    func generatedURLsMatchBackToTheSameRouteAndValues(shape: Int) throws {
        var random = GenerationSeed(seed: UInt64(shape) &* 0x9E37_79B9 &+ 1)
        let (pattern, host, kinds) = Self.shapes[shape]
        let router = Router<Int>()
        let id = try router.add(pattern, value: shape)
        for _ in 0..<200 {
            var values: [(name: String, value: String)] = []
            // Names inside optional groups and wildcards may be left out.
            let optional: Set<String> = ["a", "b", "c", "tab", "more", "path"]
            for (name, kind) in kinds where !optional.contains(name) || random.next() % 3 != 0 {
                values.append((name, Self.value(kind, &random)))
            }
            let extraCount = Int(random.next() % 3)
            for index in 0..<extraCount { values.append(("q\(index)", Self.value(.text, &random))) }
            let url: String
            do {
                url = try router.url(for: id, parameters: values, host: host)
            } catch {
                Issue.record("\(pattern) \(values): \(error)")
                continue
            }
            let match = try #require(try router.match(url), "\(url) from \(values)")
            #expect(match.routeID == id)
            for (name, value) in values {
                let expected = kinds.first { $0.0 == name }?.1 == .path
                    ? value.split(separator: "/", omittingEmptySubsequences: true).joined(separator: "/")
                    : value
                #expect(match.parameters[name] == expected, "\(name) in \(url)")
            }
        }
    }

    private static func value(_ kind: ValueKind, _ random: inout GenerationSeed) -> String {
        func pick(_ alphabet: String, _ range: ClosedRange<Int>) -> String {
            let characters = Array(alphabet)
            let count = range.lowerBound + Int(random.next() % UInt64(range.count))
            return String((0..<count).map { _ in characters[Int(random.next() % UInt64(characters.count))] })
        }
        switch kind {
        case .text: return pick("ab Z9-._~!$&'()*+,;=:@/?#%[]\"<>^`{|}é日😀\\", 1...8)
        case .int: return (random.next() % 2 == 0 ? "-" : "") + pick("0123456789", 1...18)
        case .uint: return pick("0123456789", 1...19)
        case .float: return pick("0123456789", 1...6) + (random.next() % 2 == 0 ? "" : "." + pick("0123456789", 1...4))
        case .uuid: return UUID().uuidString
        case .alpha: return pick("abcxyzABCXYZ", 1...6)
        case .alnum: return pick("abcXYZ0189", 1...6)
        case .hex: return pick("0123456789abcdefABCDEF", 1...8)
        case .regexKey: return pick("abcz", 1...4) + "_" + pick("0123456789", 1...3)
        case .path: return (0..<Int(random.next() % 4)).map { _ in pick("ab Z9-._~%?é", 1...5) }.joined(separator: "/")
        }
    }
}

/// A small seeded generator so failures reproduce.
private struct GenerationSeed {
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
