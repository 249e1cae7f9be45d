import FastRouter
import Testing

/// One registration in a rules table.
struct RulesRoute: Sendable {
    var pattern: String
    var priority: Int32 = 0
    var id: UInt64

    init(_ pattern: String, priority: Int32 = 0, id: UInt64) {
        self.pattern = pattern
        self.priority = priority
        self.id = id
    }
}

/// A route table, a URL and the decline order docs/SEMANTICS.md §3 requires for it.
struct RulesOrderCase: Sendable, CustomTestStringConvertible {
    var label: String
    var options = RouterOptions()
    var routes: [RulesRoute]
    var url: String
    /// Route ids of every candidate, best first.
    var ids: [UInt64]
    /// When given, each candidate's parameters as "name=value", in order.
    var parameters: [[String]]? = nil

    var testDescription: String { label }
}

/// Runs a router call and keeps its typed error, for assertions on `RouterError.code`.
func routerOutcome<T>(_ body: () throws(RouterError) -> T) -> Result<T, RouterError> {
    do {
        return .success(try body())
    } catch {
        return .failure(error)
    }
}

/// The decline order of `url`, read through `matches`, `match` and a `Matcher` alike, so every
/// entry point is held to the same order.
func checkRulesOrder(_ c: RulesOrderCase, sourceLocation: SourceLocation = #_sourceLocation) throws {
    let router = Router<Int>(options: c.options)
    for (index, route) in c.routes.enumerated() {
        try router.add(route.pattern, priority: route.priority, id: route.id, value: index)
    }
    let found = try router.matches(c.url)
    #expect(found.map(\.routeID) == c.ids, "matches(\(c.url))", sourceLocation: sourceLocation)
    if let parameters = c.parameters {
        let got = found.map { $0.parameters.map { "\($0.name)=\($0.value)" } }
        #expect(got == parameters, "parameters of \(c.url)", sourceLocation: sourceLocation)
    }
    #expect(try router.match(c.url)?.routeID == c.ids.first, "match(\(c.url))", sourceLocation: sourceLocation)

    let matcher = Matcher(router: router)
    var declined: [UInt64] = []
    if try matcher.match(c.url) {
        repeat { declined.append(matcher.routeID) } while matcher.next() && declined.count <= c.ids.count
    }
    #expect(declined == c.ids, "Matcher decline order for \(c.url)", sourceLocation: sourceLocation)
    #expect(matcher.routeID == UInt64.max, "no route once every candidate is declined", sourceLocation: sourceLocation)
}

@Suite struct MatchingRulesTests {
    // MARK: §3.1 priority

    static let priorityCases: [RulesOrderCase] = [
        RulesOrderCase(label: "higher priority beats a more specific literal",
                  routes: [RulesRoute("/users/me", id: 1), RulesRoute("/users/:id", priority: 1, id: 2)],
                  url: "/users/me", ids: [2, 1]),
        RulesOrderCase(label: "negative priority loses to a wildcard",
                  routes: [RulesRoute("/a/b", priority: -1, id: 1), RulesRoute("/a/*", id: 2)],
                  url: "/a/b", ids: [2, 1]),
        RulesOrderCase(label: "priority is compared before the host",
                  routes: [RulesRoute("https://example.com/x", id: 1), RulesRoute("https://*/x", priority: 1, id: 2)],
                  url: "https://example.com/x", ids: [2, 1]),
        RulesOrderCase(label: "priority spans the whole signed 32-bit range",
                  routes: [RulesRoute("/p", priority: Int32.min, id: 1), RulesRoute("/:x", priority: Int32.max, id: 2),
                           RulesRoute("/*", id: 3)],
                  url: "/p", ids: [2, 3, 1]),
        RulesOrderCase(label: "the scheme table comes before the global table whatever the priorities",
                  routes: [RulesRoute("/x", priority: 5, id: 1), RulesRoute("https://example.com/x", id: 2)],
                  url: "https://example.com/x", ids: [2, 1]),
    ]

    @Test(arguments: priorityCases)
    func priorityComesFirst(_ c: RulesOrderCase) throws { try checkRulesOrder(c) }

    // MARK: §3.1 specificity

