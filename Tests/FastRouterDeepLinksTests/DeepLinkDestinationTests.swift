import Testing
import FastRouter
import FastRouterDeepLinks

private enum Kind: String, LinkParameterValue { case fire, water, grass }

private enum Page: Equatable, LinkDestination {
    case home
    case pokemon(id: Int)
    case search(types: [Kind], page: Int)
    case file(name: String, ext: String)
    case web(path: String)

    static let linkRoutes: [DestinationRoute<Page>] = [
        DestinationRoute("pokedex://home", "https://pokedex.example.com/",
                         parse: { _ in .home },
                         link: { $0 == .home ? [:] : nil }),
        DestinationRoute("pokedex://pokemon/{id:int}", "https://pokedex.example.com/pokemon/{id:int}",
                         parse: { .pokemon(id: try $0.id) },
                         link: { if case .pokemon(let id) = $0 { ["id": id] } else { nil } }),
        DestinationRoute("pokedex://search",
                         parse: { .search(types: try $0.types ?? [], page: try $0.page ?? 1) },
                         link: { screen in
                             guard case .search(let types, let page) = screen else { return nil }
                             return page == 1 ? ["types": types] : ["types": types, "page": page]
                         }),
        DestinationRoute("pokedex://files/{name}.{ext:alnum}",
                         parse: { .file(name: try $0.name, ext: try $0.ext) },
                         link: { if case .file(let name, let ext) = $0 { ["name": name, "ext": ext] } else { nil } }),
        // Parses only; declines paths it does not know, so the next candidate is tried.
        DestinationRoute("https://pokedex.example.com/*path", priority: -1,
                         parse: { arguments in
                             let path: String = try arguments.path
                             return path.hasPrefix("blog") ? .web(path: path) : nil
                         }),
    ]
}

@Suite struct DeepLinkDestinationTests {
    @Test func urlsMapToDestinations() throws {
        let screens = try DestinationRouter<Page>()
        #expect(screens.destination(for: "pokedex://home") == .home)
        #expect(screens.destination(for: "https://pokedex.example.com") == .home)
        #expect(screens.destination(for: "pokedex://pokemon/25") == .pokemon(id: 25))
        #expect(screens.destination(for: "https://POKEDEX.example.com/pokemon/7?ref=mail") == .pokemon(id: 7))
        #expect(screens.destination(for: "pokedex://search?types=fire,water&page=3") == .search(types: [.fire, .water], page: 3))
        #expect(screens.destination(for: "pokedex://search") == .search(types: [], page: 1))
        #expect(screens.destination(for: "pokedex://files/notes.v2.txt") == .file(name: "notes.v2", ext: "txt"))
        #expect(screens.destination(for: "https://pokedex.example.com/blog/2024/hello") == .web(path: "blog/2024/hello"))
    }

    @Test func unknownOrInvalidURLsHaveNoDestination() throws {
        let screens = try DestinationRouter<Page>()
        #expect(screens.destination(for: "pokedex://pokemon/pikachu") == nil)
        #expect(screens.destination(for: "pokedex://search?types=rock") == nil)
        #expect(screens.destination(for: "https://pokedex.example.com/about") == nil)
        #expect(screens.destination(for: "https://other.example.com/pokemon/1") == nil)
        #expect(screens.destination(for: "pokedex://pokemon/%zz") == nil)
    }

    @Test func destinationsBuildLinksBack() throws {
        let screens = try DestinationRouter<Page>()
        #expect(try screens.url(for: .pokemon(id: 25)) == "pokedex://pokemon/25")
        #expect(try screens.url(for: .pokemon(id: 25), scheme: "https") == "https://pokedex.example.com/pokemon/25")
        #expect(try screens.url(for: .home, scheme: "https") == "https://pokedex.example.com/")
        #expect(try screens.url(for: .search(types: [.grass], page: 1)) == "pokedex://search?types=grass")
        #expect(try screens.url(for: .search(types: [.fire, .water], page: 2)) == "pokedex://search?types=fire,water&page=2")
        #expect(try screens.url(for: .file(name: "a b", ext: "txt")) == "pokedex://files/a%20b.txt")
        #expect(throws: RouterError.self) { try screens.url(for: .file(name: "a", ext: "t-t")) }
        #expect(throws: RouterError.self) { try screens.url(for: .web(path: "blog/x")) }
        #expect(throws: RouterError.self) { try screens.url(for: .search(types: [], page: 1), scheme: "https") }
    }

    @Test(arguments: [Page.home, .pokemon(id: 151), .search(types: [.water, .fire], page: 4), .file(name: "x.y", ext: "z9")])
    fileprivate func everyLinkLeadsBackToItsDestination(screen: Page) throws {
        let screens = try DestinationRouter<Page>()
        for scheme in ["pokedex", "https"] {
            guard let url = try? screens.url(for: screen, scheme: scheme) else { continue }
            #expect(screens.destination(for: url) == screen, "\(url)")
        }
    }

    @Test func theDestinationTableLintsClean() throws {
        let screens = try DestinationRouter<Page>()
        #expect(screens.lint().isEmpty)
        #expect(screens.routes.count == 7)
    }

    @Test func aDispatcherRoutesDestinationsToOneHandler() throws {
        var shown: [Page] = []
        let links = DeepLinkRouter<Void>()
        try links.route(Page.linkRoutes) { screen, _ in shown.append(screen) }
        links.open("pokedex://pokemon/1")
        links.open("https://pokedex.example.com/about")
        links.open("https://pokedex.example.com/blog/x")
        #expect(shown == [.pokemon(id: 1), .web(path: "blog/x")])
        #expect(try links.url(for: Page.pokemon(id: 4), scheme: "https") == "https://pokedex.example.com/pokemon/4")
        #expect(try links.url(for: Page.search(types: [.fire], page: 1)) == "pokedex://search?types=fire")
        #expect(throws: RouterError.self) { try links.url(for: "not a destination") }
    }

    @Test func invalidDeclarationsAddNothing() {
        #expect(throws: RouterError.self) {
            try DestinationRouter<Page>([DestinationRoute("/ok", parse: { _ in .home }),
                                           DestinationRoute("bad", parse: { _ in .home })])
        }
    }
}
