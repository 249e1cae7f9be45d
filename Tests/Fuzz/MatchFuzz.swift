// libFuzzer harness: arbitrary bytes as a URL, matched against a rich fixed route set (docs/SEMANTICS.md §3).
//
// The input is the URL as it is, or (first byte 0xFF) its remainder repeated to cross the 64 KiB
// and 1024-segment limits. Two routers hold the same routes with different options. Invariants:
// - a lookup returns a match, no match or invalid-URL, never crashes or hangs; a URL over
//   64 KiB, or with NUL before its fragment, is invalid;
// - every candidate is a registered route; the decline order puts the URL's scheme table before
//   the global table and, within a table, never a lower priority before a higher one;
// - every parameter name and value is valid UTF-8 without NUL (the fragment is raw), path
//   parameters come first, and a name looks up its first pair;
// - the fragment is the raw text after the first '#';
// - the allocation-free Matcher and Router.matches (String API) give the same candidates.
//
// Requests with an HTTP method (docs/SEMANTICS.md §3.7): an input "METHOD url" (a token, one
// space, then the URL as above) asks with that method, any other input with one picked from its
// length; every input also asks with HEAD. The answer is judged against the URL's lookup without
// a method and the fixed routes' method sets: the chain is the method-less chain filtered to the
// routes accepting the method (for HEAD, when the router lets GET routes answer it, those
// accepting HEAD or GET), notFound means no candidate at all, and methodNotAllowed has the
// union of the candidates' methods in Allow order. Router.match and Router.matches agree.

@testable import FastRouter

#if canImport(Glibc)
import Glibc
#endif

/// A route of the fixed set: table (`nil` = global), priority, id and pattern.
private struct FixedRoute {
    var pattern: String
    var priority: Int32
    var id: UInt64
    var table: String?
    /// Empty for any method.
    var methods: [String]
}

private let fixedRoutes: [FixedRoute] = {
    var routes: [FixedRoute] = []
    func add(_ pattern: String, _ priority: Int32 = 0, table: String? = nil, methods: [String] = []) {
        routes.append(FixedRoute(pattern: pattern, priority: priority, id: UInt64(routes.count + 1), table: table,
                                 methods: methods))
    }
    // Global table: literals, placeholders, every built-in, regexes (one catastrophic), wildcards,
    // groups, partial segments, priorities and encoded literals.
    add("/")
    add("/users")
    add("/users/:id")
    add("/users/{id:int}")
    add("/users/{id:uuid}")
    add("/users/:id/posts(/:post)(/comments/{comment:uint})")
    add("/files/*path")
    add("/static/*")
    add("/a/b/c/d/e/f/g/h")
    add("/search")
    add("/re/{word:[a-z]+}")
    add("/re/{slow:(a+)+$}", -1)
    add("/re/{year:\\d{4}}/{month:0[1-9]|1[0-2]}")
    add("/re/{u:\\p{Lu}\\p{Ll}*}")
    add("/hex/{h:hex}/{f:float}")
    add("/kinds/{a:alpha}/{b:alnum}(/{c:uint})")
    add("/caf%C3%A9/:x")
    add("/ü/:y")
    add("/%2F/:z")
    add("/p/:a", 5)
    add("/p/:b")
    add("/p/*rest", -3)
    add("(/opt/:o)/tail")
    add("/g(/a(/b(/c)))")
    add("/img/{name}.{ext:alpha}")
    add("/v{major:int}/x")
    add("/Mixed/Case")
    // Custom scheme: the host is the first segment.
    add("myapp://users/:id", table: "myapp")
    add("myapp://settings(/:section)", table: "myapp")
    add("myapp://{host:alpha}/x", table: "myapp")
    add("myapp://*", -2, table: "myapp")
    add("other://:h/*rest", table: "other")
    // A custom scheme for the first router, a web scheme for the second.
    add("app://example.com/:x", table: "app")
    // Web schemes: exact, suffix and any host.
    add("https://example.com/repos/:owner/:repo", table: "https")
    add("https://*.example.com/:p", table: "https")
    add("https://api.example.com/v1/*rest", table: "https")
    add("https://example.com/", table: "https")
    add("http://*/any/*", table: "http")
    add("http:///users/:id", 2, table: "http")
    // Routes of one path told apart by method; HEAD served by its own route for an int (then
    // GET's), by GET's otherwise; a wildcard and an any-method route beside method routes (a more
    // specific GET route keeps HEAD from it); long extension names.
    add("/m/:x", methods: ["GET"])
    add("/m/:x", methods: ["POST", "PURGE"])
    add("/m/{x:int}", methods: ["HEAD"])
    add("/m/lit", methods: ["DELETE"])
    add("/m/*rest", -1, methods: ["PROPFIND", "VERSION-CONTROL"])
    add("/m/any/:y")
    add("/m/any/{y:int}", methods: ["GET"])
    add("myapp://m/:x", table: "myapp", methods: ["PATCH", "get"])
    add("https://example.com/m/:x", table: "https", methods: ["GET", "PUT"])
    return routes
}()