    static let specificityCases: [RulesOrderCase] = [
        RulesOrderCase(label: "literal beats built-in constraint",
                  routes: [RulesRoute("/u/{id:int}", id: 1), RulesRoute("/u/42", id: 2)],
                  url: "/u/42", ids: [2, 1]),
        RulesOrderCase(label: "built-in constraint beats placeholder",
                  routes: [RulesRoute("/u/:id", id: 1), RulesRoute("/u/{id:int}", id: 2)],
                  url: "/u/42", ids: [2, 1]),
        RulesOrderCase(label: "regex constraint beats placeholder",
                  routes: [RulesRoute("/u/:id", id: 1), RulesRoute("/u/{id:[a-c]+}", id: 2)],
                  url: "/u/cab", ids: [2, 1]),
        RulesOrderCase(label: "placeholder beats wildcard",
                  routes: [RulesRoute("/u/*rest", id: 1), RulesRoute("/u/:id", id: 2)],
                  url: "/u/42", ids: [2, 1], parameters: [["id=42"], ["rest=42"]]),
        RulesOrderCase(label: "constraint beats wildcard",
                  routes: [RulesRoute("/a/*", id: 1), RulesRoute("/a/{n:uint}", id: 2)],
                  url: "/a/5", ids: [2, 1]),
        RulesOrderCase(label: "all four levels at one depth",
                  routes: [RulesRoute("/s/*", id: 1), RulesRoute("/s/:p", id: 2), RulesRoute("/s/{p:alpha}", id: 3),
                           RulesRoute("/s/abc", id: 4)],
                  url: "/s/abc", ids: [4, 3, 2, 1]),
        RulesOrderCase(label: "the leftmost difference decides",
                  routes: [RulesRoute("/:a/b", id: 1), RulesRoute("/a/:b", id: 2)],
                  url: "/a/b", ids: [2, 1]),
        RulesOrderCase(label: "a later literal decides when the prefix ties",
                  routes: [RulesRoute("/a/:x/:y", id: 1), RulesRoute("/a/:x/c", id: 2)],
                  url: "/a/b/c", ids: [2, 1]),
        RulesOrderCase(label: "a literal first segment beats a root wildcard",
                  routes: [RulesRoute("/*", id: 1), RulesRoute("/a/*", id: 2)],
                  url: "/a/b", ids: [2, 1], parameters: [["*=b"], ["*=a/b"]]),
        RulesOrderCase(label: "a route ending with the URL beats a wildcard matching zero segments",
                  routes: [RulesRoute("/a/*", id: 1), RulesRoute("/a", id: 2)],
                  url: "/a", ids: [2, 1], parameters: [[], ["*="]]),
        RulesOrderCase(label: "root beats a root wildcard",
                  routes: [RulesRoute("/*path", id: 1), RulesRoute("/", id: 2)],
                  url: "/", ids: [2, 1], parameters: [[], ["path="]]),
        RulesOrderCase(label: "a wildcard that consumes segments is still below an exact placeholder route",
                  routes: [RulesRoute("/a/*", id: 1), RulesRoute("/a/:x/:y", id: 2)],
                  url: "/a/b/c", ids: [2, 1]),
        RulesOrderCase(label: "a failing constraint is no candidate",
                  routes: [RulesRoute("/u/{id:int}", id: 1), RulesRoute("/u/{id:[0-9]{2}}", id: 2)],
                  url: "/u/abc", ids: []),
        RulesOrderCase(label: "int outside Int64 is no candidate",
                  routes: [RulesRoute("/u/{id:int}", id: 1), RulesRoute("/u/:id", id: 2)],
                  url: "/u/9223372036854775808", ids: [2]),
        RulesOrderCase(label: "a regex is anchored at both ends",
                  routes: [RulesRoute("/r/{x:a|bc}", id: 1)],
                  url: "/r/abc", ids: []),
    ]

    @Test(arguments: specificityCases)
    func specificityFromTheLeft(_ c: RulesOrderCase) throws { try checkRulesOrder(c) }

    // MARK: §3.1 and §3.6 hosts

    static let hostCases: [RulesOrderCase] = [
        RulesOrderCase(label: "exact host beats *.host beats any host",
                  routes: [RulesRoute("https://*/x", id: 1), RulesRoute("https://*.example.com/x", id: 2),
                           RulesRoute("https://api.example.com/x", id: 3)],
                  url: "https://api.example.com/x", ids: [3, 2, 1]),
        RulesOrderCase(label: "a host given as nothing is any host",
                  routes: [RulesRoute("https:///x", id: 1), RulesRoute("https://example.com/x", id: 2)],
                  url: "https://example.com/x", ids: [2, 1]),
        RulesOrderCase(label: "the host is compared before the path",
                  routes: [RulesRoute("https://*/x", id: 1), RulesRoute("https://api.example.com/:p", id: 2)],
                  url: "https://api.example.com/x", ids: [2, 1]),
        RulesOrderCase(label: "a suffix host beats any host with a more specific path",
                  routes: [RulesRoute("https://*/x", id: 1), RulesRoute("https://*.example.com/*", id: 2)],
                  url: "https://a.example.com/x", ids: [2, 1]),
        RulesOrderCase(label: "*.example.com matches any depth of subdomain",
                  routes: [RulesRoute("https://*.example.com/x", id: 1)],
                  url: "https://a.b.example.com/x", ids: [1]),
        RulesOrderCase(label: "*.example.com does not match example.com",
                  routes: [RulesRoute("https://*.example.com/x", id: 1)],
                  url: "https://example.com/x", ids: []),
        RulesOrderCase(label: "*.example.com does not match notexample.com",
                  routes: [RulesRoute("https://*.example.com/x", id: 1)],
                  url: "https://notexample.com/x", ids: []),
        RulesOrderCase(label: "an exact host does not match its subdomains",
                  routes: [RulesRoute("https://example.com/x", id: 1)],
                  url: "https://www.example.com/x", ids: []),
        RulesOrderCase(label: "the port is ignored",
                  routes: [RulesRoute("https://example.com/x", id: 1)],
                  url: "https://example.com:8443/x", ids: [1]),
        RulesOrderCase(label: "hosts compare case-insensitively",
                  routes: [RulesRoute("https://Example.COM/x", id: 1), RulesRoute("https://*.EXAMPLE.com/x", id: 2)],
                  url: "https://WWW.example.Com/x", ids: [2]),
        RulesOrderCase(label: "an exact host compares case-insensitively",
                  routes: [RulesRoute("https://Example.COM/x", id: 1)],
                  url: "https://eXample.com/x", ids: [1]),
        RulesOrderCase(label: "the scheme compares case-insensitively",
                  routes: [RulesRoute("HTTPS://example.com/x", id: 1)],
                  url: "hTTps://EXAMPLE.com/x", ids: [1]),
        RulesOrderCase(label: "userinfo is dropped before the host is compared",
                  routes: [RulesRoute("https://example.com/x", id: 1)],
                  url: "https://user:secret@example.com:8080/x", ids: [1]),
        RulesOrderCase(label: "http and https are separate tables",
                  routes: [RulesRoute("https://example.com/x", id: 1)],
                  url: "http://example.com/x", ids: []),
        RulesOrderCase(label: "a web URL falls back to global routes with its path alone",
                  routes: [RulesRoute("/users/:id", id: 1), RulesRoute("/example.com/users/:id", id: 2)],
                  url: "https://example.com/users/42", ids: [1], parameters: [["id=42"]]),
        RulesOrderCase(label: "a web route root",
                  routes: [RulesRoute("https://example.com", id: 1), RulesRoute("https://example.com/*", id: 2)],
                  url: "https://example.com", ids: [1, 2]),
        RulesOrderCase(label: "an extra web scheme matches hosts like https",
                  options: RouterOptions(webSchemes: ["http", "https", "myweb"]),
                  routes: [RulesRoute("myweb://example.com/x", id: 1), RulesRoute("/x", id: 2)],
                  url: "myweb://example.com/x", ids: [1, 2]),
        RulesOrderCase(label: "an extra web scheme keeps its host out of the global path",
                  options: RouterOptions(webSchemes: ["http", "https", "myweb"]),
                  routes: [RulesRoute("myweb://example.com/x", id: 1), RulesRoute("/x", id: 2)],
                  url: "myweb://other.org/x", ids: [2]),
        RulesOrderCase(label: "an extra web scheme given in capitals through the property",
                  options: { var options = RouterOptions(); options.webSchemes.insert("MyWeb"); return options }(),
                  routes: [RulesRoute("myweb://*.example.com/x", id: 1), RulesRoute("MYWEB://example.com/x", id: 2),
                           RulesRoute("/x", id: 3)],
                  url: "MyWeb://a.Example.com/x", ids: [1, 3]),
        RulesOrderCase(label: "without the option that scheme's host is a path segment",
                  routes: [RulesRoute("/x", id: 2), RulesRoute("/:host/x", id: 3)],
                  url: "myweb://other.org/x", ids: [3], parameters: [["host=other.org"]]),
    ]

