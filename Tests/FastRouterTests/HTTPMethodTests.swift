@testable import FastRouter
import Testing

/// Every rule of docs/SEMANTICS.md §3.7 through the Swift API.
@Suite struct HTTPMethodTests {
    private func method(_ name: String) -> HTTPMethod { HTTPMethod(rawValue: name)! }

    /// The route id of a request's best match, or nil.
    private func id(_ router: Router<UInt64>, _ method: HTTPMethod, _ url: String) throws -> UInt64? {
        try router.match(url, method: method).match?.value
    }

    /// The `Allow` value of a 405, or nil when the request is not one.
    private func allow(_ router: Router<UInt64>, _ method: HTTPMethod, _ url: String) throws -> String? {
        if case .methodNotAllowed(let allowed) = try router.match(url, method: method) { return allowed.headerValue }
        return nil
    }

    @Test func tokens() {
        #expect(HTTPMethod(rawValue: "GET") == .get)
        #expect(HTTPMethod(rawValue: "PROPFIND")?.rawValue == "PROPFIND")
        #expect(HTTPMethod(rawValue: "M-SEARCH") != nil)
        #expect(HTTPMethod(rawValue: String(repeating: "A", count: HTTPMethod.maxLength)) != nil)
        #expect(HTTPMethod(rawValue: String(repeating: "A", count: HTTPMethod.maxLength + 1)) == nil)
        for bad in ["", "GE T", "GET\r\n", "GÉT", "(GET)", "GET,POST", "a/b", "\u{0}"] {
            #expect(HTTPMethod(rawValue: bad) == nil, "\(bad.debugDescription) is no token")
        }
        #expect(HTTPMethod(rawValue: "get") != .get, "methods compare case-sensitively")
    }

    /// A name of up to eight bytes is kept as its word, a longer one as a string: either way the
    /// method spells its name, compares and hashes by it, and routes as any other.
    @Test func namesOfEveryLengthRoundTrip() throws {
        let router = Router<Int>()
        let names = (1...10).map { length in String("PROP-~!1ZQ".prefix(length)) } + ["ABCDEFGH", "ABCDEFGHI", "Z~", "!"]
        for (index, name) in names.enumerated() {
            let method = try #require(HTTPMethod(rawValue: name), "\(name) is a token")
            #expect(method.rawValue == name && method.description == name)
            #expect(method == HTTPMethod(rawValue: String(name)) && method.hashValue == HTTPMethod(rawValue: name)?.hashValue)
            try router.add(contentsOf: [Route("/\(index)", methods: [method], value: index)])
        }
        #expect(Set(names.compactMap(HTTPMethod.init(rawValue:))).count == Set(names).count)
        for (index, name) in names.enumerated() {
            let method = try #require(HTTPMethod(rawValue: name))
            #expect(try router.match("/\(index)", method: method).match?.value == index, "\(name)")
            #expect(try router.matches("/\(index)", method: method).map(\.value) == [index], "\(name)")
            let other = names[(index + 1) % names.count] == name ? "OTHER" : names[(index + 1) % names.count]
            #expect(try router.match("/\(index)", method: HTTPMethod(rawValue: other)!).match == nil, "\(name) vs \(other)")
        }
    }

    @Test func methodsSelectRoutesOfOnePath() throws {
        let router = Router<UInt64>()
        try router.add("/users/:id", methods: [.get], value: 1)
        try router.add("/users/:id", methods: [.delete], value: 2)
        try router.add("/users/:id", methods: [.put, .patch], value: 3)
        #expect(try id(router, .get, "/users/7") == 1)
        #expect(try id(router, .delete, "/users/7") == 2)
        #expect(try id(router, .patch, "/users/7") == 3)
        #expect(try id(router, .put, "/users/7") == 3)
        #expect(try router.match("/users/7", method: .get).match?.parameters["id"] == "7")
        // Without a method every route is a candidate: registration order decides.
        #expect(try router.match("/users/7")?.value == 1)
        #expect(try router.matches("/users/7").map(\.value) == [1, 2, 3])
    }

