// The linter with HTTP methods: a route is hidden method by method, routes of one path for
// different methods are no problem, and a method spelled in another case is likely a mistake.
import FastRouter
import FastRouterLint

let router = Router<String>()
try router.add("/posts/:id", methods: [.get], priority: 1, value: "show")
try router.add("/posts/{n}", methods: [.get, .delete], value: "edit")   // GET goes to "show" first
try router.add("/posts", methods: [.post], value: "create")
try router.add("/posts", methods: [.get], value: "list")                  // another method: not a duplicate
try router.add("/tags", methods: [HTTPMethod(rawValue: "get")!], value: "tags")
let report = router.lint().map(\.description)
// warning: route 'GET,DELETE /posts/{n}' is shadowed for GET only: 'GET /posts/:id' (priority 1) matches every URL it matches and comes first for GET (higher priority, 1 > 0); DELETE still reaches it
// warning: method 'get' of route 'get /tags' is not GET: methods are case-sensitive, so GET requests do not match it (write GET)
// snippet.hide
precondition(report == [
    "warning: route 'GET,DELETE /posts/{n}' is shadowed for GET only: 'GET /posts/:id' (priority 1) matches every URL it matches and comes first for GET (higher priority, 1 > 0); DELETE still reaches it",
    "warning: method 'get' of route 'get /tags' is not GET: methods are case-sensitive, so GET requests do not match it (write GET)",
])
precondition(router.lint().map(\.methods) == [[.get], [HTTPMethod(rawValue: "get")!]])
print(report.joined(separator: "\n"))
