import Foundation
import Testing
import FastRouter
import FastRouterDeepLinks

/// Records what handlers did, in order.
private final class Log {
    var entries: [String] = []
    func add(_ entry: String) { entries.append(entry) }
}

@Suite struct DeepLinkRouterTests {
    // MARK: Dispatch order and declines

    @Test func bestCandidateRunsFirstAndAcceptingStopsTheChain() throws {
        let log = Log()
        let links = DeepLinkRouter<Void>()
        try links.route("/users/:id") { context in log.add("user \(context.parameters["id"]!)") }
        try links.route("/users/me") { _ in log.add("me") }
        let outcome = links.open("/users/me")
        #expect(log.entries == ["me"])
        #expect(outcome.isRouted)
        #expect(outcome.declined.isEmpty)
        if case .route(_, let pattern, _) = outcome.resolution { #expect(pattern == "/users/me") } else { Issue.record() }
    }

    @Test func declinedURLsGoToTheNextCandidateInPrecedenceOrder() throws {
        let log = Log()
        let links = DeepLinkRouter<Void>()
        try links.route("/users/*rest") { _ in log.add("wildcard") }
        try links.route("/users/:id", name: "user") { context in
            log.add("placeholder")
            try context.decline("not a known user")
        }
        try links.route("/users/{id:int}") { context in
            log.add("constraint")
            throw CancellationError()
        }
        let outcome = links.open("/users/42")
        #expect(log.entries == ["constraint", "placeholder", "wildcard"])
        #expect(outcome.declined.map(\.pattern) == ["/users/{id:int}", "/users/:id"])
        #expect(outcome.declined[0].error is CancellationError)
        #expect(outcome.declined[1].error as? DeepLinkDecline == DeepLinkDecline(reason: "not a known user"))
        #expect(outcome.declined[1].name == "user")
        #expect(outcome.declined.map(\.routeID) != [])
    }

    @Test func typedParameterErrorsDeclineLikeCrossroad() throws {
        let links = DeepLinkRouter<Void>()
        var shown: [Int] = []
        try links.route("/items/:id") { context in shown.append(try context.arguments.id) }
        let outcome = links.open("/items/abc")
        #expect(shown.isEmpty)
        #expect(!outcome.isHandled)
        #expect(outcome.declined.first?.error as? DeepLinkArgumentError
                == DeepLinkArgumentError(name: "id", reason: .invalid(value: "abc", expected: "Int")))
        links.open("/items/7")
        #expect(shown == [7])
    }

    @Test func priorityOrdersHandlersBeforeSpecificity() throws {
        let log = Log()
        let links = DeepLinkRouter<Void>()
        try links.route("/a/b") { _ in log.add("literal") }
        try links.route("/a/:x", priority: 5) { _ in
            log.add("priority")
            throw DeepLinkDecline(reason: "no")
        }
        links.open("/a/b")
        #expect(log.entries == ["priority", "literal"])
    }

    @Test func eachRouteIsAskedOnceEvenWhenTwoExpansionsMatch() throws {
        var calls = 0
        let links = DeepLinkRouter<Void>()
        try links.route("/a(/:x)(/{y:int})") { _ in
            calls += 1
            throw DeepLinkDecline(reason: "no")
        }
        let plain = Router<Void>()
        try plain.add("/a(/:x)(/{y:int})")
        #expect(try plain.matches("/a/1").count == 2)
        let outcome = links.open("/a/1")
        #expect(calls == 1)
        #expect(outcome.declined.count == 1)
    }

    @Test func schemeTableComesBeforeTheGlobalTable() throws {
        let log = Log()
        let links = DeepLinkRouter<Void>()
        try links.route("/settings") { _ in log.add("global") }
        try links.route("myapp://settings") { _ in
            log.add("scheme")
            throw DeepLinkDecline(reason: "locked")
        }
        links.open("myapp://settings")
        links.open("/settings")
        links.open("otherapp://settings")
        #expect(log.entries == ["scheme", "global", "global", "global"])
    }

