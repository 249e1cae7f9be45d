import Hummingbird

/// One route of the example API: a method and a path in Hummingbird's syntax (`:name` placeholders).
public struct ServerRoute: Sendable {
    public var method: HTTPRequest.Method
    public var path: String

    /// `GET /repos/:owner/:repo`: the route as the responses name it.
    public var label: String { "\(method.rawValue) \(path)" }

    /// The placeholders' names, in path order.
    public var parameterNames: [Substring] {
        path.split(separator: "/").filter { $0.hasPrefix(":") }.map { $0.dropFirst() }
    }

    /// A request URI for this route: each placeholder takes a value made from its name and `seed`,
    /// never equal to a literal of the route sets (they hold no digits after a `-`).
    public func sampleURI(seed: Int) -> String {
        "/" + path.split(separator: "/").map { segment in
            segment.hasPrefix(":") ? "\(segment.dropFirst())-\(seed)" : String(segment)
        }.joined(separator: "/")
    }

    /// The body a correct router's handler answers for `sampleURI(seed:)`: the route and its
    /// parameters, built from the route alone (not by routing), so a check can compare against it.
    public func expectedBody(seed: Int) -> String {
        ResponseBody.json(route: label, parameters: parameterNames.map { ($0, "\($0)-\(seed)"[...]) })
    }
}

/// The route sets the server can serve.
public enum RouteSet {
    /// The GitHub API v3 routes with their methods, read from a routes file (`METHOD /path` lines).
    public static func gitHub(file: String) throws -> [ServerRoute] {
        guard let text = try? String(contentsOfFile: file, encoding: .utf8) else {
            throw ServerError("cannot read the routes file \(file)")
        }
        return try text.split(separator: "\n").compactMap { line -> ServerRoute? in
            guard !line.hasPrefix("#"), !line.isEmpty else { return nil }
            let fields = line.split(separator: " ")
            guard fields.count == 2, let method = HTTPRequest.Method(String(fields[0])), fields[1].hasPrefix("/") else {
                throw ServerError("not a `METHOD /path` line in \(file): \(line)")
            }
            return ServerRoute(method: method, path: String(fields[1]))
        }
    }

    /// A large API: `count / 4` resources under 25 services, each with list, create, show and update
    /// routes (`GET|POST /s7/r42`, `GET|PUT /s7/r42/:id`).
    public static func generated(count: Int) -> [ServerRoute] {
        (0..<max(1, count / 4)).flatMap { index -> [ServerRoute] in
            let base = "/s\(index % 25)/r\(index / 25)"
            return [
                ServerRoute(method: .get, path: base),
                ServerRoute(method: .post, path: base),
                ServerRoute(method: .get, path: base + "/:id"),
                ServerRoute(method: .put, path: base + "/:id"),
            ]
        }
    }
}

/// A startup error, printed as it is.
public struct ServerError: Error, CustomStringConvertible {
    public var description: String
    init(_ description: String) { self.description = description }
}