    @Test(arguments: hostCases)
    func hostRules(_ c: RulesOrderCase) throws { try checkRulesOrder(c) }

    // MARK: §3.1 registration order and §3.6 expansions

    static let registrationCases: [RulesOrderCase] = [
        RulesOrderCase(label: "equal specificity falls back to registration order",
                  routes: [RulesRoute("/u/{id:[0-9]+}", id: 1), RulesRoute("/u/{id:int}", id: 2)],
                  url: "/u/42", ids: [1, 2]),
        RulesOrderCase(label: "registration order, reversed",
                  routes: [RulesRoute("/u/{id:int}", id: 2), RulesRoute("/u/{id:[0-9]+}", id: 1)],
                  url: "/u/42", ids: [2, 1]),
        RulesOrderCase(label: "two built-ins tie",
                  routes: [RulesRoute("/x/{a:alpha}", id: 7), RulesRoute("/x/{b:hex}", id: 3)],
                  url: "/x/abc", ids: [7, 3], parameters: [["a=abc"], ["b=abc"]]),
        RulesOrderCase(label: "routes sharing an id are separate candidates",
                  routes: [RulesRoute("/s/:x", id: 9), RulesRoute("/s/*", id: 9), RulesRoute("/s/lit", id: 9)],
                  url: "/s/lit", ids: [9, 9, 9], parameters: [[], ["x=lit"], ["*=lit"]]),
        RulesOrderCase(label: "two expansions of one route are two candidates in expansion order",
                  routes: [RulesRoute("/a(/:x)/*w", id: 1)],
                  url: "/a/b", ids: [1, 1], parameters: [["x=b", "w="], ["w=b"]]),
        RulesOrderCase(label: "expansions interleave with other routes by specificity",
                  routes: [RulesRoute("/a(/:x)/*w", id: 1), RulesRoute("/a/{x:alpha}", id: 2), RulesRoute("/*", id: 3)],
                  url: "/a/b", ids: [2, 1, 1, 3]),
        RulesOrderCase(label: "an optional group matches with and without its part",
                  routes: [RulesRoute("/docs(/:page)", id: 4)],
                  url: "/docs", ids: [4], parameters: [[]]),
        RulesOrderCase(label: "nested groups expand outer first",
                  routes: [RulesRoute("/a(/b(/c))/*rest", id: 5)],
                  url: "/a/b/c", ids: [5, 5, 5], parameters: [["rest="], ["rest=c"], ["rest=b/c"]]),
        RulesOrderCase(label: "a group at the start",
                  routes: [RulesRoute("(/v1)/items/:id", id: 6)],
                  url: "/items/3", ids: [6], parameters: [["id=3"]]),
    ]

    @Test(arguments: registrationCases)
    func registrationAndExpansionOrder(_ c: RulesOrderCase) throws { try checkRulesOrder(c) }

    // MARK: §3.1 / §3.6 schemes and global fallback

    static let noFallback = RouterOptions(globalFallback: false)