    /// Routes of one path that differ by method are found by their methods alone, whichever
    /// comes first; routes of that path with other priorities are weighed as well, and every
    /// one of them answers only its methods.
    @Test func routesOfOnePathAnswerTheirMethodsWhateverTheirOrder() throws {
        let router = Router<UInt64>()
        try router.add("/p/:id", methods: [.delete], value: 1)
        try router.add("/p/:id", methods: [.post, .put], value: 2)
        try router.add("/p/:id", methods: [.get], value: 3)
        for (request, value) in [(HTTPMethod.delete, 1), (.post, 2), (.put, 2), (.get, 3), (.head, 3)] {
            #expect(try id(router, request, "/p/7") == UInt64(value), "\(request)")
        }
        #expect(try allow(router, .patch, "/p/7") == "GET, HEAD, POST, PUT, DELETE")
        try router.add("/p/:id", methods: [.get], priority: 1, value: 4)
        try router.add("/p/:id", methods: [.patch], priority: -1, value: 5)
        #expect(try id(router, .get, "/p/7") == 4)
        #expect(try id(router, .patch, "/p/7") == 5)
        #expect(try id(router, .delete, "/p/7") == 1)
        #expect(try allow(router, .options, "/p/7") == "GET, HEAD, POST, PUT, DELETE, PATCH")
        router.core.checkInvariants()
    }

    @Test func methodNotAllowedListsWhatTheURLsRoutesAccept() throws {
        let router = Router<UInt64>()
        try router.add("/users/:id", methods: [.post], value: 1)
        try router.add("/users/{id:int}", methods: [method("PURGE"), .get], value: 2)
        try router.add("/users/:id", methods: [.delete, .patch], value: 3)
        try router.add("/other", methods: [.put], value: 4)
        // Standard methods in RFC 9110 order, HEAD implied by GET, then the others as first seen.
        #expect(try allow(router, .options, "/users/7") == "GET, HEAD, POST, DELETE, PURGE, PATCH")
        // A route whose constraint fails does not match the URL: its methods are not allowed.
        #expect(try allow(router, .options, "/users/abc") == "POST, DELETE, PATCH")
        #expect(try router.match("/nowhere", method: .get).match == nil)
        if case .notFound = try router.match("/nowhere", method: .get) {} else { Issue.record("expected notFound") }
        let result = try router.match("/users/7", method: .trace)
        guard case .methodNotAllowed(let allowed) = result else {
            Issue.record("expected methodNotAllowed, got \(result)")
            return
        }
        #expect(Array(allowed) == [.get, .head, .post, .delete, method("PURGE"), .patch])
        #expect(allowed.contains(.head) && allowed.contains(method("PURGE")) && !allowed.contains(.put))
    }

    @Test func unknownMethodsReachOnlyRoutesForAnyMethod() throws {
        let router = Router<UInt64>()
        try router.add("/a", methods: [.get], value: 1)
        #expect(try allow(router, method("BREW"), "/a") == "GET, HEAD")
        try router.add("/a/:x", value: 2)
        #expect(try id(router, method("BREW"), "/a/b") == 2)
        #expect(try id(router, .get, "/a/b") == 2)
    }