private let routeByID: [UInt64: FixedRoute] = Dictionary(uniqueKeysWithValues: fixedRoutes.map { ($0.id, $0) })

private func makeRouter(_ options: RouterOptions) -> Router<UInt64> {
    let router = Router<UInt64>(options: options)
    do {
        try router.add(contentsOf: fixedRoutes.map {
            Route($0.pattern, methods: $0.methods.map { HTTPMethod(rawValue: $0)! }, priority: $0.priority, id: $0.id,
                  value: $0.id)
        })
    } catch {
        fputs("fixed route set does not register: \(error)\n", stderr)
        abort()
    }
    return router
}

private let routers: [Router<UInt64>] = [
    makeRouter(RouterOptions()),
    makeRouter(RouterOptions(caseInsensitivePaths: true, globalFallback: false, plusAsSpace: false, headFallback: false,
                             webSchemes: ["http", "https", "app"])),
]
private let matchers = routers.map { Matcher(router: $0) }
private let variantCount = 64 * fixedRoutes.count

/// Every method name of the fixed routes, in the order the routers first saw them.
private let registeredMethods: [String] = fixedRoutes.reduce(into: []) { names, route in
    for name in route.methods where !names.contains(name) { names.append(name) }
}
/// Methods an input without a "METHOD " prefix is asked with: one per input, by its length.
private let requestMethods = ["GET", "POST", "DELETE", "PUT", "PURGE", "PROPFIND", "VERSION-CONTROL", "PATCH", "get",
                              "OPTIONS", "BREW", "HEADER"]

/// libFuzzer entry point: matches the input as a URL on both fixed routers, without a method and
/// with methods.
@_cdecl("LLVMFuzzerTestOneInput")
public func matchFuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    var url = Array(UnsafeBufferPointer(start: data, count: size))
    var methods: [String] = []
    if let space = url.prefix(24).firstIndex(of: UInt8(ascii: " ")), space > 0, isToken(url[..<space]) {
        methods.append(String(decoding: url[..<space], as: UTF8.self))
        url.removeSubrange(...space)
    } else {
        methods.append(requestMethods[size % requestMethods.count])
    }
    if !methods.contains("HEAD") { methods.append("HEAD") }
    if url.first == 0xFF, url.count >= 3 {
        // Amplify: repeat the remainder past the URL limits (up to about 70 KB).
        let unit = Array(url[2...])
        let times = min(70_000 / unit.count + 1, Int(url[1]) * 300 + 1)
        url = Array(repeatElement(unit, count: times).joined())
    }
    for index in routers.indices {
        guard let seen = check(url, routers[index], matchers[index]) else { continue }
        for method in methods { checkRequest(url, method, routers[index], matchers[index], seen) }
    }
    return 0
}

