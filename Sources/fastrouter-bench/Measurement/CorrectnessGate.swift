/// One request a router got wrong.
struct WrongAnswer: Sendable, Codable, CustomStringConvertible {
    var url: String
    var expectedRoute: String
    var expectedParameters: [Parameter]?
    var actualRoute: String
    var actualParameters: [Parameter]
    var failure: String?

    var description: String {
        var text = "URL \(url)\n      expected \(expectedRoute)"
        if let expectedParameters { text += " \(expectedParameters)" }
        text += "\n      actual   \(actualRoute) \(actualParameters)"
        if let failure { text += " (\(failure))" }
        return text
    }
}

/// Checks every request of a set against its expected route and parameters before any
/// figure is taken: a router that answers wrongly is not measured.
enum CorrectnessGate {
    static func check<W: LookupWorker>(_ worker: inout W, set: RouteSet, kind: RouterKind) -> [WrongAnswer] {
        var wrong: [WrongAnswer] = []
        func describe(_ route: Int?) -> String {
            guard let route else { return "no route" }
            guard set.routes.indices.contains(route) else { return "unknown route id \(route)" }
            let spec = set.routes[route]
            return "#\(route) \(spec.pattern)" + (spec.priority != 0 ? " (priority \(spec.priority))" : "")
        }
        for (index, request) in set.requests.enumerated() {
            let answer = worker.answer(index)
            var expected = request.parameters
            if !kind.isFastRouter, let all = expected { expected = Array(all.prefix(request.pathParameterCount)) }
            let routeRight = answer.route == request.route && answer.failure == nil
            let parametersRight = expected.map { $0 == answer.parameters } ?? true
            if !routeRight || !parametersRight {
                wrong.append(WrongAnswer(url: request.url, expectedRoute: describe(request.route),
                                         expectedParameters: expected, actualRoute: describe(answer.route),
                                         actualParameters: answer.parameters, failure: answer.failure))
            }
        }
        return wrong
    }
}
