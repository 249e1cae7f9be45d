// Finds the routes of a router that do not work as written: a route another one always comes
// before (shadowed), and two routes only registration order tells apart (ambiguous).
import FastRouter
import FastRouterLint

let router = Router<String>()
try router.add("/users/:id", priority: 1, value: "user")
try router.add("/users/me", value: "me")                  // never reached: the priority wins
try router.add("/files/{id:int}", value: "by id")
try router.add("/files/{hash:hex}", value: "by hash")     // "1" matches both: registration order decides
let report = router.lint().map(\.description)
// warning: route '/users/me' is never the first candidate: '/users/:id' (priority 1) matches every URL it matches and comes first (higher priority, 1 > 0)
// warning: routes '/files/{id:int}' and '/files/{hash:hex}' have equal precedence and match some URLs in common: only registration order puts '/files/{id:int}' first
// snippet.hide
precondition(report == [
    "warning: route '/users/me' is never the first candidate: '/users/:id' (priority 1) matches every URL it matches and comes first (higher priority, 1 > 0)",
    "warning: routes '/files/{id:int}' and '/files/{hash:hex}' have equal precedence and match some URLs in common: only registration order puts '/files/{id:int}' first",
])
precondition(router.lint().map(\.exampleURL) == ["/users/me", "/files/1"])
print(report.joined(separator: "\n"))