/// RFC 9110's token (`tchar`), checked here independently of the library.
private func isToken<C: Collection>(_ bytes: C) -> Bool where C.Element == UInt8 {
    !bytes.isEmpty && bytes.allSatisfy { byte in
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
            || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || Array("!#$%&'*+-.^_`|~".utf8).contains(byte)
    }
}

/// Checks a request with `name` against `seen`, the URL's candidates without a method.
private func checkRequest(_ url: [UInt8], _ name: String, _ router: Router<UInt64>, _ matcher: Matcher<UInt64>,
                          _ seen: [Seen]) {
    let text = "\(name) \(show(url))"
    guard let method = HTTPMethod(rawValue: name) else {
        require(false, "\(text): HTTPMethod refused the token \(name)")
        return
    }
    let headFallback = router.options.headFallback
    // HEAD also takes the routes accepting GET, in the same order (docs/SEMANTICS.md §3.7). The
    // route naming HEAD comes first only between routes of one shape, and no two fixed routes of
    // one shape that match a common URL split HEAD and GET between them, so filtering keeps the
    // order here (the differential harness checks that preference).
    let serves = { (route: Seen) in
        let methods = routeByID[route.id]!.methods
        return methods.isEmpty || methods.contains(name) || (name == "HEAD" && headFallback && methods.contains("GET"))
    }
    let expected = seen.filter(serves)
    let names = Set(seen.flatMap { routeByID[$0.id]!.methods })
    let standard = ["GET", "HEAD", "POST", "PUT", "DELETE", "CONNECT", "OPTIONS", "TRACE"]
    let allow = (standard.filter { names.contains($0) || ($0 == "HEAD" && headFallback && names.contains("GET")) }
        + registeredMethods.filter { names.contains($0) && !standard.contains($0) }).joined(separator: ", ")
    let expectedOutcome: MatchOutcome = !expected.isEmpty ? .matched : seen.isEmpty ? .notFound : .methodNotAllowed

    var chain: [Seen] = []
    do {
        let outcome = try url.withUnsafeBufferPointer { (bytes) throws(RouterError) -> MatchOutcome in
            try matcher.match(utf8: bytes, method: method)
        }
        require(outcome == expectedOutcome, "\(text): \(outcome), expected \(expectedOutcome) (candidates \(seen.map(\.id)))")
        let allowed = matcher.allowedMethods?.headerValue
        require(allowed == (outcome == .methodNotAllowed ? allow : nil),
                "\(text): allowedMethods \(String(describing: allowed)), expected \(allow) (candidates \(seen.map(\.id)))")
        if outcome == .matched {
            repeat {
                chain.append(Seen(id: matcher.routeID, parameters: flatParameters(matcher)))
            } while matcher.next() && chain.count <= seen.count
        }
    } catch {
        require(false, "\(text): a request threw \(error) but the lookup without a method did not")
    }
    require(chain == expected, "\(text): chain \(chain.map(\.id)), expected \(expected.map(\.id)) of \(seen.map(\.id))")

    // The String API must agree whenever the bytes are a Swift string as they are.
    guard isStrictUTF8(url) else { return }
    let string = String(decoding: url, as: UTF8.self)
    do {
        let matches = try router.matches(string, method: method)
        require(matches.map(\.routeID) == expected.map(\.id), "\(text): Router.matches \(matches.map(\.routeID)), expected \(expected.map(\.id))")
        switch try router.match(string, method: method) {
        case .matched(let match):
            require(match.routeID == expected.first?.id, "\(text): Router.match \(match.routeID), expected \(expected.map(\.id))")
        case .notFound:
            require(expectedOutcome == .notFound, "\(text): Router.match notFound, expected \(expectedOutcome)")
        case .methodNotAllowed(let allowed):
            require(expectedOutcome == .methodNotAllowed && allowed.headerValue == allow,
                    "\(text): Router.match 405 \(allowed.headerValue), expected \(expectedOutcome) \(allow)")
        }
    } catch {
        require(false, "\(text): Router.matches(_:method:) threw \(error)")
    }
}

