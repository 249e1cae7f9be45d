// One handler for a custom-scheme link and the universal links of several hosts. Each pattern is
// its own route; the name covers all of them, and builds a link on any of them.
import FastRouterDeepLinks

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
// snippet.hide
precondition(custom == "pokedex://pokemon/25")
precondition(universal == "https://pokedex.example.com/pokemon/25?shiny=true")
precondition(regional == "https://eu.pokedex.example.com/pokemon/25")
for url in [custom, universal, regional] { links.open(url) }
precondition(shown == [25, 25, 25])
print(custom, universal, regional, separator: "\n")