    static let schemeCases: [RulesOrderCase] = [
        RulesOrderCase(label: "scheme table first, then global",
                  routes: [RulesRoute("/users/:id", id: 2), RulesRoute("myapp://users/:id", id: 1)],
                  url: "myapp://users/42", ids: [1, 2], parameters: [["id=42"], ["id=42"]]),
        RulesOrderCase(label: "fallback off keeps to the scheme table",
                  options: noFallback,
                  routes: [RulesRoute("/users/:id", id: 2), RulesRoute("myapp://users/:id", id: 1)],
                  url: "myapp://users/42", ids: [1]),
        RulesOrderCase(label: "no global fallback with an empty scheme table",
                  options: noFallback,
                  routes: [RulesRoute("/users/:id", id: 2)],
                  url: "myapp://users/42", ids: []),
        RulesOrderCase(label: "no global fallback for a web scheme either",
                  options: noFallback,
                  routes: [RulesRoute("/x", id: 2)],
                  url: "https://example.com/x", ids: []),
        RulesOrderCase(label: "fallback on reaches the global table from an unknown scheme",
                  routes: [RulesRoute("/users/:id", id: 2)],
                  url: "unknown://users/42", ids: [2]),
        RulesOrderCase(label: "a URL without a scheme uses the global table only",
                  routes: [RulesRoute("myapp://users/:id", id: 1), RulesRoute("/users/:id", id: 2)],
                  url: "/users/42", ids: [2]),
        RulesOrderCase(label: "the global table still answers with fallback off",
                  options: noFallback,
                  routes: [RulesRoute("myapp://users/:id", id: 1), RulesRoute("/users/:id", id: 2)],
                  url: "/users/42", ids: [2]),
        RulesOrderCase(label: "schemes compare case-insensitively",
                  routes: [RulesRoute("MyApp://users/:id", id: 1)],
                  url: "MYAPP://users/42", ids: [1]),
        RulesOrderCase(label: "different custom schemes are different tables",
                  routes: [RulesRoute("myapp://users/:id", id: 1)],
                  url: "otherapp://users/42", ids: []),
        RulesOrderCase(label: "a custom scheme's host compares case-insensitively with a literal",
                  routes: [RulesRoute("myapp://users/:id", id: 1)],
                  url: "myapp://USERS/42", ids: [1], parameters: [["id=42"]]),
        RulesOrderCase(label: "a custom scheme's host is captured as written",
                  routes: [RulesRoute("myapp://:section/:id", id: 1)],
                  url: "myapp://UsErS/42", ids: [1], parameters: [["section=UsErS", "id=42"]]),
        RulesOrderCase(label: "a custom scheme's host is the first segment of a global route",
                  routes: [RulesRoute("/:first/*rest", id: 1)],
                  url: "myapp://Host/a/b", ids: [1], parameters: [["first=Host", "rest=a/b"]]),
        RulesOrderCase(label: "a custom scheme's host is percent-decoded like a segment",
                  routes: [RulesRoute("myapp://users/:id", id: 1)],
                  url: "myapp://us%65rs/42", ids: [1], parameters: [["id=42"]]),
        RulesOrderCase(label: "a custom scheme's host is matched as written by a regex",
                  options: caseInsensitive,
                  routes: [RulesRoute("myapp://{h:[a-z]+}/x", id: 1), RulesRoute("myapp://users/x", id: 2)],
                  url: "myapp://USERS/x", ids: [2]),
        RulesOrderCase(label: "a custom scheme's host meets built-in constraints as written",
                  routes: [RulesRoute("myapp://{h:alpha}/x", id: 1), RulesRoute("myapp://{h:[a-z]+}/x", id: 2)],
                  url: "myapp://Users/x", ids: [1], parameters: [["h=Users"]]),
        RulesOrderCase(label: "only the host segment is case-insensitive",
                  routes: [RulesRoute("myapp://users/profile", id: 1)],
                  url: "myapp://Users/PROFILE", ids: []),
        RulesOrderCase(label: "a custom scheme root",
                  routes: [RulesRoute("myapp://", id: 1), RulesRoute("myapp://:h", id: 2)],
                  url: "myapp://", ids: [1]),
        RulesOrderCase(label: "a lone custom host",
                  routes: [RulesRoute("myapp://", id: 1), RulesRoute("myapp://settings", id: 2)],
                  url: "myapp://settings", ids: [2]),
        RulesOrderCase(label: "a custom scheme host with an optional part",
                  routes: [RulesRoute("myapp://settings(/:section)", id: 3)],
                  url: "myapp://settings/privacy", ids: [3], parameters: [["section=privacy"]]),
        RulesOrderCase(label: "an empty custom host leaves the path's first segment as the host, in a pattern as in a URL",
                  routes: [RulesRoute("myapp:///users/:id", id: 1)],
                  url: "myapp://users/42", ids: [1], parameters: [["id=42"]]),
        RulesOrderCase(label: "a URL with an empty custom host",
                  routes: [RulesRoute("myapp://users/:id", id: 1)],
                  url: "myapp:///users/42", ids: [1], parameters: [["id=42"]]),
        RulesOrderCase(label: "the root of a custom scheme written with an empty host",
                  routes: [RulesRoute("myapp:///", id: 1)],
                  url: "myapp://", ids: [1]),
        RulesOrderCase(label: "a group opening a custom scheme's path holds the host, the wildcard the rest",
                  routes: [RulesRoute("myapp://(/a)(/*rest)", id: 1)],
                  url: "myapp://a/x/y", ids: [1, 1], parameters: [["rest=x/y"], ["rest=a/x/y"]]),
        RulesOrderCase(label: "a group opening a custom scheme's path, with the host alone",
                  routes: [RulesRoute("myapp://(/a)(/*rest)", id: 1)],
                  url: "myapp://a", ids: [1, 1, 1], parameters: [[], ["rest="], ["rest=a"]]),
        RulesOrderCase(label: "a group opening a custom scheme's path, with another host",
                  routes: [RulesRoute("myapp://(/a)(/*rest)", id: 1)],
                  url: "myapp://b/c", ids: [1], parameters: [["rest=b/c"]]),
        RulesOrderCase(label: "a group opening a custom scheme's path: its variant without segments is the root",
                  routes: [RulesRoute("myapp://(/a)(/*rest)", id: 1)],
                  url: "myapp://", ids: [1, 1], parameters: [[], ["rest="]]),
        RulesOrderCase(label: "a group opening a custom scheme's path, and a URL with an empty host",
                  routes: [RulesRoute("myapp://(/a)(/*rest)", id: 1)],
                  url: "myapp:///", ids: [1, 1], parameters: [[], ["rest="]]),
        RulesOrderCase(label: "a placeholder in a group opening a custom scheme's path takes the host",
                  routes: [RulesRoute("app://(/:p0)/x", id: 1)],
                  url: "app://v/x", ids: [1], parameters: [["p0=v"]]),
        RulesOrderCase(label: "without the group opening a custom scheme's path, the next segment is the host",
                  routes: [RulesRoute("app://(/:p0)/x", id: 1)],
                  url: "app://x", ids: [1], parameters: [[]]),
        RulesOrderCase(label: "the segment after a group opening a custom scheme's path compares as a host",
                  routes: [RulesRoute("app://(/:p0)/x", id: 1)],
                  url: "app://X", ids: [1], parameters: [[]]),
        RulesOrderCase(label: "a group opening a custom scheme's path does not make the rest optional",
                  routes: [RulesRoute("app://(/:p0)/x", id: 1)],
                  url: "app://v/w", ids: []),
    ]