    /// GET is found by its own bit (no table probe): before any route names it, a GET request
    /// reaches only routes for any method, as any other unknown method does; after, its routes.
    @Test func getBeforeAndAfterARouteNamesIt() throws {
        let router = Router<UInt64>()
        try router.add("/a", methods: [.post], value: 1)
        try router.add("/b", value: 2)
        #expect(try allow(router, .get, "/a") == "POST")
        #expect(try id(router, .get, "/b") == 2)
        try router.add("/a", methods: [.get], value: 3)
        #expect(try id(router, .get, "/a") == 3)
        #expect(try id(router, .post, "/a") == 1)
        #expect(try id(router, .get, "/b") == 2)
        #expect(try id(router, method("GETS"), "/b") == 2)
        guard case .methodNotAllowed(let allowed) = try router.match("/a", method: method("GE")) else {
            Issue.record("expected methodNotAllowed")
            return
        }
        #expect(allowed.contains(.get) && allowed.contains(.head) && allowed.contains(.post))
        // "GET" and "HEAD" padded with NULs share their names' first-word bits, and are no tokens;
        // nor are eight bytes ending in a byte that could stand for a shorter name's length.
        let scratch = MatchScratch()
        for name in ["GET\u{0}", "GET\u{0}\u{0}", "HEAD\u{0}", "\u{0}GET", "GET\u{0}\u{0}\u{0}\u{0}\u{3}",
                     "POST\u{0}\u{0}\u{0}\u{4}", "HEAD\u{0}\u{0}\u{0}\u{4}"] {
            let status = Array("/a".utf8).withUnsafeBufferPointer { url in
                Array(name.utf8).withUnsafeBufferPointer { router.core.match(method: $0, url: url, into: scratch) }
            }
            #expect(status == .invalidMethod, "\(Array(name.utf8))")
        }
    }

    @Test func headFallsBackToGet() throws {
        let router = Router<UInt64>()
        try router.add("/a", methods: [.get], value: 1)
        try router.add("/b", methods: [.get], value: 2)
        try router.add("/b", methods: [.head], value: 3)
        #expect(try id(router, .head, "/a") == 1)
        #expect(try id(router, .head, "/b") == 3, "a route naming HEAD comes before GET's of the same shape")
        #expect(try router.matches("/b", method: .head).map(\.value) == [3, 2], "GET's route is the next candidate")
        #expect(try router.matches("/a", method: .head).map(\.value) == [1])

        var options = RouterOptions()
        options.headFallback = false
        let strict = Router<UInt64>(options: options)
        try strict.add("/a", methods: [.get], value: 1)
        #expect(try allow(strict, .head, "/a") == "GET", "no fallback: HEAD is neither served nor listed")
        #expect(try id(strict, .get, "/a") == 1)
    }

    @Test func headIsAnsweredByTheRouteThatAnswersGet() throws {
        // HEAD takes the GET routes as candidates in §3.1 order: a route for any method does not
        // hide a more specific GET route from HEAD (docs/SEMANTICS.md §3.7).
        let router = Router<UInt64>()
        try router.add("/files/:name", value: 1)
        try router.add("/files/index", methods: [.get], value: 2)
        #expect(try id(router, .get, "/files/index") == 2)
        #expect(try id(router, .head, "/files/index") == 2)
        #expect(try router.matches("/files/index", method: .head).map(\.value) == [2, 1])
        #expect(try id(router, .head, "/files/other") == 1)
        // The same for a HEAD route below a more specific GET route.
        try router.add("/docs/:name", methods: [.head], value: 3)
        try router.add("/docs/index", methods: [.get], value: 4)
        #expect(try router.matches("/docs/index", method: .head).map(\.value) == [4, 3])
    }

    @Test func aRouteNamingHeadComesFirstAmongRoutesOfOneShape() throws {
        let router = Router<UInt64>()
        try router.add("/a", methods: [.get], value: 1)
        try router.add("/a", methods: [.head], value: 2)
        #expect(try id(router, .head, "/a") == 2, "HEAD's own route, though registered later")
        #expect(try id(router, .get, "/a") == 1)
        #expect(try Array(router.candidates("/a", method: .head)).map(\.value) == [2, 1])
        let matcher = Matcher(router: router)
        #expect(try matcher.match("/a", method: .head) == .matched && matcher.value == 2)
        #expect(matcher.next() && matcher.value == 1, "declining HEAD's route gives GET's")
        #expect(!matcher.next())
        // Shapes compare ranks, not text: two constraints of one rank, the later for any method
        // (it names HEAD), and the earlier still answers GET.
        try router.add("/n/{n:int}", methods: [.get], value: 3)
        try router.add("/n/{n:uint}", value: 4)
        #expect(try router.matches("/n/5", method: .head).map(\.value) == [4, 3])
        #expect(try router.matches("/n/5", method: .get).map(\.value) == [3, 4])
        #expect(try router.matches("/n/5").map(\.value) == [3, 4], "no method: registration order")
    }

