import FastRouter

/// Checks route tables: the logic behind `Router.lint()` and `fastrouter-bench lint FILE`.
///
/// ```swift
/// let findings = RouteLinter.lint(routesFileContents: "/users/:id\n/users/{id:int}\n/users/:name\n")
/// print(RouteLinter.format(findings, fileName: "routes.txt"))
/// // routes.txt:3: error: duplicate route: '/users/:name' has the same table, host, priority and segments as '/users/:id' (line 1)
/// ```
public enum RouteLinter {
    /// Checks a routes file: one route per line, `[METHOD] pattern [priority]`; blank lines and
    /// lines starting with `#` are skipped.
    ///
    /// Each route is registered in a router with `options`, so what fails to load is reported
    /// exactly as the router would reject it. Lines that are one route by `DuplicateKey` (same
    /// table, host, priority and segment shapes, parameter names aside: docs/SEMANTICS.md §3.6)
    /// but name different methods are one route (the benchmark's reading of a routes file); the
    /// same route again without a new method is a duplicate. Then the loaded table is checked as
    /// ``FastRouter/Router/lint()`` does. Routes get their line number as id.
    ///
    /// - Parameters:
    ///   - routesFileContents: the file's text.
    ///   - options: the router options the table is meant for (case folding changes what shadows what).
    /// - Returns: every finding, in line order.
    /// - Complexity: O(n²) in the number of routes with the same length in one table, plus one lookup per finding.
    public static func lint(routesFileContents: String, options: RouterOptions = RouterOptions()) -> [LintFinding] {
        let router = Router<Void>(options: options)
        var findings: [LintFinding] = []
        var index = RouteLineIndex(core: router.core)
        // Key of each registered expansion → its line, to name the route a duplicate collides with.
        var lineOfKey: [DuplicateKey: Int] = [:]
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
                findings.append(LintFinding(kind: .invalidLine, severity: .error, message: error.message, line: lineNumber))
                continue
            }
            let (pattern, priority) = (line.pattern, line.priority)
            let description = RouteDescription(pattern: pattern, priority: priority, id: UInt64(lineNumber),
                                               scheme: Self.scheme(of: pattern))
            let (reading, keys) = index.read(line)
            switch reading {
            case .newRoute:
                break
            case .anotherMethod:
                continue
            case .duplicate(let earlierLine, let earlierPattern):
                let message = earlierPattern == pattern
                    ? "duplicate route: '\(pattern)' is already on line \(earlierLine)"
                    : "duplicate route: '\(pattern)' has the same table, host, priority and segments as '\(earlierPattern)' (line \(earlierLine))"
                findings.append(LintFinding(
                    kind: .duplicateRoute, severity: .error, message: message, route: description,
                    relatedRoute: RouteDescription(pattern: earlierPattern, priority: priority, id: UInt64(earlierLine),
                                                   scheme: Self.scheme(of: earlierPattern)),
                    line: lineNumber, relatedLine: earlierLine))
                continue
            }
            do {
                try router.add(pattern, priority: priority, id: UInt64(lineNumber))
                index.record(line, keys: keys, number: lineNumber)
                for key in keys ?? [] { lineOfKey[key] = lineOfKey[key] ?? lineNumber }
            } catch where error.code == .duplicateRoute {
                let keys = keys ?? []
                var message = "duplicate route: '\(pattern)' has the same table, host, priority and segments as "
                var earlier: RouteDescription?
                if Set(keys).count < keys.count {
                    message += "another of its own expansions"
                    earlier = description
                } else if let line = keys.lazy.compactMap({ lineOfKey[$0] }).first,
                          let route = router.routes.first(where: { $0.id == UInt64(line) }) {
                    message += "'\(route.pattern)' (line \(line))"
                    earlier = route
                } else {
                    message += "an earlier route"
                }
                findings.append(LintFinding(kind: .duplicateRoute, severity: .error, message: message, route: description,
                                            relatedRoute: earlier, line: lineNumber, relatedLine: earlier.map { Int($0.id) }))
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
