// The examples of README.md's "Deep links and universal links" section, run as tests.
// `documentedExamplesAreTheTestedCode` checks that every paragraph of every Swift example in the
// section appears here verbatim, so the documentation cannot drift from what is tested.

import Foundation
import Testing
import FastRouter
import FastRouterDeepLinks
import FastRouterLint

@Suite struct DeepLinkReadmeTests {
    @Test func handlersExample() throws {
        let links = DeepLinkRouter<Void>()
        var opened: [String] = []
        try links.route("pokedex://pokemon/{pokedexID:int}") { context in
            let id: Int = try context.arguments.pokedexID
            opened.append("pokemon \(id)")
        }
        try links.route("pokedex://pokemon/:name") { context in
            guard context.parameters["name"] != "missingno" else { try context.decline("not a real Pokémon") }
            opened.append("pokemon named \(context.parameters["name"]!)")
        }
        try links.route("/help(/*topic)") { context in
            opened.append("help \(context.parameters["topic"] ?? "")")
        }
        links.setUnmatchedHandler(forScheme: "pokedex") { unmatched in
            opened.append("not found: \(unmatched.url)")
        }

        links.open("pokedex://pokemon/25")          // pokemon 25
        links.open("pokedex://pokemon/pikachu")     // pokemon named pikachu
        links.open("pokedex://help/trading")        // help trading: global routes serve every scheme
        links.open("pokedex://pokemon/missingno")   // not found: the only candidate declined
        let known = links.canOpen("pokedex://pokemon/1")   // true, and no handler runs

        #expect(opened == ["pokemon 25", "pokemon named pikachu", "help trading", "not found: pokedex://pokemon/missingno"])
        #expect(known)
    }

    @Test func namedRoutesExample() throws {
        let links = DeepLinkRouter<Void>()
        var shown: [Int] = []
        try links.route(["pokedex://pokemon/{pokedexID:int}",
                         "https://pokedex.example.com/pokemon/{pokedexID:int}",
                         "https://*.pokedex.example.com/pokemon/{pokedexID:int}"], name: "pokemon") { context in
            shown.append(try context.arguments.pokedexID)
        }
        let custom = try links.url(named: "pokemon", parameters: ["pokedexID": 25])
        // "pokedex://pokemon/25"
        let universal = try links.url(named: "pokemon", parameters: ["pokedexID": 25, "shiny": true], scheme: "https")
        // "https://pokedex.example.com/pokemon/25?shiny=true"
        let regional = try links.url(named: "pokemon", parameters: ["pokedexID": 25], host: "eu.pokedex.example.com")
        // "https://eu.pokedex.example.com/pokemon/25"

        #expect(custom == "pokedex://pokemon/25")
        #expect(universal == "https://pokedex.example.com/pokemon/25?shiny=true")
        #expect(regional == "https://eu.pokedex.example.com/pokemon/25")
        for url in [custom, universal, regional] { links.open(url) }
        #expect(shown == [25, 25, 25])
    }

