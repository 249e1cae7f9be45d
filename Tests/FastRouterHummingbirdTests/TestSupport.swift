#if Hummingbird
import Foundation
import Hummingbird
import HummingbirdTesting
import FastRouterHummingbird

/// What a client sees of a response: enough to tell two routers' answers apart.
struct Answer: Equatable, CustomStringConvertible {
    var status: Int
    var allow: String?
    var contentLength: String?
    /// `X-Tags` and `X-Endpoint`, which the builder tests' middleware sets.
    var tags: String?
    var endpoint: String?
    var body: String = ""

    /// A 200 with `body`.
    static func ok(_ body: String) -> Answer {
        Answer(status: 200, contentLength: String(body.utf8.count), body: body)
    }

    /// An empty answer with `status`, as Hummingbird sends an `HTTPError` without a message.
    static func empty(_ status: Int, allow: String? = nil) -> Answer {
        Answer(status: status, allow: allow, contentLength: "0", body: "")
    }

    var description: String {
        "\(status) allow=\(allow ?? "-") length=\(contentLength ?? "-") tags=\(tags ?? "-") endpoint=\(endpoint ?? "-") body=\(body)"
    }
}

/// A request of a test: a method and a URI as sent on the wire.
struct TestRequest: CustomStringConvertible, Sendable {
    var method: HTTPRequest.Method
    var uri: String
    var description: String { "\(method.rawValue) \(uri)" }
}

/// Handlers that echo which route answered and the parameters it was given, in order.
enum Echo {
    static func body(route: String, _ context: some RequestContext) -> String {
        var text = route
        for (name, value) in context.parameters {
            text += " \(name)=\(value)"
        }
        return text
    }

    /// Registers `method path` on `router` with an echoing handler labelled `label`.
    static func add(_ router: some RouterMethods<BasicRequestContext>, _ method: HTTPRequest.Method, _ path: String,
                    label: String? = nil) {
        let label = label ?? "\(method.rawValue) \(path)"
        router.on(RouterPath(path), method: method) { _, context in body(route: label, context) }
    }
}

/// Sends every request to an application routed by `builder` and returns the answers, in order.
func answers<Builder: HTTPResponderBuilder>(of builder: Builder, to requests: [TestRequest]) async throws -> [Answer] where Builder.Responder.Context == BasicRequestContext {
    try await answers(of: Application(router: builder), to: requests)
}

/// Sends every request to `app` and returns the answers, in order.
func answers(of app: some ApplicationProtocol, to requests: [TestRequest]) async throws -> [Answer] {
    try await app.test(.router) { client in
        var answers: [Answer] = []
        for request in requests {
            let answer = try await client.execute(uri: request.uri, method: request.method) { response in
                Answer(status: Int(response.status.code), allow: response.headers[.allow],
                       contentLength: response.headers[.contentLength], tags: response.headers[HTTPFields.tagsName],
                       endpoint: response.headers[HTTPFields.endpointName], body: String(buffer: response.body))
            }
            answers.append(answer)
        }
        return answers
    }
}

extension HTTPFields {
    /// Set by the builder tests' middleware: which middleware a response went through.
    static var tagsName: Element.Name { .init("X-Tags")! }
    /// Set by the builder tests' middleware: `context.endpointPath`.
    static var endpointName: Element.Name { .init("X-Endpoint")! }
}

/// The GitHub API v3 route set with its methods (examples/c/github.routes): `(method, path)`.
func gitHubRoutes() throws -> [(method: HTTPRequest.Method, path: String)] {
    let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../examples/c/github.routes").standardizedFileURL
    return try String(contentsOf: file, encoding: .utf8).split(separator: "\n").compactMap { line in
        guard !line.hasPrefix("#"), let space = line.firstIndex(of: " ") else { return nil }
        return (HTTPRequest.Method(String(line[..<space]))!, String(line[line.index(after: space)...]))
    }
}

/// `path` with each `:name` placeholder replaced by a value derived from its name.
func sampleURI(for path: String) -> String {
    path.split(separator: "/", omittingEmptySubsequences: false).map { segment in
        segment.hasPrefix(":") ? "v-\(segment.dropFirst())" : String(segment)
    }.joined(separator: "/")
}
#endif