    @Test func precedenceComesBeforeTheRouteNamingHead() throws {
        let router = Router<UInt64>()
        try router.add("/p", methods: [.head], value: 1)
        try router.add("/p", methods: [.get], priority: 1, value: 2)
        #expect(try router.matches("/p", method: .head).map(\.value) == [2, 1], "priority first")
        try router.add("/s/:x", methods: [.head], value: 3)
        try router.add("/s/x", methods: [.get], value: 4)
        #expect(try router.matches("/s/x", method: .head).map(\.value) == [4, 3], "specificity next")
        let matcher = Matcher(router: router)
        #expect(try matcher.match("/s/x", method: .head) == .matched && matcher.value == 4)
        #expect(matcher.next() && matcher.value == 3 && !matcher.next())
    }

    @Test func withoutTheFallbackHeadReachesOnlyRoutesNamingIt() throws {
        var options = RouterOptions()
        options.headFallback = false
        let router = Router<UInt64>(options: options)
        try router.add("/files/:name", value: 1)
        try router.add("/files/index", methods: [.get], value: 2)
        try router.add("/a", methods: [.get], value: 3)
        try router.add("/a", methods: [.head], value: 4)
        #expect(try router.matches("/files/index", method: .head).map(\.value) == [1])
        #expect(try router.matches("/a", method: .head).map(\.value) == [4])
        try router.add("/g", methods: [.get], value: 5)
        #expect(try allow(router, .head, "/g") == "GET")
    }

    @Test func methodsDoNotChangePrecedence() throws {
        let router = Router<UInt64>()
        try router.add("/users/:id", methods: [.get], value: 1)
        try router.add("/users/new", value: 2)
        try router.add("/users/:id", methods: [.post], priority: 5, value: 3)
        #expect(try id(router, .get, "/users/new") == 2, "literal beats placeholder whatever the methods")
        #expect(try id(router, .post, "/users/new") == 3, "priority first")
        #expect(try router.matches("/users/new", method: .post).map(\.value) == [3, 2])
        #expect(try router.matches("/users/new", method: .get).map(\.value) == [2, 1])
        #expect(try Array(router.candidates("/users/new", method: .get)).map(\.value) == [2, 1])
    }

    @Test func declinesWalkTheFilteredOrder() throws {
        let router = Router<UInt64>()
        try router.add("/a/:x", methods: [.get], value: 1)
        try router.add("/a/b", methods: [.post], value: 2)
        try router.add("/a/*rest", methods: [.get, .post], value: 3)
        try router.add("/:x/:y", value: 4)
        let matcher = Matcher(router: router)
        #expect(try matcher.match("/a/b", method: .get) == .matched)
        var ids = [matcher.value!]
        while matcher.next() { ids.append(matcher.value!) }
        #expect(ids == [1, 3, 4])
        #expect(try matcher.match("/a/b", method: .post) == .matched)
        ids = [matcher.value!]
        while matcher.next() { ids.append(matcher.value!) }
        #expect(ids == [2, 3, 4])
        #expect(matcher.allowedMethods == nil)
    }

    @Test func matcherReportsMethodNotAllowed() throws {
        let router = Router<UInt64>()
        try router.add("/a", methods: [.post], value: 1)
        let matcher = Matcher(router: router)
        #expect(try matcher.match("/a", method: .get) == .methodNotAllowed)
        #expect(matcher.allowedMethods?.headerValue == "POST")
        #expect(matcher.routeID == UInt64.max && matcher.value == nil && !matcher.next())
        #expect(try matcher.match("/b", method: .get) == .notFound)
        #expect(matcher.allowedMethods == nil)
        #expect(try matcher.match("/a", method: .post) == .matched)
        #expect(matcher.allowedMethods == nil)
        #expect(try matcher.match("/a") == true, "a lookup without a method ignores methods")
        #expect(throws: RouterError.self) { try matcher.match("/a%zz", method: .get) }
    }

