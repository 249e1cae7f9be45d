import FastRouter

/// Methods that are likely typing mistakes. Methods compare case-sensitively (docs/SEMANTICS.md
/// §3.7), so `get` is an extension method of its own: a route for `get` does not answer `GET`.
extension RouteAnalysis {
    /// One warning per method of `entry` that differs from a standard method only by case.
    func methodCaseFindings(_ entry: Entry) -> [LintFinding] {
        entry.methods.compactMap { method in
            guard let standard = Self.standardMethods.first(where: {
                $0 != method && $0.rawValue == method.rawValue.uppercased()
            }) else { return nil }
            return LintFinding(
                kind: .methodCase, severity: .warning,
                message: "method '\(method)' of route '\(name(entry))'\(label(entry)) is not \(standard): methods are "
                    + "case-sensitive, so \(standard) requests do not match it (write \(standard))",
                route: entry.description, methods: [method])
        }
    }
}
