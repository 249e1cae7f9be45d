import FastRouter

/// Checks route tables: the logic behind `Router.lint()` and `fastrouter-bench lint FILE`.
///
/// ```swift
/// let findings = RouteLinter.lint(routesFileContents: "/users/:id\n/users/{id:int}\n/users/:name\n")
/// print(RouteLinter.format(findings, fileName: "routes.txt"))
/// // routes.txt:3: error: duplicate route: '/users/:name' has the same table, host, priority and segments as '/users/:id' (line 1)
/// ```
///
/// A line may start with the methods its route accepts (`GET,HEAD /users/:id`): the checks then
/// hold method by method (docs/SEMANTICS.md §3.7).
public enum RouteLinter {
    /// Checks a routes file: one route per line, `[METHOD,…] pattern [priority]`; blank lines and
    /// lines starting with `#` are skipped.
    ///
    /// Each line is registered in a router with `options` as a route of its own, for its methods
    /// (any method without a method field), so what fails to load is reported exactly as the
    /// router would reject it: a method list that does not parse, a pattern, a duplicate. Lines
    /// of one path (docs/SEMANTICS.md §3.6) for different methods are different routes
    /// (`GET /users/:id`, `DELETE /users/:id`); one that repeats a path with a method in common,
    /// or for any method, is a duplicate (§3.7). Then the loaded table is checked as
    /// ``FastRouter/Router/lint()`` does. Routes get their line number as id.
    ///
    /// - Parameters:
    ///   - routesFileContents: the file's text.
    ///   - options: the router options the table is meant for (case folding changes what shadows
    ///     what; the HEAD fallback which route answers HEAD).
    /// - Returns: every finding, in line order.
    /// - Complexity: O(n²) in the number of routes with the same length in one table, plus one lookup per finding.
    public static func lint(routesFileContents: String, options: RouterOptions = RouterOptions()) -> [LintFinding] {
        let router = Router<Void>(options: options)
        var findings: [LintFinding] = []
        // Key of each registered expansion → the lines registered with it and their methods, to
        // name the route a duplicate collides with.
        var linesOfKey: [DuplicateKey: [(line: Int, methods: Set<HTTPMethod>)]] = [:]
        // LF, CRLF (one Character in Swift) and CR all end a line.
        let lines = routesFileContents.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
        for (offset, rawLine) in lines.enumerated() {
            let lineNumber = offset + 1
            let text = rawLine.trimmingASCIIWhitespace()
            if text.isEmpty || text.hasPrefix("#") { continue }
            let line: RouteLine
            do {
                line = try RouteLine(String(text))
            } catch {
                findings.append(LintFinding(kind: error.kind, severity: .error, message: error.message, line: lineNumber))
                continue
            }
            let (pattern, priority, methods) = (line.pattern, line.priority, line.methods)
            let description = RouteDescription(pattern: pattern, priority: priority, id: UInt64(lineNumber),
                                               scheme: Self.scheme(of: pattern), methods: methods)
            let keys = (try? router.core.parsedPattern(pattern)).map { DuplicateKey.keys(of: $0, priority: priority) }
            do {
                try router.add(pattern, methods: methods, priority: priority, id: UInt64(lineNumber), value: ())
                for key in keys ?? [] { linesOfKey[key, default: []].append((lineNumber, Set(methods))) }
            } catch where error.code == .duplicateRoute {
                let keys = keys ?? []
                var earlier: RouteDescription?
                if Set(keys).count < keys.count {
                    earlier = description
                } else if let line = keys.lazy.compactMap({ key in
                              linesOfKey[key]?.first { methods.isEmpty || $0.methods.isEmpty || !$0.methods.isDisjoint(with: methods) }?.line
                          }).first {
                    earlier = router.routes.first { $0.id == UInt64(line) }
                }
                findings.append(LintFinding(kind: .duplicateRoute, severity: .error,
                                            message: duplicateMessage(description, earlier: earlier), route: description,
                                            relatedRoute: earlier, line: lineNumber,
                                            relatedLine: earlier.map { Int($0.id) }))
            } catch where error.code == .invalidArgument {
                // Registration refuses only a router's 65th method name this way: the list parsed.
                findings.append(LintFinding(kind: .invalidMethod, severity: .error, message: error.message,
                                            route: description, line: lineNumber, methods: methods))
            } catch {
                findings.append(LintFinding(kind: .invalidPattern, severity: .error,
                                            message: "'\(pattern)' at offset \(error.offset): \(error.message)",
                                            route: description, line: lineNumber, offset: error.offset))
            }
        }
        findings += RouteAnalysis(core: router.core).findings().map { finding in
            var finding = finding
            finding.line = finding.route.map { Int($0.id) }
            finding.relatedLine = finding.relatedRoute.map { Int($0.id) }
            return finding
        }
        return findings.sorted { ($0.line ?? 0, $0.relatedLine ?? 0) < ($1.line ?? 0, $1.relatedLine ?? 0) }
    }