    @Test func duplicatesNeedOverlappingMethods() throws {
        let router = Router<UInt64>()
        try router.add("/a", methods: [.get], value: 1)
        try router.add("/a", methods: [.post], value: 2)
        #expect(throws: RouterError.self) { try router.add("/a", methods: [.post, .put], value: 3) }
        #expect(throws: RouterError.self) { try router.add("/a", value: 4) }
        try router.add("/b", value: 5)
        #expect(throws: RouterError.self) { try router.add("/b", methods: [.get], value: 6) }
        #expect(throws: RouterError.self) { try router.add("/:name", methods: [.delete], value: 7); try router.add("/:other", methods: [.delete], value: 8) }
        do {
            try router.add("/a", methods: [.get], value: 9)
            Issue.record("duplicate accepted")
        } catch {
            #expect(error.code == .duplicateRoute)
        }
        // A batch with a collision adds nothing.
        #expect(throws: RouterError.self) {
            try router.add(contentsOf: [Route("/c", methods: [.get], value: 10), Route("/c", methods: [.get, .head], value: 11)])
        }
        #expect(try router.match("/c", method: .get).match == nil)
        try router.add(contentsOf: [Route("/c", methods: [.get], value: 10), Route("/c", methods: [.head], value: 11)])
        #expect(try id(router, .head, "/c") == 11)
    }

    @Test func sixtyFourMethodNamesPerRouter() throws {
        let router = Router<UInt64>()
        for index in 0..<64 {
            try router.add("/m/\(index)", methods: [method("M\(index)")], value: UInt64(index))
        }
        // Every name, so that names sharing a slot of the router's method index are all found.
        for index in 0..<64 {
            #expect(try id(router, method("M\(index)"), "/m/\(index)") == UInt64(index))
            #expect(try allow(router, .get, "/m/\(index)") == "M\(index)")
        }
        do {
            try router.add("/m/64", methods: [method("M64")], value: 64)
            Issue.record("a 65th method name was accepted")
        } catch {
            #expect(error.code == .invalidArgument)
            #expect(error.message.contains("M64"))
        }
        // Known names still register.
        try router.add("/m/64", methods: [method("M0"), method("M63")], value: 64)
        #expect(try id(router, method("M63"), "/m/64") == 64)
    }

    @Test func removalKeepsTheOtherMethods() throws {
        let router = Router<UInt64>()
        try router.add("/a", methods: [.get], id: 1, value: 1)
        try router.add("/a", methods: [.post], id: 2, value: 2)
        #expect(router.remove(id: 1) == 1)
        #expect(try allow(router, .get, "/a") == "POST")
        #expect(try id(router, .post, "/a") == 2)
        try router.add("/a", methods: [.get], id: 1, value: 3)
        #expect(try id(router, .get, "/a") == 3)
    }

    @Test func schemeAndGlobalTablesFilterAlike() throws {
        let router = Router<UInt64>()
        try router.add("https://api.example.com/v1/:x", methods: [.post], value: 1)
        try router.add("/v1/:x", methods: [.get], value: 2)
        #expect(try id(router, .post, "https://api.example.com/v1/z") == 1)
        #expect(try id(router, .get, "https://api.example.com/v1/z") == 2)
        #expect(try allow(router, .put, "https://api.example.com/v1/z") == "GET, HEAD, POST")
    }

    @Test func introspectionShowsMethods() throws {
        let router = Router<UInt64>()
        try router.add("/a", methods: [.post, .get], id: 1, value: 1)
        try router.add("/b", id: 2, value: 2)
        #expect(router.routes.map(\.methods) == [[.get, .post], []])
        #expect(router.routes[0].description == "GET,POST /a  priority 0  id 1  table global")
        #expect(router.routes[1].description == "/b  priority 0  id 2  table global")
        #expect(router.dump().contains("GET,POST /a  priority 0  id 1"))
        #expect(router.dump().contains("methods GET,POST"))
    }

    @Test func reverseRoutingIgnoresMethods() throws {
        let router = Router<UInt64>()
        try router.add("/users/:id", methods: [.get], id: 1, value: 1)
        #expect(try router.url(for: 1, parameters: ["id": "7"]) == "/users/7")
    }
}

