import Foundation

/// Reads a user's own set: `--routes FILE` and `--urls FILE`.
///
/// Routes file: one route per line, `[METHOD] pattern [priority]`. URLs file: one URL per line,
/// `[METHOD] url`, line i answered by the route of line i. Blank lines and lines starting with
/// `#` are skipped in both. Methods are ignored and equal routes (pattern and priority) merged,
/// as in the embedded sets.
enum RouteFile {
    struct FormatError: Error, CustomStringConvertible {
        var description: String
    }

    static func load(routesPath: String, urlsPath: String) throws(FormatError) -> RouteSet {
        let routeLines = try lines(of: routesPath)
        let urlLines = try lines(of: urlsPath)
        guard routeLines.count == urlLines.count else {
            throw FormatError(description: "\(routesPath) has \(routeLines.count) routes but \(urlsPath) has \(urlLines.count) URLs; line i of the URLs must be answered by route i")
        }
        guard !routeLines.isEmpty else { throw FormatError(description: "\(routesPath) holds no routes") }
        var routes: [RouteSpec] = []
        var indexOfRoute: [String: Int] = [:]
        var requests: [Request] = []
        for ((routeNumber, routeLine), (urlNumber, urlLine)) in zip(routeLines, urlLines) {
            var fields = routeLine.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
            if fields.count >= 2, isMethod(fields[0]) { fields.removeFirst() }
            guard fields.count == 1 || fields.count == 2 else {
                throw FormatError(description: "\(routesPath):\(routeNumber): expected '[METHOD] pattern [priority]', got '\(routeLine)'")
            }
            var priority: Int32 = 0
            if fields.count == 2 {
                guard let value = Int32(fields[1]) else {
                    throw FormatError(description: "\(routesPath):\(routeNumber): priority '\(fields[1])' is not a 32-bit integer")
                }
                priority = value
            }
            let spec = RouteSpec(pattern: fields[0], priority: priority)
            let key = "\(priority) \(spec.pattern)"
            let index: Int
            if let existing = indexOfRoute[key] {
                index = existing
            } else {
                index = routes.count
                indexOfRoute[key] = index
                routes.append(spec)
            }
            var urlFields = urlLine.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
            if urlFields.count == 2, isMethod(urlFields[0]) { urlFields.removeFirst() }
            guard urlFields.count == 1 else {
                throw FormatError(description: "\(urlsPath):\(urlNumber): expected '[METHOD] url', got '\(urlLine)'")
            }
            let parameters = plainPlaceholderValues(pattern: spec.pattern, url: urlFields[0])
            requests.append(Request(url: urlFields[0], route: index, parameters: parameters,
                                    pathParameterCount: parameters?.count ?? 0))
        }
        let name = URL(fileURLWithPath: routesPath).deletingPathExtension().lastPathComponent
        return RouteSet(name: name, summary: "routes from \(routesPath)", kind: .custom, routes: routes,
                        requests: requests, origin: "\(routesPath) + \(urlsPath)")
    }

    /// Numbered non-blank, non-comment lines of a file.
    private static func lines(of path: String) throws(FormatError) -> [(Int, String)] {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw FormatError(description: "cannot read \(path) as UTF-8 text")
        }
        return text.split(separator: "\n", omittingEmptySubsequences: false).enumerated().compactMap { offset, line in
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            return trimmed.isEmpty || trimmed.hasPrefix("#") ? nil : (offset + 1, trimmed)
        }
    }

    private static func isMethod(_ field: String) -> Bool {
        !field.isEmpty && field.utf8.allSatisfy { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") }
    }

    /// Expected pairs when they follow from the text alone: a path pattern of literals and
    /// `:name` segments, and a URL path with no escapes, query or fragment. Otherwise unknown.
    private static func plainPlaceholderValues(pattern: String, url: String) -> [Parameter]? {
        guard pattern.hasPrefix("/"), url.hasPrefix("/"),
              !pattern.contains(where: { "{}()*%".contains($0) }),
              !url.contains(where: { "%?#".contains($0) }) else { return nil }
        return EmbeddedPathSet.placeholderValues(pattern: pattern, path: url)
    }
}