    @Test(arguments: schemeCases)
    func schemesAndGlobalFallback(_ c: RulesOrderCase) throws { try checkRulesOrder(c) }

    /// A group opening the path right after "scheme://" reads alike for a custom scheme, a web
    /// scheme (any host) and the global table: the same candidates with the same parameters.
    @Test func aGroupOpensACustomSchemePathAsItOpensAWebOne() throws {
        let paths = ["(/a)(/*rest)", "(/:p0)/x", "(/a)", "(/a(/b))/:c", "(/{n:int})(/x)"]
        let urlPaths = ["", "/", "/a", "/a/", "/a/x/y", "/x", "/v/x", "/b/c", "/a/b/c", "/a/c", "/7", "/7/x"]
        func found(_ router: Router<Int>, _ url: String) throws -> [[String]] {
            try router.matches(url).map { match in match.parameters.map { "\($0.name)=\($0.value)" } }
        }
        for path in paths {
            let options = RouterOptions(globalFallback: false)
            let custom = Router<Int>(options: options)
            let web = Router<Int>(options: options)
            let global = Router<Int>(options: options)
            try custom.add("myapp://" + path, value: 0)
            try web.add("https://" + path, value: 0)
            try global.add(path, value: 0)
            for urlPath in urlPaths {
                let expected = try found(global, urlPath)
                #expect(try found(custom, "myapp://" + urlPath.dropFirst()) == expected, "\(path) \(urlPath)")
                #expect(try found(web, "https://example.com" + urlPath) == expected, "\(path) \(urlPath)")
            }
        }
    }

    @Test func aGroupAfterASlashIsStillAnErrorAtItsParenthesis() {
        let router = Router<Int>()
        for (pattern, offset) in [("/a/(/b)", 3), ("myapp://a/(/b)", 10), ("myapp:///(/a)", 9),
                                  ("https:///(/a)", 9), ("https://x.com/(/a)", 14)] {
            guard case .failure(let error) = routerOutcome({ () throws(RouterError) in try router.add(pattern, value: 0) }) else {
                Issue.record("\(pattern) accepted")
                continue
            }
            #expect(error.code == .invalidPattern, "\(pattern)")
            #expect(error.offset == offset, "\(pattern)")
            #expect(error.message.contains("a group must follow a segment or start the path"), "\(pattern)")
        }
        #expect(router.count == 0)
    }

    // MARK: §3.2 / §3.6 case-insensitive option

    static let caseInsensitive = RouterOptions(caseInsensitivePaths: true)

    static let caseCases: [RulesOrderCase] = [
        RulesOrderCase(label: "literals are byte-exact by default",
                  routes: [RulesRoute("/Users/:id", id: 1)],
                  url: "/users/42", ids: []),
        RulesOrderCase(label: "the option folds ASCII letters of literals",
                  options: caseInsensitive,
                  routes: [RulesRoute("/Users/:id", id: 1)],
                  url: "/uSERS/42", ids: [1], parameters: [["id=42"]]),
        RulesOrderCase(label: "the option never folds regexes",
                  options: caseInsensitive,
                  routes: [RulesRoute("/r/{x:[a-c]+}", id: 1)],
                  url: "/r/ABC", ids: []),
        RulesOrderCase(label: "the option does not change captured values",
                  options: caseInsensitive,
                  routes: [RulesRoute("/r/:x", id: 1)],
                  url: "/R/MiXeD", ids: [1], parameters: [["x=MiXeD"]]),
        RulesOrderCase(label: "folding is ASCII only",
                  options: caseInsensitive,
                  routes: [RulesRoute("/caf%C3%A9", id: 1)],
                  url: "/CAF%C3%89", ids: []),
        RulesOrderCase(label: "folding covers the ASCII part of a decoded literal",
                  options: caseInsensitive,
                  routes: [RulesRoute("/caf%C3%A9", id: 1)],
                  url: "/CAFé", ids: [1]),
        RulesOrderCase(label: "no Unicode normalisation: a decomposed é is not a precomposed é",
                  routes: [RulesRoute("/caf%C3%A9", id: 1), RulesRoute("/:x", id: 2)],
                  url: "/cafe%CC%81", ids: [2], parameters: [["x=cafe\u{301}"]]),
        RulesOrderCase(label: "no Unicode normalisation under the option either",
                  options: caseInsensitive,
                  routes: [RulesRoute("/caf%C3%A9", id: 1)],
                  url: "/CAFE%CC%81", ids: []),
        RulesOrderCase(label: "/A and /a both answer in registration order",
                  options: caseInsensitive,
                  routes: [RulesRoute("/A", id: 1), RulesRoute("/a", id: 2)],
                  url: "/a", ids: [1, 2]),
        RulesOrderCase(label: "/A and /a without the option",
                  routes: [RulesRoute("/A", id: 1), RulesRoute("/a", id: 2)],
                  url: "/a", ids: [2]),
    ]

    @Test(arguments: caseCases)
    func caseInsensitivePaths(_ c: RulesOrderCase) throws { try checkRulesOrder(c) }

    @Test func capturedValuesKeepTheirCaseUnderTheOption() throws {
        let router = Router<Int>(options: Self.caseInsensitive)
        try router.add("/r/:x", value: 1)
        let match = try #require(try router.match("/r/MiXeD"))
        #expect(match.parameters["x"] == "MiXeD")
    }

    // MARK: §2 / §3.6 built-in constraints and regexes, through matching

    struct ConstraintCase: Sendable, CustomTestStringConvertible {
        var constraint: String
        var segment: String
        var accepted: Bool
        var testDescription: String { "{x:\(constraint)} \(accepted ? "accepts" : "rejects") \(segment.debugDescription)" }
    }

