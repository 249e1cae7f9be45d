// Reverse routing: the URL of a route, from values for its placeholders; optional groups are
// filled when their parameters are given, and the other values become the query.
import FastRouter

let router = Router<Void>()
let id = try router.add("myapp://users/{id:int}(/posts(/{page:uint}))")
let user = try router.url(for: id, parameters: ["id": "42"])                // "myapp://users/42"
let page = try router.url(for: id, parameters: ["id": "42", "page": "2"])   // "myapp://users/42/posts/2"
let query = try router.url(for: id, parameters: ["id": "42", "q": "a b&c"]) // "myapp://users/42?q=a%20b%26c"
let files = try router.add("/files/{name}.{ext:alnum}")
let file = try router.url(for: files, parameters: ["name": "notes v2", "ext": "txt"])   // "/files/notes%20v2.txt"
// snippet.hide
precondition(user == "myapp://users/42" && page == "myapp://users/42/posts/2")
precondition(query == "myapp://users/42?q=a%20b%26c" && file == "/files/notes%20v2.txt")
print(user, page, query, file, separator: "\n")
