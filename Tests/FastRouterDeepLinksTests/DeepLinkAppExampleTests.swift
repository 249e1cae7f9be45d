// An app-style example, explained in examples/deeplinks/README.md: a Pokédex app that opens its
// custom-scheme links (pokedex://…), its universal links on three hosts (pokedex.example.com,
// regional *.pokedex.example.com, the pkdx.link short-link host) and help pages that any scheme
// reaches, through handlers; builds share links back; and lints its own route table.

import Foundation
import Testing
import FastRouter
import FastRouterDeepLinks
import FastRouterLint

// MARK: - The app

/// Pokémon types, read from `?types=fire,water` with no conversion code.
enum PokemonType: String, CaseIterable, LinkParameterValue {
    case fire, water, grass, electric
}

/// Every screen a link can open: one declaration per case, parsing links and building them back.
enum Screen: Equatable, LinkDestination {
    case home
    case pokemon(id: Int, shiny: Bool)
    case pokemonNamed(String)
    case search(types: [PokemonType])
    case trainer(name: String, badge: String?)
    case sprite(name: String, format: String)

    /// Screens that need a signed-in user.
    var requiresSignIn: Bool {
        if case .trainer = self { return true }
        return false
    }

    static let linkRoutes: [DestinationRoute<Screen>] = [
        DestinationRoute("pokedex://", "https://pokedex.example.com/", name: "home",
                         parse: { _ in .home },
                         link: { $0 == .home ? [:] : nil }),
        DestinationRoute("pokedex://pokemon/{pokedexID:int}",
                         "https://pokedex.example.com/pokemon/{pokedexID:int}",
                         "https://*.pokedex.example.com/pokemon/{pokedexID:int}", name: "pokemon",
                         parse: { .pokemon(id: try $0.pokedexID, shiny: try $0.shiny ?? false) },
                         link: { screen in
                             guard case .pokemon(let id, let shiny) = screen else { return nil }
                             return shiny ? ["pokedexID": id, "shiny": true] : ["pokedexID": id]
                         }),
        // Less specific than {pokedexID:int}: numbers never get here.
        DestinationRoute("pokedex://pokemon/:name", name: "pokemon-by-name",
                         parse: { .pokemonNamed(try $0.name) },
                         link: { if case .pokemonNamed(let name) = $0 { ["name": name] } else { nil } }),
        DestinationRoute("pokedex://search", "https://pokedex.example.com/search", name: "search",
                         parse: { .search(types: try $0.types ?? []) },
                         link: { if case .search(let types) = $0 { ["types": types] } else { nil } }),
        DestinationRoute("pokedex://trainers/:name(/badges/{badge:alpha})", name: "trainer",
                         parse: { .trainer(name: try $0.name, badge: try $0.badge) },
                         link: { screen in
                             guard case .trainer(let name, let badge) = screen else { return nil }
                             return badge.map { ["name": name, "badge": $0] } ?? ["name": name]
                         }),
        // A partial segment: the format is the letters after the last dot.
        DestinationRoute("pokedex://sprites/{name}.{format:alpha}", name: "sprite",
                         parse: { .sprite(name: try $0.name, format: try $0.format) },
                         link: { if case .sprite(let name, let format) = $0 { ["name": name, "format": format] } else { nil } }),
    ]
}

/// Where the link came from: passed through `open` to every handler.
struct LinkSource {
    var signedIn: Bool
    var origin: String
}

/// The app's navigation, reduced to what a test can observe.
final class Navigator {
    var stack: [Screen] = []
    var help: [String] = []
    var alerts: [String] = []
    var browser: [String] = []
}

/// The app delegate's link handling.
final class PokedexApp {
    let links = DeepLinkRouter<LinkSource>()
    let navigator = Navigator()
    /// The short-link service's table (a network call in a real app).
    var shortLinks = ["Pk25aa": "pokedex://pokemon/25?shiny=yes", "Srch01": "https://pokedex.example.com/search?types=water"]

