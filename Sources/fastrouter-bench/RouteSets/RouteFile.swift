import FastRouter
import FastRouterLint
import Foundation

/// Reads a user's own set: `--routes FILE`, with `--urls FILE` or without.
///
/// Routes file: one route per line, `[METHOD,…] pattern [priority]` (``RouteLine``). URLs file:
/// one URL per line, `[METHOD] url`, line i answered by the route of line i. Blank lines and lines
/// starting with `#` are skipped in both. Lines are merged by ``RouteLineIndex``: a line naming an
/// earlier line's route (same table, host, priority and segment shapes, parameter names aside:
/// docs/SEMANTICS.md §3.6) with methods it has not had is merged into it; naming it again
/// otherwise is a duplicate, which the router refuses. That is the set looked up without a
/// method. When a line has a method, the file is also read with its methods
/// (``methodVariant(lines:routeOfLine:requests:urlMethods:)``): every line a route of its own.
///
/// Without `--urls`, the URLs come from `urls/NAME.urls` or `NAME.urls` beside the routes file
/// when one exists with one URL per route line (the layout of the shipped route sets), and
/// otherwise are built from the routes themselves: one URL per route that the route answers
/// first (``Router/exampleURLs()``).
enum RouteFile {
    struct FormatError: Error, CustomStringConvertible {
        var description: String
    }

    static func load(routesPath: String, urlsPath: String?) throws(FormatError) -> RouteSet {
        let routeLines = try lines(of: routesPath)
        guard !routeLines.isEmpty else { throw FormatError(description: "\(routesPath) holds no routes") }
        var routes: [RouteSpec] = []
        var routeOfLine: [Int] = []
        // The benchmark's routers use the default options.
        var index = RouteLineIndex(core: Router<Void>().core)
        var routeOfFirstLine: [Int: Int] = [:]
        var parsedLines: [RouteLine] = []
        for (routeNumber, routeLine) in routeLines {
            let line: RouteLine
            do {
                line = try RouteLine(routeLine)
            } catch {
                throw FormatError(description: "\(routesPath):\(routeNumber): \(error.message)")
            }
            parsedLines.append(line)
            let (reading, keys) = index.read(line)
            if case .anotherMethod(let first) = reading {
                routeOfLine.append(routeOfFirstLine[first]!)
                continue
            }
            // A duplicate stays a route of its own: registering it fails and names the line.
            if case .newRoute = reading {
                index.record(line, keys: keys, number: routeNumber)
                routeOfFirstLine[routeNumber] = routes.count
            }
            routeOfLine.append(routes.count)
            routes.append(RouteSpec(pattern: line.pattern, priority: line.priority))
        }
        let name = URL(fileURLWithPath: routesPath).deletingPathExtension().lastPathComponent
        var urlsFile = urlsPath
        var skipped: [String] = []
        if urlsFile == nil { (urlsFile, skipped) = companionURLFile(of: routesPath, lineCount: routeLines.count) }
        var note = skipped.map { "; \($0) not used" }.joined()
        guard let urlsPath = urlsFile else {
            let (requests, unreached) = try builtRequests(for: routes, lines: routeLines, routeOfLine: routeOfLine,
                                                          routesPath: routesPath)
            if !unreached.isEmpty {
                let named = unreached.prefix(5).map { "'\($0)'" }.joined(separator: ", ")
                note += "; \(unreached.count) route\(unreached.count == 1 ? " answers" : "s answer") no URL first and \(unreached.count == 1 ? "is" : "are") not looked up: "
                    + named + (unreached.count > 5 ? ", …" : "")
            }
            return RouteSet(name: name, summary: "routes from \(routesPath), one URL built per route\(note)", kind: .custom,
                            routes: routes, requests: requests,
                            origin: "\(routesPath), URLs built by Router.exampleURLs()",
                            methodVariant: methodVariant(lines: parsedLines, routeOfLine: routeOfLine, requests: requests,
                                                         urlMethods: nil))
        }
        let urlLines = try lines(of: urlsPath)
        guard routeLines.count == urlLines.count else {
            throw FormatError(description: "\(routesPath) has \(routeLines.count) routes but \(urlsPath) has \(urlLines.count) URLs; line i of the URLs must be answered by route i")
        }
        var requests: [Request] = []
        var urlMethods: [String?] = []
        for (line, (urlNumber, urlLine)) in urlLines.enumerated() {
            var urlFields = urlLine.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
            urlMethods.append(urlFields.count == 2 && RouteLine.isMethod(urlFields[0]) ? urlFields[0] : nil)
            if urlMethods[line] != nil { urlFields.removeFirst() }
            guard urlFields.count == 1 else {
                throw FormatError(description: "\(urlsPath):\(urlNumber): expected '[METHOD] url', got '\(urlLine)'")
            }
            let index = routeOfLine[line]
            let parameters = plainPlaceholderValues(pattern: routes[index].pattern, url: urlFields[0])
            requests.append(Request(url: urlFields[0], route: index, parameters: parameters,
                                    pathParameterCount: parameters?.count ?? 0))
        }
        return RouteSet(name: name, summary: "routes from \(routesPath), URLs from \(urlsPath)\(note)", kind: .custom, routes: routes,
                        requests: requests, origin: "\(routesPath) + \(urlsPath)",
                        methodVariant: methodVariant(lines: parsedLines, routeOfLine: routeOfLine, requests: requests,
                                                     urlMethods: urlMethods))
    }