    @Test func typedParametersExample() throws {
        enum PokemonType: String { case fire, water, grass }

        let router = Router<Void>()
        try router.add("pokedex://pokemon/{pokedexID:int}")
        let match = try router.match("pokedex://pokemon/6?types=fire,water&shiny=yes")!
        let arguments = DeepLinkArguments(match.parameters)

        let id: Int = try arguments.pokedexID                            // 6
        let types = try arguments.parameter("types", as: [PokemonType].self)   // [.fire, .water]
        let shiny: Bool = try arguments.shiny                            // true
        let region: String? = try arguments.region                       // nil: absent

        #expect(id == 6)
        #expect(types == [.fire, .water])
        #expect(shiny)
        #expect(region == nil)
        let wrong = DeepLinkArguments(try router.match("pokedex://pokemon/6?pokedexID=pikachu")!.parameters)
        #expect(throws: DeepLinkArgumentError(name: "pokedexID", reason: .invalid(value: "pikachu", expected: "Int"))) {
            let _: Int = try DeepLinkArguments(Parameters([("pokedexID", "pikachu")])).pokedexID
        }
        #expect(DeepLinkArgumentError(name: "pokedexID", reason: .invalid(value: "pikachu", expected: "Int")).description
                == "parameter 'pokedexID': 'pikachu' is not a valid Int")
        #expect(try wrong.pokedexID as Int == 6)
    }

    @Test func destinationsExample() throws {
        typealias Screen = ReadmeScreens.Screen
        let screens = try DestinationRouter<Screen>()
        let pokemon = screens.destination(for: "https://pokedex.example.com/pokemon/25")   // .pokemon(id: 25)
        let search = screens.destination(for: "pokedex://search?q=mew")                  // .search(query: "mew")
        let share = try screens.url(for: .pokemon(id: 25), scheme: "https")   // "https://pokedex.example.com/pokemon/25"
        let query = try screens.url(for: .search(query: "mr mime"))           // "pokedex://search?q=mr%20mime"

        #expect(pokemon == .pokemon(id: 25))
        #expect(search == .search(query: "mew"))
        #expect(share == "https://pokedex.example.com/pokemon/25")
        #expect(query == "pokedex://search?q=mr%20mime")
    }

    @Test func buildingLinksExample() throws {
        let router = Router<Void>()
        let id = try router.add("myapp://users/{id:int}(/posts(/{page:uint}))")
        let user = try router.url(for: id, parameters: ["id": "42"])                // "myapp://users/42"
        let page = try router.url(for: id, parameters: ["id": "42", "page": "2"])   // "myapp://users/42/posts/2"
        let query = try router.url(for: id, parameters: ["id": "42", "q": "a b&c"]) // "myapp://users/42?q=a%20b%26c"
        let files = try router.add("/files/{name}.{ext:alnum}")
        let file = try router.url(for: files, parameters: ["name": "notes v2", "ext": "txt"])   // "/files/notes%20v2.txt"

        #expect(user == "myapp://users/42")
        #expect(page == "myapp://users/42/posts/2")
        #expect(query == "myapp://users/42?q=a%20b%26c")
        #expect(file == "/files/notes%20v2.txt")
        #expect(throws: RouterError.self) { try router.url(for: id, parameters: ["id": "x1"]) }
        let archive = try router.add("/archives/{name}.{ext}")
        #expect(throws: RouterError.self) { try router.url(for: archive, parameters: ["name": "backup", "ext": "tar.gz"]) }
    }

    @Test func lintExample() throws {
        let router = Router<String>()
        try router.add("/users/:id", priority: 1, value: "user")
        try router.add("/users/me", value: "me")                  // never reached: the priority wins
        try router.add("/files/{id:int}", value: "by id")
        try router.add("/files/{hash:hex}", value: "by hash")     // "1" matches both: registration order decides
        let report = router.lint().map(\.description)
        // warning: route '/users/me' is never the first candidate: '/users/:id' (priority 1) matches every URL it matches and comes first (higher priority, 1 > 0)
        // warning: routes '/files/{id:int}' and '/files/{hash:hex}' have equal precedence and match some URLs in common: only registration order puts '/files/{id:int}' first

        let documented = try Self.documentLines().filter { $0.hasPrefix("// warning: ") }.map { String($0.dropFirst(3)) }
        #expect(report == documented)
    }

    @Test func lintCommandExample() throws {
        let file = """
            # routes
            /users/:id 1
            /users/:name 1

            /users/me
            """
        let output = RouteLinter.format(RouteLinter.lint(routesFileContents: file), fileName: "routes.txt")
        let document = try Self.section()
        let start = try #require(document.range(of: "$ fastrouter-bench lint routes.txt\n"))
        let end = try #require(document.range(of: "```", range: start.upperBound..<document.endIndex))
        #expect(String(document[start.upperBound..<end.lowerBound]) == output)
    }

    // MARK: The document is the tested code

    static let heading = "## Deep links and universal links"

    /// The section's text: from its heading to the next heading of the same level.
    static func section() throws -> String {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let text = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let start = try #require(text.range(of: heading + "\n"), "README.md has no '\(heading)' section")
        let rest = text[start.upperBound...]
        let end = rest.range(of: "\n## ")?.lowerBound ?? rest.endIndex
        return String(rest[..<end])
    }

    static func documentLines() throws -> [String] {
        try section().split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
    }

    /// Every paragraph of every Swift example in the section, as lines without indentation.
    static func documentedParagraphs() throws -> [[String]] {
        let blocks = try section().components(separatedBy: "```swift\n").dropFirst()
            .map { $0.components(separatedBy: "```")[0] }
        #expect(blocks.count == 6)
        return blocks.flatMap { $0.components(separatedBy: "\n\n") }
            .map { $0.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) } }
            .filter { !$0.isEmpty }
    }

    /// The lines of a source file without indentation.
    static func sourceLines(_ url: URL) throws -> [String] {
        try String(contentsOf: url, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces) }
    }

    /// Whether `lines` stand, one after the other, somewhere in `source`.
    static func contains(_ source: [String], _ lines: [String]) -> Bool {
        source.indices.contains { start in
            start + lines.count <= source.count && Array(source[start..<(start + lines.count)]) == lines
        }
    }

    @Test func documentedExamplesAreTheTestedCode() throws {
        let source = try Self.sourceLines(URL(fileURLWithPath: #filePath))
        for paragraph in try Self.documentedParagraphs() {
            #expect(Self.contains(source, paragraph), "not in DeepLinkReadmeTests.swift:\n\(paragraph.joined(separator: "\n"))")
        }
    }

    /// The API documentation shows these examples from `Snippets/`: they must be the same code.
    @Test func documentedExamplesAreTheSnippets() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let folder = root.appendingPathComponent("Snippets")
        let snippets = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".swift") }
            .map { try Self.sourceLines(folder.appendingPathComponent($0)) }
        for paragraph in try Self.documentedParagraphs() {
            #expect(snippets.contains { Self.contains($0, paragraph) },
                    "not in any Snippets/*.swift:\n\(paragraph.joined(separator: "\n"))")
        }
    }
}

/// The destinations example's enum (a type with a static stored property lives outside functions).
enum ReadmeScreens {
    enum Screen: Equatable, LinkDestination {
        case pokemon(id: Int)
        case search(query: String)

        static let linkRoutes: [DestinationRoute<Screen>] = [
            DestinationRoute("pokedex://pokemon/{id:int}", "https://pokedex.example.com/pokemon/{id:int}",
                             parse: { .pokemon(id: try $0.id) },
                             link: { if case .pokemon(let id) = $0 { ["id": id] } else { nil } }),
            DestinationRoute("pokedex://search",
                             parse: { .search(query: try $0.q ?? "") },
                             link: { if case .search(let query) = $0 { ["q": query] } else { nil } }),
        ]
    }
}
