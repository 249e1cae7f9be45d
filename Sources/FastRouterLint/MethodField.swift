import FastRouter

/// The method field of a routes-file line: `GET`, `GET,HEAD`, or `*` for any method, read as
/// `fr_router_add_methods` reads its list (docs/SEMANTICS.md §3.7), with messages that name the
/// field, since a routes file reports problems by line.
enum MethodField {
    /// The methods of `field` in written order, each once; empty for `*` (any method).
    /// - Throws: a ``RouteLine/Problem`` of kind ``LintFinding/Kind-swift.enum/invalidMethod``
    ///   for an empty item, a name that is not an HTTP token, or `*` next to other methods.
    static func methods(in field: String) throws(RouteLine.Problem) -> [HTTPMethod] {
        let items = field.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        if items == ["*"] { return [] }
        var methods: [HTTPMethod] = []
        for item in items {
            guard !item.isEmpty else { throw problem("empty method name in '\(field)'") }
            guard item != "*" else { throw problem("'*' (any method) cannot be listed with other methods in '\(field)'") }
            guard let method = HTTPMethod(rawValue: item) else {
                throw problem("invalid method '\(item)': not an HTTP token (letters, digits and !#$%&'*+-.^_`|~)")
            }
            if !methods.contains(method) { methods.append(method) }
        }
        return methods
    }

    /// Whether `field` is made only of token bytes and commas, as a method list is.
    static func readsAsList(_ field: String) -> Bool {
        field.split(separator: ",", omittingEmptySubsequences: false).allSatisfy {
            $0.isEmpty || HTTPMethod(rawValue: String($0)) != nil
        }
    }

    /// An invalid-method problem with `message`.
    private static func problem(_ message: String) -> RouteLine.Problem {
        RouteLine.Problem(message: message, kind: .invalidMethod)
    }
}
