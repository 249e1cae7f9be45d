@testable import FastRouter
import Testing

/// The static path map (docs/ARCHITECTURE.md, "Static paths"): a global table without dynamic
/// routes is looked up by its whole path, with the answers the walk gives, and the map follows
/// every change of the table: kept while no route is dynamic, dropped by the first dynamic route
/// and rebuilt when the last one goes.
@Suite struct StaticPathsTests {
    private static func published(_ router: Router<Int>) -> TableRoots { router.core.tables.published }

    private static func paths(_ router: Router<Int>) -> Set<String> {
        Set(published(router).staticPaths.entries.map { String(decoding: $0.path, as: UTF8.self) })
    }

    /// A path's key is the same wherever the path lies and however much of the buffer may be
    /// read past it (what the editor computes for the path alone); the last word is the path's
    /// last 8 bytes (all of a shorter one), and paths that differ in any byte or in length get
    /// other keys.
    @Test func keysDependOnThePathOnly() {
        let text = Array("/abcdefghijklmnopqrstuvwxyz/0123456789/x/12345678/".utf8)
        var seen: [StaticPathKey: [UInt8]] = [:]
        text.withUnsafeBufferPointer { buffer in
            let base = buffer.baseAddress!
            for start in 0..<text.count {
                // A lookup by path has one byte at least (the empty path is walked).
                for end in (start + 1)...text.count {
                    let path = Array(text[start..<end])
                    let alone = StaticPathKey(of: path)
                    for readable in [end, text.count] {
                        let key = StaticPathKey(base, from: start, end: end, readable: readable)
                        #expect(key == alone, "\(start)..<\(end)")
                    }
                    let last = path.suffix(8).reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
                    #expect(alone.last == last, "\(start)..<\(end)")
                    if let other = seen[alone] { #expect(other == path) } else { seen[alone] = path }
                }
            }
        }
    }

    @Test func theMapFollowsTheTable() throws {
        let router = Router<Int>()
        try router.add("/a", id: 1, value: 1)
        try router.add("/a/b/c", id: 2, value: 2)
        try router.add("/x/y", id: 3, value: 3)
        #expect(Self.paths(router) == ["/a", "/a/b/c", "/x/y"])
        router.core.checkInvariants()
        #expect(try router.match("/a/b/c")?.value == 2)
        #expect(try router.match("/a/b") == nil)
        #expect(try router.match("/a/b/c/d") == nil)

        // A dynamic route: no map, the walk answers.
        try router.add("/a/:id", id: 4, value: 4)
        #expect(Self.published(router).dynamicRoutes == 1)
        #expect(Self.published(router).staticPaths.root == nil)
        router.core.checkInvariants()
        #expect(try router.match("/a/b")?.value == 4)
        #expect(try router.match("/a/b/c")?.value == 2)

        // The last dynamic route gone: the map is built again from the tree.
        router.remove(id: 4)
        #expect(Self.published(router).dynamicRoutes == 0)
        #expect(Self.paths(router) == ["/a", "/a/b/c", "/x/y"])
        router.core.checkInvariants()
        #expect(try router.match("/a/b") == nil)

        // A route below an existing one writes a new block for it: the map follows.
        try router.add("/a/z", id: 5, value: 5)
        #expect(try router.match("/a")?.value == 1)
        #expect(try router.match("/a/z")?.value == 5)
        router.remove(id: 1)
        #expect(Self.paths(router) == ["/a/b/c", "/a/z", "/x/y"])
        router.core.checkInvariants()
        #expect(try router.match("/a") == nil)
        for id: UInt64 in [2, 3, 5] { router.remove(id: id) }
        #expect(Self.published(router).staticPaths.root == nil)
        #expect(try router.match("/x/y") == nil)
        router.core.checkInvariants()
    }

    /// Routes of one path are weighed as at the walk's end: priority, then registration; methods
    /// (405 and HEAD served by GET); hosts; a decline steps to the next route of the path.
    @Test func routesOfOnePathAreWeighedAsTheWalkWeighsThem() throws {
        let router = Router<Int>()
        try router.add("/p", id: 1, value: 1)
        try router.add("/p", priority: 1, id: 2, value: 2)
        try router.add("/m", methods: [.get], id: 3, value: 3)
        try router.add("/m", methods: [.post], id: 4, value: 4)
        try router.add("https://api.example.com/h", id: 5, value: 5)
        try router.add("/h", id: 6, value: 6)
        #expect(Self.published(router).dynamicRoutes == 0)
        #expect(try router.match("/p")?.value == 2)
        let matcher = Matcher(router: router)
        #expect(try matcher.match("/p"))
        #expect(matcher.value == 2)
        #expect(matcher.next())
        #expect(matcher.value == 1)
        #expect(!matcher.next())
        guard case .matched(let post) = try router.match("/m", method: .post) else {
            Issue.record("POST /m")
            return
        }
        #expect(post.value == 4)
        guard case .matched(let head) = try router.match("/m", method: .head) else {
            Issue.record("HEAD /m")
            return
        }
        #expect(head.value == 3)
        guard case .methodNotAllowed(let allowed) = try router.match("/m", method: .delete) else {
            Issue.record("DELETE /m")
            return
        }
        #expect(allowed.contains(.get) && allowed.contains(.post))
        #expect(try router.match("https://api.example.com/h")?.value == 5)
        #expect(try router.match("/h")?.value == 6)
    }

    /// The map holds a path as the walk compares it: a decoded `/` in a literal is not a
    /// separator, and the case-insensitive option walks the tree instead.
    @Test func encodedAndFoldedPaths() throws {
        let router = Router<Int>()
        try router.add("/a%2Fb", id: 1, value: 1)
        try router.add("/a/b", id: 2, value: 2)
        #expect(try router.match("/a%2Fb")?.value == 1)
        #expect(try router.match("/a/b")?.value == 2)
        #expect(try router.match("/a%2fb")?.value == 1)
        var options = RouterOptions()
        options.caseInsensitivePaths = true
        let folded = Router<Int>(options: options)
        try folded.add("/Docs/Intro", id: 1, value: 1)
        #expect(try folded.match("/docs/INTRO")?.value == 1)
    }

    /// A batch larger than the refresh limit rebuilds the map once; single adds and removals on
    /// a large table keep it.
    @Test func largeBatchesAndLargeTables() throws {
        let router = Router<Int>()
        let count = StaticPathsEditor.refreshLimit * 3
        try router.add(contentsOf: (0..<count).map { Route("/s/\($0 % 7)/r\($0)", id: UInt64($0 + 1), value: $0) })
        #expect(Self.published(router).staticPaths.entries.count == count)
        router.core.checkInvariants()
        for index in stride(from: 0, to: count, by: 37) {
            #expect(try router.match("/s/\(index % 7)/r\(index)")?.value == index)
        }
        try router.add("/s/1/extra", id: 10_000, value: -1)
        router.remove(id: 5)
        #expect(Self.published(router).staticPaths.entries.count == count)
        #expect(try router.match("/s/1/extra")?.value == -1)
        #expect(try router.match("/s/4/r4") == nil)
        router.core.checkInvariants()
    }

    /// What one lookup left in a scratch: its status, route, parameters, the methods a 405
    /// allows, and the routes its declines step through.
    private struct Answer: Equatable {
        var status: LookupStatus
        var route: UInt64
        var sequence: UInt64?
        var parameters: Int
        var allowed: [String]
        var declines: [UInt64]

        init(_ status: LookupStatus, _ scratch: MatchScratch) {
            self.status = status
            route = scratch.routeID
            sequence = scratch.routeSequence
            parameters = scratch.parameterCount
            allowed = scratch.allowedMethods.map { $0.map(\.rawValue) } ?? []
            declines = []
            while scratch.next() == .found { declines.append(scratch.routeID) }
        }
    }

    /// A lookup answered by the whole path (``RouterCore/lookupByPath``) gives the walk's answer
    /// for every URL and method: one route at a path or several, methods, priorities, paths the
    /// map lacks, URLs that are not a plain path, scheme tables; through the C entries'
    /// functions (on a router without payloads, as the C ABI's), the Swift API and the
    /// ``Matcher``.
    @Test(arguments: [false, true])
    func answersByPathAgreeWithTheWalk(dynamic: Bool) throws {
        var routes: [(pattern: String, methods: [HTTPMethod], priority: Int32)] = [
            ("/", [], 0), ("/a", [], 0), ("/a/b", [.get], 0), ("/a/c", [.post], 0), ("/a/d", [.get], 0),
            ("/a/d", [.head], 0), ("/p", [], 0), ("/p", [], 2), ("https://api.example.com/h", [], 0),
            ("http://*.example.com/w", [], 0), ("/long/path/with/many/segments/index.html", [], 0),
            ("/m", [HTTPMethod(rawValue: "PURGE")!], 0),
            ("/s", [.put], 0), ("/s", [.patch, .options], 0), ("/s", [.trace], 0), ("/s", [.connect, .delete], 0),
        ]
        // With a dynamic route, every lookup goes through the walk, a standard name by its
        // number (the C entry's `methodStatus`), routes of one path by their methods.
        if dynamic { routes += [("/d/:id", [.get, .put], 0), ("/d/:id", [.delete], 0), ("/d/:id", [.post], 0)] }
        let router = Router<Int>()
        let plain = RouterCore(options: RouterOptions())
        for (index, route) in routes.enumerated() {
            try router.add(route.pattern, methods: route.methods, priority: route.priority, id: UInt64(index + 1), value: index)
            let list = Array(route.methods.map(\.rawValue).joined(separator: ",").utf8)
            try Array(route.pattern.utf8).withUnsafeBufferPointer { pattern throws(RouterError) in
                try list.withUnsafeBufferPointer { methods throws(RouterError) in
                    try plain.add(pattern: pattern, methods: methods, priority: route.priority, id: UInt64(index + 1))
                }
            }
        }
        #expect(router.core.mayAnswerByPath == !dynamic && plain.mayAnswerByPath == !dynamic)
        let urls = ["/", "/a", "/a/", "/a/b", "/a/c", "/a/d", "/a/x", "/p", "/h", "/w", "http://a.example.com/w", "/m",
                    "/missing", "/long/path/with/many/segments/index.html", "/long/path/with/many/segments/index.htm",
                    "/a?q=1", "/a#f", "https://api.example.com/h", "http://example.com/a", "/a%2Fb", "//a", "", "a", "/A",
                    "/s", "/d/1", "/d/1/"]
        // Every standard name, names one byte away from one, and longer names.
        let methods: [HTTPMethod?] = [nil] + MethodTable.standardNames + ["PURGE", "LONGMETHODNAME", "GEX", "PUTS", "POSX",
                                                                           "DELETF", "OPTIONs", "get", "CONNEC"].map { HTTPMethod(rawValue: $0)! }
        let walked = MatchScratch(), answered = MatchScratch()
        for url in urls {
            let bytes = Array(url.utf8)
            for method in methods {
                let label = "\(method?.rawValue ?? "no method") \(url)"
                // The C entries: as fr_router_match and fr_router_match_method choose.
                let expectedC = bytes.withUnsafeBufferPointer { Answer(plain.walk(method: method, url: $0, into: walked), walked) }
                let viaC = bytes.withUnsafeBufferPointer { url in
                    let status: Int32
                    if let method {
                        status = Array(method.rawValue.utf8).withUnsafeBufferPointer { method in
                            plain.mayAnswerByPath && isGET(method) ? pathGETStatus(plain, method: method, url, answered)
                                : methodStatus(plain, method: method, url, answered)
                        }
                    } else {
                        status = plain.mayAnswerByPath ? pathMatchStatus(plain, url, answered) : matchStatus(plain, url, answered)
                    }
                    return Answer(LookupStatus(rawValue: status)!, answered)
                }
                #expect(viaC == expectedC, "\(label)")
                // The Matcher's and the package's entries.
                let expected = bytes.withUnsafeBufferPointer { Answer(router.core.walk(method: method, url: $0, into: walked), walked) }
                let viaCore = bytes.withUnsafeBufferPointer { url in
                    Answer(method.map { router.core.match(method: $0, url: url, into: answered) }
                        ?? router.core.match(url: url, into: answered), answered)
                }
                #expect(viaCore == expected, "\(label)")
                #expect(expected.route == expectedC.route && expected.status == expectedC.status, "\(label)")
                // The Swift API: the same route, or the same failure.
                if let method {
                    switch try? router.match(url, method: method) {
                    case .matched(let match)?: #expect(expected.status == .found && match.routeID == expected.route, "\(label)")
                    case .methodNotAllowed?: #expect(expected.status == .methodNotAllowed, "\(label)")
                    case .notFound?: #expect(expected.status == .noMatch, "\(label)")
                    case nil: #expect(expected.status == .invalidURL, "\(label)")
                    }
                } else {
                    switch Result(catching: { () throws(RouterError) in try router.match(url) }) {
                    case .success(let match): #expect(match?.routeID == (expected.status == .found ? expected.route : nil), "\(label)")
                    case .failure: #expect(expected.status == .invalidURL, "\(label)")
                    }
                }
            }
        }
    }

    /// The hint a lookup reads to go by the path follows the published tables: set while the
    /// global table has static routes only, cleared by a dynamic route, and never set for a
    /// router that compares paths case-insensitively.
    @Test func theHintFollowsTheTables() throws {
        let router = Router<Int>()
        #expect(!router.core.mayAnswerByPath)
        try router.add("/a", id: 1, value: 1)
        #expect(router.core.mayAnswerByPath)
        try router.add("/b/:id", id: 2, value: 2)
        #expect(!router.core.mayAnswerByPath)
        #expect(try router.match("/b/7")?.routeID == 2)
        router.remove(id: 2)
        #expect(router.core.mayAnswerByPath)
        #expect(try router.match("/b/7") == nil)
        #expect(try router.match("/a")?.routeID == 1)
        router.remove(id: 1)
        #expect(!router.core.mayAnswerByPath)
        var options = RouterOptions()
        options.caseInsensitivePaths = true
        let folded = Router<Int>(options: options)
        try folded.add("/Docs", id: 1, value: 1)
        #expect(!folded.core.mayAnswerByPath)
        #expect(try folded.match("/docs")?.routeID == 1)
    }
}
