// Checks a routes file (`[METHOD] pattern [priority]` per line) and formats the findings as a
// compiler does: what `fastrouter-bench lint FILE` prints.
import FastRouterLint

let file = """
    # routes
    /users/:id 1
    /users/:name 1

    /users/me
    """
let report = RouteLinter.format(RouteLinter.lint(routesFileContents: file), fileName: "routes.txt")
print(report, terminator: "")
// routes.txt:3: error: duplicate route: '/users/:name' has the same table, host, priority and segments as '/users/:id' (line 2)
// routes.txt:5: warning: route '/users/me' is never the first candidate: '/users/:id' (priority 1) matches every URL it matches and comes first (higher priority, 1 > 0)
//     e.g. /users/me
// 1 error, 1 warning
// snippet.hide
precondition(report == """
    routes.txt:3: error: duplicate route: '/users/:name' has the same table, host, priority and segments as '/users/:id' (line 2)
    routes.txt:5: warning: route '/users/me' is never the first candidate: '/users/:id' (priority 1) matches every URL it matches and comes first (higher priority, 1 > 0)
        e.g. /users/me
    1 error, 1 warning

    """)