    init() throws {
        let navigator = navigator
        try links.route(Screen.linkRoutes) { screen, context in
            if screen.requiresSignIn && !context.userInfo.signedIn {
                try context.decline("sign-in required")
            }
            navigator.stack.append(screen)
        }
        // Short links open their long link, with the same source.
        try links.route("https://pkdx.link/{code:[A-Za-z0-9]{6}}", name: "short") { [unowned self] context in
            let code: String = try context.arguments.code
            guard let target = shortLinks[code] else { try context.decline("unknown short link \(code)") }
            guard links.open(target, userInfo: context.userInfo).isHandled else { try context.decline("dead short link") }
        }
        // Versioned links from older app builds: pokedex://v2.1/… is today's pokedex://…
        try links.route("pokedex://v{major:int}.{minor:int}/*rest", name: "versioned") { [unowned self] context in
            let major: Int = try context.arguments.major
            guard major <= 2 else { try context.decline("made by a newer app version") }
            let rest: String = try context.arguments.rest
            let query = context.url.firstIndex(of: "?").map { String(context.url[$0...]) } ?? ""
            guard links.open("pokedex://" + rest + query, userInfo: context.userInfo).isHandled else {
                try context.decline("nothing at \(rest)")
            }
        }
        // Help pages: a global route, so pokedex://help/… and https://any-host/help/… both reach it.
        try links.route("/help(/*topic)", name: "help") { context in
            navigator.help.append(try context.arguments.topic ?? "index")
        }
        links.setUnmatchedHandler(forScheme: "pokedex") { unmatched in
            if unmatched.declined.contains(where: { ($0.error as? DeepLinkDecline)?.reason == "sign-in required" }) {
                navigator.alerts.append("Sign in to open \(unmatched.url)")
            } else if unmatched.declined.contains(where: { $0.name == "versioned" }) {
                navigator.alerts.append("Update the app to open \(unmatched.url)")
            } else {
                navigator.alerts.append("Cannot open \(unmatched.url)")
            }
        }
        // Universal links the app does not know go back to the browser.
        links.setUnmatchedHandler(forScheme: nil) { unmatched in
            guard unmatched.scheme == "https", unmatched.urlError == nil else { throw DeepLinkDecline(reason: "not a web link") }
            navigator.browser.append(unmatched.url)
        }
    }

    /// The share sheet's link: the universal link on the main host.
    func shareLink(for screen: Screen) throws -> String {
        try links.url(for: screen, scheme: "https")
    }
}

// MARK: - The tests

@Suite struct DeepLinkAppExampleTests {
    let signedIn = LinkSource(signedIn: true, origin: "mail")
    let signedOut = LinkSource(signedIn: false, origin: "safari")