    /// `urls/NAME.urls` or `NAME.urls` beside `NAME.EXT`: the first that exists with one URL per
    /// route line, and why each other one that exists is left alone (it belongs to something
    /// else: another shape, or not readable as text).
    static func companionURLFile(of routesPath: String, lineCount: Int) -> (file: String?, skipped: [String]) {
        let routesFile = URL(fileURLWithPath: routesPath)
        let stem = routesFile.deletingPathExtension().lastPathComponent
        let directory = routesFile.deletingLastPathComponent()
        let candidates = [directory.appendingPathComponent("urls").appendingPathComponent(stem + ".urls"),
                          directory.appendingPathComponent(stem + ".urls")].map(\.path)
        var skipped: [String] = []
        for candidate in candidates where candidate != routesFile.path && FileManager.default.fileExists(atPath: candidate) {
            guard let urls = try? lines(of: candidate) else {
                skipped.append("\(candidate) (not readable as UTF-8 text)")
                continue
            }
            if urls.count == lineCount { return (candidate, skipped) }
            skipped.append("\(candidate) (\(urls.count) URLs for \(lineCount) route lines)")
        }
        return (nil, skipped)
    }

    /// One request per route that some URL reaches first, that URL built by FastRouter from the
    /// routes, and how many routes got none. The routers' answers are then checked as usual.
    /// `lines` and `routeOfLine` only name the line of a route that does not register.
    private static func builtRequests(for routes: [RouteSpec], lines: [(Int, String)], routeOfLine: [Int],
                                      routesPath: String) throws(FormatError) -> (requests: [Request], unreached: [String]) {
        let router = Router<Int>()
        do {
            _ = try router.add(contentsOf: routes.enumerated().map {
                Route($1.pattern, priority: $1.priority, id: UInt64($0), value: $0)
            })
        } catch {
            // A batch fails as a whole: add the routes one by one to name the line at fault.
            let single = Router<Int>()
            for (index, route) in routes.enumerated() {
                do {
                    _ = try single.add(route.pattern, priority: route.priority, id: UInt64(index), value: index)
                } catch {
                    let line = routeOfLine.firstIndex(of: index).map { lines[$0].0 } ?? 0
                    throw FormatError(description: "\(routesPath):\(line): '\(route.pattern)': \(error)")
                }
            }
            throw FormatError(description: "\(routesPath): \(error)")
        }
        var requests: [Request] = []
        var unreached: [String] = []
        for (route, url) in router.exampleURLs() {
            guard let url else {
                unreached.append(route.pattern)
                continue
            }
            requests.append(Request(url: url, route: Int(route.id), parameters: nil, pathParameterCount: 0))
        }
        guard !requests.isEmpty else {
            throw FormatError(description: "\(routesPath): no URL reaches any of its routes first; give request URLs with --urls")
        }
        return (requests, unreached)
    }

    /// The contents of a text file, or an error that says what is wrong with it.
    static func text(of path: String) throws(FormatError) -> String {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw FormatError(description: "\(path): no such file")
        }
        guard !isDirectory.boolValue else { throw FormatError(description: "\(path) is a directory, not a file") }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw FormatError(description: "\(path): cannot be read (permissions?)")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw FormatError(description: "\(path) is not UTF-8 text")
        }
        return text
    }

    /// Numbered non-blank, non-comment lines of a file. Lines end with LF, CRLF or CR.
    private static func lines(of path: String) throws(FormatError) -> [(Int, String)] {
        let text = try text(of: path)
        return text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated().compactMap { offset, line in
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            return trimmed.isEmpty || trimmed.hasPrefix("#") ? nil : (offset + 1, trimmed)
        }
    }

    /// Expected pairs when they follow from the text alone: a path pattern of literals and
    /// `:name` segments, and a URL path with no escapes, query or fragment. Otherwise unknown.
    static func plainPlaceholderValues(pattern: String, url: String) -> [Parameter]? {
        guard pattern.hasPrefix("/"), url.hasPrefix("/"),
              !pattern.contains(where: { "{}()*%".contains($0) }),
              !url.contains(where: { "%?#".contains($0) }) else { return nil }
        return EmbeddedPathSet.placeholderValues(pattern: pattern, path: url)
    }
}