    /// Why the router refused `route`: the route it repeats (`earlier`: itself when two of its
    /// own expansions collide, `nil` when the line cannot be told), and the methods both accept.
    private static func duplicateMessage(_ route: RouteDescription, earlier: RouteDescription?) -> String {
        let name = RouteAnalysis.name(pattern: route.pattern, methods: route.methods)
        let message = "duplicate route: '\(name)' has the same table, host, priority and segments as "
        guard let earlier else { return message + "an earlier route" }
        if earlier.id == route.id { return message + "another of its own expansions" }
        let earlierName = RouteAnalysis.name(pattern: earlier.pattern, methods: earlier.methods)
        if earlier.pattern == route.pattern && Set(earlier.methods) == Set(route.methods) {
            return "duplicate route: '\(name)' is already on line \(earlier.id)"
        }
        // Routes of one path are duplicates only when they accept a method in common (§3.7).
        let common = earlier.methods.isEmpty ? route.methods
            : route.methods.isEmpty ? earlier.methods : earlier.methods.filter { route.methods.contains($0) }
        let both = common.isEmpty ? "" : ", and both accept \(RouteAnalysis.list(common))"
        return message + "'\(earlierName)' (line \(earlier.id))\(both)"
    }

    /// Formats findings one per line, compiler style (`FILE:LINE: warning: …`), with example
    /// URLs indented below, then a summary line.
    ///
    /// - Parameters:
    ///   - findings: what ``lint(routesFileContents:options:)`` or ``FastRouter/Router/lint()`` returned.
    ///   - fileName: prefixes each line when given.
    /// - Returns: the report; "no problems found" when `findings` is empty.
    public static func format(_ findings: [LintFinding], fileName: String? = nil) -> String {
        var output = ""
        for finding in findings {
            var location = fileName.map { $0 + ":" } ?? ""
            if let line = finding.line { location += "\(line):" }
            output += (location.isEmpty ? "" : location + " ") + finding.description + "\n"
            if let example = finding.exampleURL { output += "    e.g. \(example)\n" }
        }
        let errors = findings.filter { $0.severity == .error }.count
        let warnings = findings.count - errors
        if findings.isEmpty {
            output += "no problems found\n"
        } else {
            output += "\(errors) error\(errors == 1 ? "" : "s"), \(warnings) warning\(warnings == 1 ? "" : "s")\n"
        }
        return output
    }

    /// The lower-cased scheme written before `://`, or `nil`.
    static func scheme(of pattern: String) -> String? {
        guard let range = pattern.firstRange(of: "://") else { return nil }
        let scheme = pattern[..<range.lowerBound]
        guard let first = scheme.utf8.first, ASCII.isAlpha(first),
              scheme.utf8.allSatisfy({ ASCII.isSchemeCharacter($0) }) else { return nil }
        return scheme.lowercased()
    }
}

extension Substring {
    fileprivate func trimmingASCIIWhitespace() -> Substring {
        var text = self
        while let first = text.first, first == " " || first == "\t" || first == "\r" { text.removeFirst() }
        while let last = text.last, last == " " || last == "\t" || last == "\r" { text.removeLast() }
        return text
    }
}

extension RouterCore {
    /// The lint report of this router's tables, formatted as ``RouteLinter/format(_:fileName:)``
    /// does: the text `fr_router_lint` writes.
    package func lintReport() -> String {
        RouteLinter.format(RouteAnalysis(core: self).findings())
    }
}
