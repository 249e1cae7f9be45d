// An enum of destinations, one declaration per case: links parse into cases, and cases build
// back into links.
import FastRouterDeepLinks

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

let screens = try DestinationRouter<Screen>()
let pokemon = screens.destination(for: "https://pokedex.example.com/pokemon/25")   // .pokemon(id: 25)
let search = screens.destination(for: "pokedex://search?q=mew")                  // .search(query: "mew")
let share = try screens.url(for: .pokemon(id: 25), scheme: "https")   // "https://pokedex.example.com/pokemon/25"
let query = try screens.url(for: .search(query: "mr mime"))           // "pokedex://search?q=mr%20mime"
// snippet.hide
precondition(pokemon == .pokemon(id: 25) && search == .search(query: "mew"))
precondition(share == "https://pokedex.example.com/pokemon/25" && query == "pokedex://search?q=mr%20mime")
print(pokemon!, search!, share, query, separator: "\n")