/// Method names of every length compare whole: the lookup compares a name's first eight bytes as
/// one word, built from overlapping loads, then the rest.
/// The standard names a request's lookup tells by their bytes (``standardMethodNumber(of:)``)
/// and the bits it then reads (``MethodTable/standardBit(_:)``).
@Suite struct StandardMethodNameTests {
    private func number(_ name: String) -> Int {
        Array(name.utf8).withUnsafeBufferPointer { standardMethodNumber(of: $0) }
    }

    @Test func everyStandardNameHasItsNumberAndNoOtherNameHasOne() {
        let names = MethodTable.standardNames.map(\.rawValue)
        for (index, name) in names.enumerated() {
            #expect(number(name) == index, "\(name)")
            // Every byte changed, and the name cut or lengthened by one, is another name.
            var bytes = Array(name.utf8)
            for position in bytes.indices {
                let original = bytes[position]
                for replacement: UInt8 in [original ^ 0x20, original &+ 1, 0, 0xFF] {
                    bytes[position] = replacement
                    let other = String(decoding: bytes, as: UTF8.self)
                    #expect(number(other) == (names.firstIndex(of: other) ?? -1), "\(other)")
                }
                bytes[position] = original
            }
            #expect(number(String(name.dropLast())) == -1 && number(name + "S") == -1, "\(name)")
        }
        for other in ["", "G", "GE", "PURGE", "PROPFIND", "LONGMETHODNAME"] { #expect(number(other) == -1, "\(other)") }
    }

    @Test func standardBitsAreTheNamesBitsWhateverOrderTheyCameIn() throws {
        let table = MethodTable()
        for number in MethodTable.standardNames.indices { #expect(table.standardBit(number) == 0) }
        // Extension names first, then the standard ones in a shuffled order, one add at a time.
        _ = try table.set(of: [HTTPMethod(rawValue: "PURGE")!, HTTPMethod(rawValue: "LONGMETHODNAME")!])
        for name in MethodTable.standardNames.shuffled() {
            _ = try table.set(of: [name])
            for (number, standard) in MethodTable.standardNames.enumerated() {
                #expect(table.standardBit(number) == table.bit(of: standard), "\(standard) after \(name)")
            }
        }
        #expect(table.standardBit(0) == table.getBit && table.getBit != 0)
    }
}

@Suite struct MethodNameLengthTests {
    @Test func namesOfEveryLengthUpToTwenty() throws {
        let router = Router<Int>()
        let letters = Array("ABCDEFGHIJKLMNOPQRST")
        for length in 1...20 {
            let name = HTTPMethod(rawValue: String(letters[0..<length]))!
            try router.add("/m", methods: [name], value: length)
        }
        for length in 1...20 {
            let name = HTTPMethod(rawValue: String(letters[0..<length]))!
            #expect(try router.match("/m", method: name).match?.value == length)
            // Same length, one byte changed at the start, the middle or the end: unknown.
            for position in Set([0, length / 2, length - 1]) {
                var changed = Array(letters[0..<length])
                changed[position] = "z"
                let other = HTTPMethod(rawValue: String(changed))!
                if case .methodNotAllowed = try router.match("/m", method: other) {} else {
                    Issue.record("\(other) matched a route it is not registered for")
                }
            }
        }
    }
}