    static let constraintCases: [ConstraintCase] = [
        .init(constraint: "int", segment: "0", accepted: true),
        .init(constraint: "int", segment: "-0", accepted: true),
        .init(constraint: "int", segment: "007", accepted: true),
        .init(constraint: "int", segment: "+5", accepted: false),
        .init(constraint: "int", segment: "-", accepted: false),
        .init(constraint: "int", segment: "1.0", accepted: false),
        .init(constraint: "int", segment: "9223372036854775807", accepted: true),
        .init(constraint: "int", segment: "-9223372036854775808", accepted: true),
        .init(constraint: "int", segment: "9223372036854775808", accepted: false),
        .init(constraint: "int", segment: "-9223372036854775809", accepted: false),
        .init(constraint: "int", segment: "%31%32", accepted: true),
        .init(constraint: "int", segment: "%D9%A1", accepted: false),
        .init(constraint: "int", segment: "1%20", accepted: false),
        .init(constraint: "uint", segment: "18446744073709551615", accepted: true),
        .init(constraint: "uint", segment: "18446744073709551616", accepted: false),
        .init(constraint: "uint", segment: "-1", accepted: false),
        .init(constraint: "uint", segment: "0", accepted: true),
        .init(constraint: "float", segment: "-0.5", accepted: true),
        .init(constraint: "float", segment: "3", accepted: true),
        .init(constraint: "float", segment: "1.", accepted: false),
        .init(constraint: "float", segment: ".5", accepted: false),
        .init(constraint: "float", segment: "1e5", accepted: false),
        .init(constraint: "float", segment: "1.2.3", accepted: false),
        .init(constraint: "float", segment: "99999999999999999999999999.5", accepted: true),
        .init(constraint: "uuid", segment: "e621e1f8-C36C-495a-93fc-0c247a3e6e5f", accepted: true),
        .init(constraint: "uuid", segment: "e621e1f8c36c495a93fc0c247a3e6e5f", accepted: false),
        .init(constraint: "uuid", segment: "{e621e1f8-c36c-495a-93fc-0c247a3e6e5f}", accepted: false),
        .init(constraint: "uuid", segment: "g621e1f8-c36c-495a-93fc-0c247a3e6e5f", accepted: false),
        .init(constraint: "uuid", segment: "e621e1f8-c36c-495a-93fc-0c247a3e6e5", accepted: false),
        .init(constraint: "alpha", segment: "AbC", accepted: true),
        .init(constraint: "alpha", segment: "caf%C3%A9", accepted: false),
        .init(constraint: "alpha", segment: "a1", accepted: false),
        .init(constraint: "alnum", segment: "a1B2", accepted: true),
        .init(constraint: "alnum", segment: "a-1", accepted: false),
        .init(constraint: "hex", segment: "DEADbeef09", accepted: true),
        .init(constraint: "hex", segment: "0x1F", accepted: false),
        .init(constraint: "[a-c]+", segment: "abcabc", accepted: true),
        .init(constraint: "[a-c]+", segment: "abcd", accepted: false),
        .init(constraint: "[a-c]+", segment: "dabc", accepted: false),
        .init(constraint: "a|bc", segment: "bc", accepted: true),
        .init(constraint: "a|bc", segment: "ab", accepted: false),
        .init(constraint: "a|bc", segment: "abc", accepted: false),
        .init(constraint: ".", segment: "%C3%A9", accepted: true),
        .init(constraint: ".", segment: "ab", accepted: false),
        .init(constraint: "\\w+", segment: "a%2Fb", accepted: false),
        .init(constraint: "[^/]+/[^/]+", segment: "a%2Fb", accepted: true),
        .init(constraint: "[0-9]{2,3}", segment: "1234", accepted: false),
    ]

    @Test(arguments: constraintCases)
    func constraintsSeeTheWholeDecodedSegment(_ c: ConstraintCase) throws {
        for options in [RouterOptions(), Self.caseInsensitive] {
            let router = Router<Int>(options: options)
            try router.add("/c/{x:\(c.constraint)}", id: 1, value: 0)
            let match = try router.match("/c/\(c.segment)")
            #expect((match != nil) == c.accepted)
        }
    }

    @Test func aRegexThatHitsItsLimitFailsToMatchAndIsCounted() throws {
        let router = Router<Int>()
        try router.add("/r/{x:(a+)+$}", id: 1, value: 0)
        try router.add("/r/:x", id: 2, value: 0)
        #expect(router.statistics.regexLimitHits == 0)
        // Catastrophic backtracking: only the router's match/depth limits end this in time.
        let subject = String(repeating: "a", count: 10 * 1024) + "b"
        #expect(try router.matches("/r/\(subject)").map(\.routeID) == [2])
        #expect(router.statistics.regexLimitHits >= 1)
        #expect(try router.match("/r/aaa")?.routeID == 1)
    }

    @Test func routesOfOneBatchRegisterInArrayOrder() throws {
        let router = Router<Int>()
        try router.add(contentsOf: [Route("/u/{id:[0-9]+}", id: 1, value: 0), Route("/u/{id:int}", id: 2, value: 0)])
        try router.add(contentsOf: [Route("/v/{id:int}", id: 3, value: 0), Route("/v/{id:[0-9]+}", id: 4, value: 0)])
        #expect(try router.matches("/u/5").map(\.routeID) == [1, 2])
        #expect(try router.matches("/v/5").map(\.routeID) == [3, 4])
    }

    @Test func aMatcherForgetsTheLastMatchWhenTheNextOneFails() throws {
        let router = Router<Int>()
        try router.add("/a/:x", id: 1, value: 0)
        let matcher = Matcher(router: router)
        #expect(try matcher.match("/a/b?q=1"))
        #expect(matcher.parameter("x") == "b")
        #expect(try matcher.match("/zzz") == false)
        #expect(matcher.routeID == UInt64.max)
        #expect(matcher.parameterCount == 0)
        #expect(matcher.parameter("x") == nil)
        #expect(matcher.value == nil)
        let url = Array("/a/%41?q=2".utf8)
        let found = try url.withUnsafeBufferPointer { buffer throws(RouterError) in try matcher.match(utf8: buffer) }
        #expect(found)
        #expect(matcher.routeID == 1)
        #expect(matcher.parameter("x") == "A")
        #expect(matcher.parameter("q") == "2")
    }

