// A handler per route. `open` hands a URL to the matching routes, best first; a handler accepts
// by returning and declines by throwing, so the next candidate gets the URL. When none accepts,
// the unmatched handler of the URL's scheme runs.
import FastRouterDeepLinks

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
// snippet.hide
precondition(opened == ["pokemon 25", "pokemon named pikachu", "help trading", "not found: pokedex://pokemon/missingno"])
precondition(known)
print(opened.joined(separator: "\n"))