    @Test func customSchemeLinksOpenTheirScreens() throws {
        let app = try PokedexApp()
        for url in ["pokedex://", "pokedex://pokemon/25", "POKEDEX://Pokemon/25?shiny=1", "pokedex://pokemon/pikachu",
                    "pokedex://search?types=fire,electric", "pokedex://trainers/ash/badges/boulder",
                    "pokedex://sprites/mr.mime.png"] {
            #expect(app.links.open(url, userInfo: signedIn).isRouted, "\(url)")
        }
        #expect(app.navigator.stack == [
            .home, .pokemon(id: 25, shiny: false), .pokemon(id: 25, shiny: true), .pokemonNamed("pikachu"),
            .search(types: [.fire, .electric]), .trainer(name: "ash", badge: "boulder"), .sprite(name: "mr.mime", format: "png"),
        ])
    }

    @Test func universalLinksOnEveryHostOpenTheSameScreens() throws {
        let app = try PokedexApp()
        app.links.open("https://pokedex.example.com/pokemon/1", userInfo: signedOut)
        app.links.open("https://eu.pokedex.example.com/pokemon/4?shiny=true", userInfo: signedOut)
        app.links.open("https://POKEDEX.example.com:443/search?types=grass#results", userInfo: signedOut)
        app.links.open("https://pkdx.link/Srch01", userInfo: signedOut)
        app.links.open("https://pkdx.link/Pk25aa", userInfo: signedOut)
        #expect(app.navigator.stack == [.pokemon(id: 1, shiny: false), .pokemon(id: 4, shiny: true), .search(types: [.grass]),
                                        .search(types: [.water]), .pokemon(id: 25, shiny: true)])
        #expect(app.navigator.browser.isEmpty)
    }

    @Test func handlersDeclineAndUnmatchedHandlersExplain() throws {
        let app = try PokedexApp()
        let gated = app.links.open("pokedex://trainers/misty", userInfo: signedOut)
        #expect(gated.resolution == .unmatchedHandler(scheme: "pokedex"))
        #expect(gated.declined.map(\.name) == ["trainer"])
        app.links.open("pokedex://pokemon/25/moves", userInfo: signedIn)
        app.links.open("pokedex://search?types=rock", userInfo: signedIn)
        #expect(app.navigator.alerts == ["Sign in to open pokedex://trainers/misty", "Cannot open pokedex://pokemon/25/moves",
                                         "Cannot open pokedex://search?types=rock"])
        #expect(app.navigator.stack.isEmpty)
    }

    @Test func unknownUniversalLinksGoBackToTheBrowser() throws {
        let app = try PokedexApp()
        let outcome = app.links.open("https://pokedex.example.com/careers", userInfo: signedOut)
        #expect(outcome.resolution == .unmatchedHandler(scheme: nil))
        let dead = app.links.open("https://pkdx.link/Zzzzzz", userInfo: signedOut)
        #expect(dead.declined.map(\.name) == ["short"])
        #expect(app.navigator.browser == ["https://pokedex.example.com/careers", "https://pkdx.link/Zzzzzz"])
        #expect(app.links.open("mailto:someone@example.com", userInfo: signedOut).resolution == .unhandled)
    }

    @Test func versionedLinksFromOldBuildsStillWork() throws {
        let app = try PokedexApp()
        #expect(app.links.open("pokedex://v2.1/pokemon/7?shiny=on", userInfo: signedIn).isRouted)
        #expect(app.navigator.stack == [.pokemon(id: 7, shiny: true)])
        app.links.open("pokedex://v3.0/pokemon/7", userInfo: signedIn)
        #expect(app.navigator.alerts == ["Update the app to open pokedex://v3.0/pokemon/7"])
    }

    @Test func helpPagesAreReachableFromEveryScheme() throws {
        let app = try PokedexApp()
        app.links.open("pokedex://help", userInfo: signedIn)
        app.links.open("pokedex://help/trading/cables", userInfo: signedIn)
        app.links.open("https://eu.pokedex.example.com/help/evolution", userInfo: signedIn)
        app.links.open("/help/items", userInfo: signedIn)
        #expect(app.navigator.help == ["index", "trading/cables", "evolution", "items"])
    }

    @Test func canOpenAnswersWithoutNavigating() throws {
        let app = try PokedexApp()
        #expect(app.links.canOpen("pokedex://trainers/misty"))
        #expect(app.links.canOpen("https://pkdx.link/abcdef"))
        #expect(!app.links.canOpen("https://pkdx.link/short"))
        #expect(!app.links.canOpen("https://other.example.com/pokemon/1"))
        #expect(app.navigator.stack.isEmpty && app.navigator.alerts.isEmpty)
    }

    @Test func shareLinksAreUniversalLinksThatOpenTheSameScreen() throws {
        let app = try PokedexApp()
        #expect(try app.shareLink(for: .pokemon(id: 25, shiny: true)) == "https://pokedex.example.com/pokemon/25?shiny=true")
        #expect(try app.shareLink(for: .search(types: [.fire, .water])) == "https://pokedex.example.com/search?types=fire,water")
        #expect(try app.links.url(for: Screen.pokemon(id: 6, shiny: false), host: "jp.pokedex.example.com")
                == "https://jp.pokedex.example.com/pokemon/6")
        #expect(try app.links.url(for: Screen.sprite(name: "mr.mime", format: "png")) == "pokedex://sprites/mr.mime.png")
        #expect(try app.links.url(named: "trainer", parameters: ["name": "Brock & Misty"]) == "pokedex://trainers/Brock%20&%20Misty")
        #expect(try app.links.url(named: "help", parameters: ["topic": "trading/cables"]) == "/help/trading/cables")
        #expect(throws: RouterError.self) { try app.shareLink(for: .trainer(name: "ash", badge: nil)) }
    }

    @Test(arguments: [Screen.home, .pokemon(id: 150, shiny: false), .pokemon(id: 1, shiny: true), .pokemonNamed("ho-oh"),
                      .search(types: [.electric, .grass]), .trainer(name: "Gary Oak", badge: "earth"),
                      .trainer(name: "red", badge: nil), .sprite(name: "farfetch'd", format: "gif")])
    func everyGeneratedLinkOpensItsScreenAgain(screen: Screen) throws {
        let app = try PokedexApp()
        var opened = 0
        for scheme in ["pokedex", "https"] {
            guard let url = try? app.links.url(for: screen, scheme: scheme) else { continue }
            app.navigator.stack.removeAll()
            #expect(app.links.open(url, userInfo: signedIn).isRouted, "\(url)")
            #expect(app.navigator.stack == [screen], "\(url)")
            opened += 1
        }
        #expect(opened >= 1)
    }

    @Test func theAppLintsItsOwnTable() throws {
        let app = try PokedexApp()
        #expect(app.links.lint().isEmpty)
        #expect(app.links.routes.count == 13)
        #expect(app.links.routes.map(\.table).filter { $0 == "https" }.count == 5)

        // The mistake lint exists for: a catch-all registered with a priority hides real screens.
        try app.links.route("pokedex://pokemon/*rest", priority: 1) { _ in }
        let findings = app.links.lint()
        #expect(findings.map(\.kind) == [.shadowedRoute, .shadowedRoute])
        #expect(findings.map(\.route?.pattern) == ["pokedex://pokemon/{pokedexID:int}", "pokedex://pokemon/:name"])
        #expect(findings.first?.exampleURL == "pokedex://pokemon/1")
    }

    @Test func theSameTableLintsAsARoutesFile() throws {
        let app = try PokedexApp()
        let file = app.links.routes.map { "\($0.pattern) \($0.priority)" }.joined(separator: "\n")
        #expect(RouteLinter.lint(routesFileContents: file).isEmpty)
        #expect(RouteLinter.format([]) == "no problems found\n")
    }
}