    // MARK: §3.6 duplicates

    struct DuplicateCase: Sendable, CustomTestStringConvertible {
        var label: String
        var options = RouterOptions()
        var existing: [RulesRoute]
        var added: RulesRoute
        var isDuplicate: Bool
        var testDescription: String { label }
    }

    static let duplicateCases: [DuplicateCase] = [
        DuplicateCase(label: "parameter names do not count",
                      existing: [RulesRoute("/users/:id", id: 1)], added: RulesRoute("/users/:name", id: 2), isDuplicate: true),
        DuplicateCase(label: "brace and colon placeholders are one shape",
                      existing: [RulesRoute("/users/{id}", id: 1)], added: RulesRoute("/users/:id", id: 2), isDuplicate: true),
        DuplicateCase(label: "same constraint, different names",
                      existing: [RulesRoute("/u/{id:int}", id: 1)], added: RulesRoute("/u/{n:int}", id: 2), isDuplicate: true),
        DuplicateCase(label: "different constraints are different shapes",
                      existing: [RulesRoute("/u/{id:int}", id: 1)], added: RulesRoute("/u/{id:uint}", id: 2), isDuplicate: false),
        DuplicateCase(label: "a constraint differs from a placeholder",
                      existing: [RulesRoute("/u/{id:int}", id: 1)], added: RulesRoute("/u/:id", id: 2), isDuplicate: false),
        DuplicateCase(label: "wildcard names do not count",
                      existing: [RulesRoute("/a/*rest", id: 1)], added: RulesRoute("/a/*", id: 2), isDuplicate: true),
        DuplicateCase(label: "a different priority is not a duplicate",
                      existing: [RulesRoute("/users/:id", id: 1)], added: RulesRoute("/users/:id", priority: 1, id: 2),
                      isDuplicate: false),
        DuplicateCase(label: "the same id does not matter",
                      existing: [RulesRoute("/users/:id", id: 1)], added: RulesRoute("/users/:id", id: 1), isDuplicate: true),
        DuplicateCase(label: "one trailing slash is ignored",
                      existing: [RulesRoute("/a", id: 1)], added: RulesRoute("/a/", id: 2), isDuplicate: true),
        DuplicateCase(label: "empty and slash are both the root",
                      existing: [RulesRoute("", id: 1)], added: RulesRoute("/", id: 2), isDuplicate: true),
        DuplicateCase(label: "literals compare after decoding",
                      existing: [RulesRoute("/ab", id: 1)], added: RulesRoute("/a%62", id: 2), isDuplicate: true),
        DuplicateCase(label: "/A and /a are distinct with the case-insensitive option",
                      options: caseInsensitive,
                      existing: [RulesRoute("/A", id: 1)], added: RulesRoute("/a", id: 2), isDuplicate: false),
        DuplicateCase(label: "scheme tables are separate",
                      existing: [RulesRoute("/x", id: 1)], added: RulesRoute("myapp://x", id: 2), isDuplicate: false),
        DuplicateCase(label: "schemes are lower-cased",
                      existing: [RulesRoute("myapp://x", id: 1)], added: RulesRoute("MYAPP://x", id: 2), isDuplicate: true),
        DuplicateCase(label: "a group opening a custom scheme's path: its variant without the group is the root",
                      existing: [RulesRoute("myapp://", id: 1)], added: RulesRoute("myapp://(/a)", id: 2), isDuplicate: true),
        DuplicateCase(label: "a group opening a custom scheme's path: without the group, the next segment is the host",
                      existing: [RulesRoute("myapp://y", id: 1)], added: RulesRoute("myapp://(/x)/y", id: 2), isDuplicate: true),
        DuplicateCase(label: "a group opening a custom scheme's path, in another table than the same global path",
                      existing: [RulesRoute("(/x)", id: 1)], added: RulesRoute("myapp://(/x)", id: 2), isDuplicate: false),
        DuplicateCase(label: "hosts are part of the key",
                      existing: [RulesRoute("https://example.com/x", id: 1)], added: RulesRoute("https://*.example.com/x", id: 2),
                      isDuplicate: false),
        DuplicateCase(label: "hosts are lower-cased",
                      existing: [RulesRoute("https://example.com/x", id: 1)], added: RulesRoute("https://EXAMPLE.com/x", id: 2),
                      isDuplicate: true),
        DuplicateCase(label: "* and an empty host are both any host",
                      existing: [RulesRoute("https://*/x", id: 1)], added: RulesRoute("https:///x", id: 2), isDuplicate: true),
        DuplicateCase(label: "any host differs from an exact host",
                      existing: [RulesRoute("https://*/x", id: 1)], added: RulesRoute("https://example.com/x", id: 2),
                      isDuplicate: false),
        DuplicateCase(label: "a grouped add colliding with an existing route",
                      existing: [RulesRoute("/a/b", id: 1)], added: RulesRoute("/a(/b)", id: 2), isDuplicate: true),
        DuplicateCase(label: "a grouped add whose expansions collide with each other",
                      existing: [], added: RulesRoute("/a(/:x)(/:y)", id: 2), isDuplicate: true),
        DuplicateCase(label: "a grouped add whose expansions are all new",
                      existing: [RulesRoute("/a/b/c", id: 1)], added: RulesRoute("/a(/b)", id: 2), isDuplicate: false),
    ]