/// The current candidate's parameters, flattened (name, value, name, value…).
private func flatParameters(_ matcher: Matcher<UInt64>) -> [[UInt8]] {
    (0..<matcher.parameterCount).flatMap { index -> [[UInt8]] in
        guard let (name, value) = matcher.parameter(at: index) else { return [] }
        return [Array(name), Array(value)]
    }
}

private struct Seen: Equatable {
    var id: UInt64
    var parameters: [[UInt8]]
}

/// Checks the lookup of `url` without a method; returns its candidates, `nil` for an invalid URL.
@discardableResult
private func check(_ url: [UInt8], _ router: Router<UInt64>, _ matcher: Matcher<UInt64>) -> [Seen]? {
    let text = show(url)
    let fragmentStart = url.firstIndex(of: UInt8(ascii: "#"))
    let beforeFragment = url[..<(fragmentStart ?? url.endIndex)]
    var mustBeInvalid = url.count > 65536 || beforeFragment.contains(0)
    if url.count <= 65536 && mustBeInvalid && nulOnlyInAuthority(beforeFragment) {
        // Known issue (RegressionTests.nulInUserinfoOrPortIsInvalid): NUL in the userinfo or
        // port, which the scanner drops, is not rejected yet.
        mustBeInvalid = false
    }

    var seen: [Seen] = []
    let matched: Bool
    do {
        matched = try url.withUnsafeBufferPointer { (bytes) throws(RouterError) -> Bool in
            try matcher.match(utf8: bytes)
        }
    } catch {
        require(error.code == .invalidURL, "URL \(text) threw \(error)")
        require(matcher.routeID == UInt64.max && matcher.parameterCount == 0,
                "invalid URL \(text) left a current route \(matcher.routeID)")
        checkStringAPIRejects(url, router, text)
        return nil
    }
    require(!mustBeInvalid, "URL \(text) (\(url.count) bytes) must be invalid but was accepted")
    if matched {
        var previous: FixedRoute?
        repeat {
            let id = matcher.routeID
            guard let route = routeByID[id] else {
                require(false, "URL \(text) matched unknown route id \(id)")
                return nil
            }
            require(matcher.value == id, "route \(id) carries value \(String(describing: matcher.value))")
            if let previous {
                // Scheme table first, then global; within a table, priority never rises.
                require(!(previous.table == nil && route.table != nil),
                        "URL \(text): scheme route \(route.pattern) declined after global route \(previous.pattern)")
                if previous.table == route.table {
                    require(previous.priority >= route.priority,
                            "URL \(text): priority \(route.priority) (\(route.pattern)) after \(previous.priority) (\(previous.pattern))")
                }
            }
            previous = route
            seen.append(Seen(id: id, parameters: checkParameters(matcher, route, url, fragmentStart, text)))
            require(seen.count <= variantCount, "URL \(text): more candidates than route variants")
        } while matcher.next()
        require(matcher.routeID == UInt64.max && matcher.parameterCount == 0,
                "URL \(text): declining the last candidate left route \(matcher.routeID)")
    }

    // The String API must agree whenever the bytes are a Swift string as they are.
    guard isStrictUTF8(url) else { return seen }
    let string = String(decoding: url, as: UTF8.self)
    do {
        let matches = try router.matches(string)
        let fromRouter = matches.map { match in
            Seen(id: match.routeID, parameters: match.parameters.flatMap { [Array($0.name.utf8), Array($0.value.utf8)] })
        }
        require(fromRouter == seen, "URL \(text): Router.matches \(fromRouter.map(\.id)) but Matcher \(seen.map(\.id))")
        if let best = try router.match(string) {
            require(best.routeID == seen.first?.id, "URL \(text): Router.match \(best.routeID), Matcher \(seen.map(\.id))")
            // Its bytes as lent, pair by pair, are the Matcher's.
            var lent: [[UInt8]] = []
            best.parameters.forEachUTF8 { name, value in lent += [Array(name), Array(value)] }
            require(lent == seen.first?.parameters, "URL \(text): Router.match lends other parameter bytes than the Matcher reads")
        } else {
            require(seen.isEmpty, "URL \(text): Router.match found nothing, Matcher \(seen.map(\.id))")
        }
    } catch {
        require(false, "URL \(text): Router.matches threw \(error) but Matcher accepted it")
    }
    return seen
}