    // MARK: Unmatched handlers

    @Test func unmatchedHandlersRunOncePerURLSchemeFirst() throws {
        let log = Log()
        let links = DeepLinkRouter<Void>()
        try links.route("myapp://known") { _ in throw DeepLinkDecline(reason: "no") }
        links.setUnmatchedHandler(forScheme: "MyApp") { unmatched in
            log.add("myapp \(unmatched.url) declined=\(unmatched.declined.count)")
            if unmatched.url.hasSuffix("pass") { throw DeepLinkDecline(reason: "pass it on") }
        }
        links.setUnmatchedHandler(forScheme: nil) { unmatched in log.add("global \(unmatched.scheme ?? "-")") }

        #expect(links.open("myapp://known").resolution == .unmatchedHandler(scheme: "myapp"))
        #expect(links.open("MYAPP://unknown").resolution == .unmatchedHandler(scheme: "myapp"))
        #expect(links.open("myapp://pass").resolution == .unmatchedHandler(scheme: nil))
        #expect(links.open("https://example.com/x").resolution == .unmatchedHandler(scheme: nil))
        #expect(links.open("/relative").resolution == .unmatchedHandler(scheme: nil))
        #expect(log.entries == ["myapp myapp://known declined=1", "myapp MYAPP://unknown declined=0", "myapp myapp://pass declined=0",
                                "global myapp", "global https", "global -"])
    }

    @Test func withoutUnmatchedHandlersTheURLIsUnhandled() throws {
        let links = DeepLinkRouter<Void>()
        links.setUnmatchedHandler(forScheme: "myapp") { _ in throw DeepLinkDecline(reason: "no") }
        let outcome = links.open("myapp://nothing")
        #expect(outcome.resolution == .unhandled)
        #expect(!outcome.isHandled)
        links.removeUnmatchedHandler(forScheme: "myapp")
        #expect(links.open("myapp://nothing").resolution == .unhandled)
    }

    @Test func malformedURLsReachTheUnmatchedHandlersWithTheirError() throws {
        var seen: RouterError?
        let links = DeepLinkRouter<Void>()
        try links.route("/a/:x") { _ in Issue.record("must not run") }
        links.setUnmatchedHandler(forScheme: "myapp") { unmatched in seen = unmatched.urlError }
        let outcome = links.open("myapp://a/%zz")
        #expect(outcome.resolution == .unmatchedHandler(scheme: "myapp"))
        #expect(outcome.urlError?.code == .invalidURL)
        #expect(seen?.code == .invalidURL)
        #expect(!links.canOpen("/a/%00"))
    }

    // MARK: canOpen, user info, names

    @Test func canOpenOnlyMatches() throws {
        var calls = 0
        let links = DeepLinkRouter<Void>()
        try links.route("https://example.com/p/{id:int}") { _ in calls += 1 }
        #expect(links.canOpen("https://EXAMPLE.com:443/p/1?x=y#top"))
        #expect(!links.canOpen("https://example.com/p/x"))
        #expect(!links.canOpen("https://other.com/p/1"))
        #expect(calls == 0)
    }

    @Test func userInfoAndMatchDetailsReachTheHandler() throws {
        struct Source: Equatable { var app: String }
        var received: DeepLinkContext<Source>?
        let links = DeepLinkRouter<Source>()
        let id = try links.route("myapp://users/{id:int}", name: "user") { context in received = context }
        links.open("myapp://users/42?tab=posts#bio", userInfo: Source(app: "mail"))
        let context = try #require(received)
        #expect(context.userInfo == Source(app: "mail"))
        #expect(context.url == "myapp://users/42?tab=posts#bio")
        #expect(context.routeID == id)
        #expect(context.routeName == "user")
        #expect(context.pattern == "myapp://users/{id:int}")
        #expect(context.fragment == "bio")
        #expect(context.candidateIndex == 0)
        #expect(try context.parameter("id", as: Int.self) == 42)
        #expect(try context.arguments.tab as String == "posts")
    }

    @Test func routeNamesAreUniqueAndRemovable() throws {
        let links = DeepLinkRouter<Void>()
        let ids = try links.route(["myapp://a", "https://example.com/a"], name: "a") { _ in }
        #expect(ids.count == 2)
        #expect(links.name(of: ids[1]) == "a")
        #expect(throws: RouterError(.invalidArgument, offset: 0, "the route name 'a' is already used")) {
            try links.route("/b", name: "a") { _ in }
        }
        #expect(throws: RouterError.self) { try links.route("/c", name: "") { _ in } }
        #expect(links.remove(named: "a") == 2)
        #expect(!links.canOpen("myapp://a"))
        #expect(links.routes.isEmpty)
        try links.route("/b", name: "a") { _ in }
        #expect(links.canOpen("/b"))
    }

    @Test func aFailedMultiPatternRegistrationAddsNothing() throws {
        let links = DeepLinkRouter<Void>()
        #expect(throws: RouterError.self) { try links.route(["/ok", "/bad/{x"], name: "n") { _ in } }
        #expect(links.routes.isEmpty)
        #expect(throws: RouterError.self) { try links.url(named: "n") }
        try links.route(["/ok"], name: "n") { _ in }
        #expect(links.routes.count == 1)
    }

    @Test func removeByIDKeepsTheNameForTheOtherPatterns() throws {
        let links = DeepLinkRouter<Void>()
        let ids = try links.route(["myapp://a/:x", "https://example.com/a/:x"], name: "a") { _ in }
        #expect(links.remove(id: ids[0]) == 1)
        #expect(try links.url(named: "a", parameters: ["x": 1]) == "https://example.com/a/1")
    }

    @Test func handlersCanBeUnitTestedWithAHandBuiltContext() throws {
        var shown: [Int] = []
        let handler: DeepLinkRouter<Bool>.Handler = { context in
            guard context.userInfo else { try context.decline("signed out") }
            shown.append(try context.arguments.id)
        }
        let context = DeepLinkContext(url: "myapp://p/3", routeID: 1, pattern: "myapp://p/:id", routeName: nil,
                                      parameters: Parameters([("id", "3")]), fragment: nil, userInfo: true, candidateIndex: 0)
        try handler(context)
        #expect(shown == [3])
        let signedOut = DeepLinkContext(url: "myapp://p/3", routeID: 1, pattern: "myapp://p/:id", routeName: nil,
                                        parameters: Parameters([("id", "3")]), fragment: nil, userInfo: false, candidateIndex: 0)
        #expect(throws: DeepLinkDecline(reason: "signed out")) { try handler(signedOut) }
    }

    // MARK: Links

    @Test func namedRoutesBuildLinksForTheRequestedSchemeAndHost() throws {
        let links = DeepLinkRouter<Void>()
        try links.route(["pokedex://pokemon/{id:int}", "https://pokedex.example.com/pokemon/{id:int}",
                         "https://*.pokedex.example.com/pokemon/{id:int}"], name: "pokemon") { _ in }
        #expect(try links.url(named: "pokemon", parameters: ["id": 25]) == "pokedex://pokemon/25")
        #expect(try links.url(named: "pokemon", parameters: ["id": 25, "shiny": true], scheme: "HTTPS")
                == "https://pokedex.example.com/pokemon/25?shiny=true")
        #expect(try links.url(named: "pokemon", parameters: ["id": 25], host: "eu.pokedex.example.com")
                == "https://eu.pokedex.example.com/pokemon/25")
        #expect(throws: RouterError(.invalidArgument, offset: 0, "value 'x' for 'id' does not satisfy {id:int}")) {
            try links.url(named: "pokemon", parameters: ["id": "x"])
        }
        #expect(throws: RouterError.self) { try links.url(named: "pokemon", parameters: ["id": 1], scheme: "ftp") }
        #expect(throws: RouterError(.notFound, offset: 0, "no route is named 'nope'")) { try links.url(named: "nope") }
    }

    @Test func typedValuesAreWrittenAsLinksReadThem() throws {
        enum Kind: String, LinkParameterValue { case fire, water }
        let links = DeepLinkRouter<Void>()
        let id = try links.route("/search") { _ in }
        let uuid = UUID(uuidString: "3F2B8C1E-9A4D-4E6F-8B7A-1C2D3E4F5A6B")!
        let url = try links.url(for: id, parameters: ["types": [Kind.fire, .water], "id": uuid, "ratio": 0.5,
                                                      "next": URL(string: "https://x.test/a?b=c")!, "page": UInt(2)])
        #expect(url == "/search?types=fire,water&id=3f2b8c1e-9a4d-4e6f-8b7a-1c2d3e4f5a6b&ratio=0.5&next=https://x.test/a?b%3Dc&page=2")
        var read: (kinds: [Kind], id: UUID, ratio: Double, next: URL, page: UInt)?
        try links.route("/search", priority: 1) { context in
            let arguments = context.arguments
            read = (try arguments.types, try arguments.id, try arguments.ratio, try arguments.next, try arguments.page)
        }
        links.open(url)
        #expect(read?.kinds == [.fire, .water])
        #expect(read?.id == uuid)
        #expect(read?.ratio == 0.5)
        #expect(read?.next.absoluteString == "https://x.test/a?b=c")
        #expect(read?.page == 2)
    }

    // MARK: async

    @Test func asyncOpenAwaitsAsyncHandlers() async throws {
        let log = Log()
        let links = DeepLinkRouter<Int>()
        try links.route("/a/:x") { (context: DeepLinkContext<Int>) async throws in
            await Task.yield()
            log.add("async \(context.userInfo)")
            if context.parameters["x"] == "no" { try context.decline() }
        }
        try links.route("/a/no", priority: -1) { context in log.add("sync fallback") }
        links.setUnmatchedHandler(forScheme: nil) { (unmatched: DeepLinkUnmatched<Int>) async in
            await Task.yield()
            log.add("unmatched \(unmatched.url)")
        }
        #expect(await links.open("/a/yes", userInfo: 1).isRouted)
        #expect(await links.open("/a/no", userInfo: 2).isRouted)
        #expect(await links.open("/b", userInfo: 3).resolution == .unmatchedHandler(scheme: nil))
        #expect(log.entries == ["async 1", "async 2", "sync fallback", "unmatched /b"])
    }

    @Test func synchronousOpenSkipsAsyncHandlers() throws {
        let log = Log()
        let links = DeepLinkRouter<Void>()
        try links.route("/a", priority: 1) { (_: DeepLinkContext<Void>) async in log.add("async") }
        try links.route("/a") { _ in log.add("sync") }
        let outcome = links.open("/a")
        #expect(log.entries == ["sync"])
        #expect(outcome.declined.first?.error as? DeepLinkDispatchError == .asynchronousHandler)
    }

    @MainActor @Test func mainActorStateCanBeUsedFromHandlers() async throws {
        let model = ScreenModel()
        let links = DeepLinkRouter<Void>()
        try links.route("myapp://screens/:name") { context in model.show(context.parameters["name"]!) }
        try links.route("myapp://later/:name") { (context: DeepLinkContext<Void>) async in
            await Task.yield()
            model.show("later " + context.parameters["name"]!)
        }
        await links.open("myapp://screens/home")
        await links.open("myapp://later/profile")
        #expect(model.screens == ["home", "later profile"])
    }
}

@MainActor private final class ScreenModel {
    var screens: [String] = []
    func show(_ name: String) { screens.append(name) }
}