    @Test(arguments: duplicateCases)
    func duplicates(_ c: DuplicateCase) throws {
        let router = Router<Int>(options: c.options)
        for route in c.existing { try router.add(route.pattern, priority: route.priority, id: route.id, value: 0) }
        let probes = ["/", "/a", "/a/b", "/a/x/y", "/users/1", "/u/1", "/x", "myapp://x", "https://example.com/x"]
        let before = try probes.map { try router.matches($0).map(\.routeID) }
        let tablesBefore = router.dump()
        let result = routerOutcome { () throws(RouterError) in try router.add(c.added.pattern, priority: c.added.priority, id: c.added.id, value: 1) }
        if c.isDuplicate {
            guard case .failure(let error) = result else {
                Issue.record("\(c.added.pattern) was accepted after \(c.existing.map(\.pattern))")
                return
            }
            #expect(error.code == .duplicateRoute)
            #expect(router.count == c.existing.count, "a rejected add adds nothing")
            let after = try probes.map { try router.matches($0).map(\.routeID) }
            #expect(after == before, "a rejected add leaves no expansion behind")
            #expect(router.dump() == tablesBefore, "a rejected add leaves no node behind")
        } else {
            #expect(throws: Never.self) { try result.get() }
            #expect(router.count == c.existing.count + 1)
        }
    }

    @Test func aBatchWithOneDuplicateAddsNothing() throws {
        let router = Router<Int>()
        try router.add("/keep", id: 1, value: 0)
        let result = routerOutcome { () throws(RouterError) in
            try router.add(contentsOf: [Route("/new", id: 2, value: 1), Route("/new(/x)", id: 3, value: 2)])
        }
        guard case .failure(let error) = result else {
            Issue.record("a batch whose routes collide was accepted")
            return
        }
        #expect(error.code == .duplicateRoute)
        #expect(router.count == 1)
        #expect(try router.match("/new") == nil)
        #expect(try router.match("/new/x") == nil)
    }

    @Test func aRemovedRouteCanBeAddedAgainAndRegistersLast() throws {
        let router = Router<Int>()
        try router.add("/u/{id:[0-9]+}", id: 1, value: 0)
        try router.add("/u/{id:int}", id: 2, value: 0)
        #expect(try router.matches("/u/5").map(\.routeID) == [1, 2])
        #expect(router.remove(id: 1) == 1)
        try router.add("/u/{id:[0-9]+}", id: 1, value: 0)
        #expect(try router.matches("/u/5").map(\.routeID) == [2, 1])
    }

    // MARK: removal and count

    @Test func removeTakesEveryRouteWithThatID() throws {
        let router = Router<Int>()
        try router.add("/a", id: 7, value: 0)
        try router.add("myapp://b", id: 7, value: 1)
        try router.add("https://example.com/c", id: 7, value: 2)
        try router.add("/c", id: 8, value: 3)
        #expect(router.count == 4)
        #expect(router.remove(id: 7) == 3)
        #expect(router.count == 1)
        #expect(try router.match("/a") == nil)
        #expect(try router.match("myapp://b") == nil)
        #expect(try router.match("https://example.com/c")?.routeID == 8)
        #expect(try router.match("/c")?.routeID == 8)
        #expect(router.remove(id: 7) == 0)
        #expect(router.remove(id: 12345) == 0)
        #expect(router.count == 1)
    }

    @Test func removeTakesEveryExpansion() throws {
        let router = Router<Int>()
        try router.add("/a(/b)(/c)", id: 5, value: 0)
        #expect(router.count == 1, "a grouped pattern counts once")
        for url in ["/a", "/a/b", "/a/c", "/a/b/c"] {
            #expect(try router.match(url)?.routeID == 5, "\(url)")
        }
        #expect(router.remove(id: 5) == 1)
        #expect(router.count == 0)
        for url in ["/a", "/a/b", "/a/c", "/a/b/c"] {
            #expect(try router.match(url) == nil, "\(url)")
        }
        // Every expansion is gone, so each can be registered again on its own.
        try router.add("/a/b", id: 6, value: 0)
        try router.add("/a", id: 6, value: 0)
        #expect(router.count == 2)
    }

    /// Schemes compare case-insensitively however the option is set: the initializer and the
    /// property keep the same lower-cased names.
    @Test func webSchemesAreLowerCasedHoweverTheyAreGiven() {
        var options = RouterOptions()
        options.webSchemes.insert("FTP")
        options.webSchemes.formUnion(["Gopher"])
        #expect(options.webSchemes == ["http", "https", "ftp", "gopher"])
        #expect(options == RouterOptions(webSchemes: ["HTTP", "https", "ftp", "GOPHER"]))
    }

    @Test func countIsRoutesAsRegistered() throws {
        let router = Router<Int>()
        #expect(router.count == 0)
        try router.add("/x(/y)", value: 0)
        try router.add("/x/:y/z", value: 0)
        try router.add(contentsOf: [Route("/p", value: 0), Route("myapp://p", value: 0)])
        #expect(router.count == 4)
        _ = try? router.add("/p", value: 0)
        #expect(router.count == 4, "a duplicate does not count")
        _ = try? router.add("/bad/{", value: 0)
        #expect(router.count == 4, "an invalid pattern does not count")
    }

    @Test func matchIsNilAndMatchesEmptyWithoutCandidates() throws {
        let router = Router<Int>()
        #expect(try router.match("/anything") == nil)
        #expect(try router.matches("/anything").isEmpty)
        try router.add("/a", value: 0)
        #expect(try router.match("/b") == nil)
        let matcher = Matcher(router: router)
        #expect(try matcher.match("/b") == false)
        #expect(matcher.routeID == UInt64.max)
        #expect(matcher.next() == false)
    }

    @Test func matchReturnsTheRegisteredValueAndID() throws {
        let router = Router<String>()
        try router.add("/users/:id", id: 3, value: "user")
        try router.add("/users/me", id: 4, value: "me")
        let all = try router.matches("/users/me")
        #expect(all.map(\.value) == ["me", "user"])
        #expect(all.map(\.routeID) == [4, 3])
        let matcher = Matcher(router: router)
        #expect(try matcher.match("/users/me"))
        #expect(matcher.value == "me")
        #expect(matcher.next())
        #expect(matcher.value == "user")
        #expect(matcher.parameter("id") == "me")
        #expect(matcher.next() == false)
    }
}
