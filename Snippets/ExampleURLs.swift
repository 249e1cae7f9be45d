// For every route, a URL that the route answers first (checked by a lookup), or `nil` when no
// URL reaches it first: test fixtures, documentation, or load for a benchmark.
import FastRouter
import FastRouterLint

let router = Router<String>()
try router.add("/users/{id:int}", value: "user")
try router.add("/users/me", value: "me")
try router.add("myapp://files/{name}.{ext:alnum}", value: "file")
for (route, url) in router.exampleURLs() {
    print(route.pattern, "→", url ?? "none")
}
// /users/{id:int} → /users/1
// /users/me → /users/me
// myapp://files/{name}.{ext:alnum} → myapp://files/1.1
// snippet.hide
let urls = router.exampleURLs().map(\.url)
precondition(urls == ["/users/1", "/users/me", "myapp://files/1.1"])
for (index, url) in urls.enumerated() {
    let best = try router.match(url!)
    precondition(best?.routeID == router.routes[index].id)
}
