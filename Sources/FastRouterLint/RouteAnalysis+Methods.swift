import FastRouter

/// Methods as the analysis names and compares them (docs/SEMANTICS.md §3.7).
extension RouteAnalysis {
    /// RFC 9110's methods in its order, then PATCH: the names whose other spellings are likely
    /// mistakes, and the start of `Allow` order.
    static let standardMethods: [HTTPMethod] = [.get, .head, .post, .put, .delete, .connect, .options, .trace, .patch]

    /// `methods` in `Allow` order: standard methods first, then the others as the routes first
    /// name them (the router's own order, but for names only removed routes used). A standard
    /// method no route names (HEAD that GET routes take) keeps its standard place.
    func allowOrder(_ methods: some Sequence<HTTPMethod>) -> [HTTPMethod] {
        let rank = { (method: HTTPMethod) in methodRank[method] ?? Self.standardMethods.firstIndex(of: method) ?? .max }
        return methods.sorted { (rank($0), $0.rawValue) < (rank($1), $1.rawValue) }
    }

    /// A method no route names, so that only routes for any method accept it: a standard one
    /// when one is left (not HEAD, which GET routes may serve), else a made-up token.
    func unnamedMethod() -> HTTPMethod {
        if let standard = Self.standardMethods.first(where: { $0 != .head && methodRank[$0] == nil }) { return standard }
        var number = 0
        while methodRank[HTTPMethod(rawValue: "X-OTHER-\(number)")!] != nil { number += 1 }
        return HTTPMethod(rawValue: "X-OTHER-\(number)")!
    }

    /// The methods both routes accept: `[]` when both accept any method, `nil` when none is common.
    func commonMethods(_ lhs: Entry, _ rhs: Entry) -> [HTTPMethod]? {
        switch (lhs.acceptsAnyMethod, rhs.acceptsAnyMethod) {
        case (true, true): return []
        case (true, false): return rhs.methods
        case (false, true): return lhs.methods
        case (false, false):
            let common = lhs.methods.filter { rhs.methodSet.contains($0) }
            return common.isEmpty ? nil : common
        }
    }

    /// A route as findings name it: its methods, then its pattern (`GET,POST /users/:id`), the
    /// pattern alone for a route for any method (as ``FastRouter/Router/dump()`` lists it).
    func name(_ entry: Entry) -> String {
        Self.name(pattern: entry.description.pattern, methods: entry.methods)
    }

    /// `GET,POST /users/:id`, or the pattern alone when `methods` is empty (any method).
    static func name(pattern: String, methods: [HTTPMethod]) -> String {
        methods.isEmpty ? pattern : methods.map(\.rawValue).joined(separator: ",") + " " + pattern
    }

    /// Methods as a message lists them: `GET, POST`.
    static func list(_ methods: [HTTPMethod]) -> String {
        methods.map(\.rawValue).joined(separator: ", ")
    }
}
