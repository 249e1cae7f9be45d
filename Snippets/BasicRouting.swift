// Registers routes of several kinds and matches URLs against them: the best match, its value,
// its path and query parameters and its fragment; then every candidate, best first.
import FastRouter

let router = Router<String>()
try router.add("/users/:id", value: "user")
try router.add("/users/me", value: "me")
try router.add("myapp://settings(/:section)", value: "settings")
try router.add("https://*.example.com/docs/*path", value: "docs")

let match = try router.match("myapp://users/42?tab=posts#top")!
print(match.value)               // user (custom schemes fall back to the global table)
print(match.parameters["id"]!)   // 42
print(match.parameters["tab"]!)  // posts (query parameters follow path parameters)
print(match.fragment!)           // top

// A literal beats a placeholder: "me".
let me = try router.match("/users/me")?.value
// Every candidate, best first, the order a handler chain declines in: ["me", "user"].
let order = try router.matches("/users/me").map(\.value)
// A wildcard takes the rest of the path: "a/b".
let path = try router.match("https://api.example.com/docs/a/b")?.parameters["path"]
// snippet.hide
precondition(match.value == "user" && match.parameters["id"] == "42")
precondition(match.parameters["tab"] == "posts" && match.fragment == "top")
precondition(me == "me" && order == ["me", "user"] && path == "a/b")
print(me!, order, path!)
