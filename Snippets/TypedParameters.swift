// Typed parameters: numbers, booleans, enums and comma-separated lists, by name or as
// properties. A value that does not convert throws an error naming the parameter; an optional
// is `nil` when the parameter is absent.
import FastRouter
import FastRouterDeepLinks

enum PokemonType: String { case fire, water, grass }

let router = Router<Void>()
try router.add("pokedex://pokemon/{pokedexID:int}")
let match = try router.match("pokedex://pokemon/6?types=fire,water&shiny=yes")!
let arguments = DeepLinkArguments(match.parameters)

let id: Int = try arguments.pokedexID                            // 6
let types = try arguments.parameter("types", as: [PokemonType].self)   // [.fire, .water]
let shiny: Bool = try arguments.shiny                            // true
let region: String? = try arguments.region                       // nil: absent
// snippet.hide
precondition(id == 6 && types == [.fire, .water] && shiny && region == nil)
do {
    let _: Int = try DeepLinkArguments(Parameters([("pokedexID", "pikachu")])).pokedexID
    preconditionFailure("'pikachu' read as an Int")
} catch {
    precondition(error.description == "parameter 'pokedexID': 'pikachu' is not a valid Int")
}
print(id, types, shiny, region as Any)