/// True when every NUL of `url` lies in a "scheme://" authority (up to the next '/', '?' or end).
private func nulOnlyInAuthority(_ url: ArraySlice<UInt8>) -> Bool {
    let bytes = Array(url)
    var index = 0
    while index < bytes.count, bytes[index] != UInt8(ascii: ":"), bytes[index] != UInt8(ascii: "/"),
          bytes[index] != UInt8(ascii: "?"), bytes[index] != 0 {
        index += 1
    }
    guard index + 2 < bytes.count, bytes[index] == UInt8(ascii: ":"), bytes[index + 1] == UInt8(ascii: "/"),
          bytes[index + 2] == UInt8(ascii: "/") else { return false }
    var end = index + 3
    while end < bytes.count, bytes[end] != UInt8(ascii: "/"), bytes[end] != UInt8(ascii: "?") { end += 1 }
    return !bytes[..<(index + 3)].contains(0) && !bytes[end...].contains(0)
}

private func checkStringAPIRejects(_ url: [UInt8], _ router: Router<UInt64>, _ text: String) {
    guard isStrictUTF8(url) else { return }
    do {
        _ = try router.matches(String(decoding: url, as: UTF8.self))
        require(false, "URL \(text): Matcher says invalid but Router.matches accepted it")
    } catch {
        require(error.code == .invalidURL, "URL \(text): Router.matches threw \(error)")
    }
}

/// Checks the current candidate's parameters; returns them flattened (name, value, name, value…).
private func checkParameters(_ matcher: Matcher<UInt64>, _ route: FixedRoute, _ url: [UInt8], _ fragmentStart: Int?,
                             _ text: String) -> [[UInt8]] {
    var flat: [[UInt8]] = []
    var names: [[UInt8]] = []
    let count = matcher.parameterCount
    require(count <= url.count + 64, "URL \(text): \(count) parameters")
    for index in 0..<count {
        guard let (name, value) = matcher.parameter(at: index) else {
            require(false, "URL \(text): parameter \(index) of \(count) missing")
            return flat
        }
        let nameBytes = Array(name)
        let valueBytes = Array(value)
        require(isStrictUTF8(nameBytes) && !nameBytes.contains(0), "URL \(text): parameter name \(show(nameBytes))")
        require(isStrictUTF8(valueBytes) && !valueBytes.contains(0),
                "URL \(text): value \(show(valueBytes)) of \(show(nameBytes)) in \(route.pattern)")
        // Only query keys may be empty, and only the first pair of a name is found by name.
        if !names.contains(nameBytes) {
            let looked = String(decoding: nameBytes, as: UTF8.self)
            let byName = matcher.parameterBytes(looked).map(Array.init)
            require(byName == valueBytes, "URL \(text): parameter(\(show(nameBytes))) is \(byName.map(show) ?? "nil"), first pair has \(show(valueBytes))")
        }
        names.append(nameBytes)
        flat.append(nameBytes)
        flat.append(valueBytes)
    }
    require(matcher.parameter(at: count) == nil, "URL \(text): a parameter past the end")
    let fragment = matcher.fragment.map(Array.init)
    if let fragmentStart {
        require(fragment == Array(url[(fragmentStart + 1)...]),
                "URL \(text): fragment \(fragment.map(show) ?? "nil")")
    } else {
        require(fragment == nil, "URL \(text): fragment \(fragment.map(show) ?? "nil") without '#'")
    }
    return flat
}
