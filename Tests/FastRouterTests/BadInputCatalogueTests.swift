@testable import FastRouter
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// One line of Tests/Fuzz/bad-input-catalogue.txt (the format is described at its top).
struct CatalogueLine: CustomStringConvertible, Sendable {
    enum Kind: String, Sendable {
        case route, pattern, url
        /// HTTP methods: a known route for a method list, a pattern for a method list, a request.
        case known, methods, request

        /// Fields after the kind's name: EXPECT (or ID), then PRIORITY or METHODS where there is
        /// one, then the input.
        var fieldCount: Int { self == .pattern || self == .url ? 3 : 4 }
        /// Whether a METHODS / METHOD field comes before the input.
        var hasMethods: Bool { self == .known || self == .methods || self == .request }
    }

    var number: Int
    var kind: Kind
    var expect: String
    var priority: Int32 = 0
    var input: [UInt8]
    /// The method list (`known`, `methods`) or the method (`request`).
    var methods: [UInt8] = []

    var description: String {
        let shown = { (bytes: [UInt8]) in
            bytes.count > 80 ? "\(bytes.count) bytes" : String(decoding: bytes, as: UTF8.self).debugDescription
        }
        return "line \(number): \(kind) \(expect) \(kind.hasMethods ? shown(methods) + " " : "")\(shown(input))"
    }
}

/// Reads the bad-input catalogue shared with Tests/c/test_catalogue.c.
enum BadInputCatalogue {
    static let path: String = {
        // This file is Tests/FastRouterTests/BadInputCatalogueTests.swift; the data is Tests/Fuzz/.
        var components = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false)
        components.removeLast(2)
        return components.joined(separator: "/") + "/Fuzz/bad-input-catalogue.txt"
    }()

    static let lines: [CatalogueLine] = {
        guard let file = fopen(path, "r") else { return [] }
        defer { fclose(file) }
        var text: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = fread(&buffer, 1, buffer.count, file)
            if count == 0 { break }
            text += buffer[0..<count]
        }
        var result: [CatalogueLine] = []
        for (index, line) in text.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).enumerated() {
            guard let first = line.first, first != UInt8(ascii: "#") else { continue }
            let fields = line.split(separator: UInt8(ascii: " "), omittingEmptySubsequences: true).map { String(decoding: $0, as: UTF8.self) }
            guard let kind = CatalogueLine.Kind(rawValue: fields[0]) else {
                result.append(CatalogueLine(number: index + 1, kind: .url, expect: "unreadable line", input: []))
                continue
            }
            let input = fields.count == kind.fieldCount ? decode(Array(fields.last!.utf8)) : nil
            let methods = kind.hasMethods && fields.count == kind.fieldCount ? decode(Array(fields[2].utf8)) : []
            guard let input, let methods else {
                result.append(CatalogueLine(number: index + 1, kind: kind, expect: "unreadable line", input: []))
                continue
            }
            var entry = CatalogueLine(number: index + 1, kind: kind, expect: fields[1], input: input)
            entry.methods = methods
            if kind == .route { entry.priority = Int32(fields[2]) ?? 0 }
            result.append(entry)
        }
        return result
    }()

    /// Expands the catalogue's escapes (`\\`, `\s`, `\e`, `\xHH`, `\*N(TEXT\)`); `nil` when malformed.
    static func decode(_ text: [UInt8]) -> [UInt8]? {
        var index = 0
        return decode(text, &index, nested: false)
    }

    private static func decode(_ text: [UInt8], _ index: inout Int, nested: Bool) -> [UInt8]? {
        var out: [UInt8] = []
        while index < text.count {
            let byte = text[index]
            index += 1
            guard byte == UInt8(ascii: "\\") else {
                out.append(byte)
                continue
            }
            guard index < text.count else { return nil }
            let code = text[index]
            index += 1
            switch code {
            case UInt8(ascii: "\\"): out.append(byte)
            case UInt8(ascii: "s"): out.append(UInt8(ascii: " "))
            case UInt8(ascii: "e"): break
            case UInt8(ascii: "x"):
                guard index + 2 <= text.count, let value = UInt8(String(decoding: text[index..<(index + 2)], as: UTF8.self), radix: 16) else {
                    return nil
                }
                out.append(value)
                index += 2
            case UInt8(ascii: "*"):
                var count = 0
                while index < text.count, text[index] >= UInt8(ascii: "0"), text[index] <= UInt8(ascii: "9") {
                    count = count * 10 + Int(text[index] - UInt8(ascii: "0"))
                    index += 1
                }
                guard index < text.count, text[index] == UInt8(ascii: "(") else { return nil }
                index += 1
                guard let unit = decode(text, &index, nested: true) else { return nil }
                for _ in 0..<count { out += unit }
            case UInt8(ascii: ")"):
                return nested ? out : nil
            default:
                return nil
            }
        }
        return nested ? nil : out
    }

    /// Splits `EPATTERN@N` / `EREGEX@N-M` into the code and the accepted offsets.
    static func expectedError(_ expect: String) -> (code: RouterError.Code, offsets: ClosedRange<Int>?)? {
        let parts = expect.split(separator: "@", maxSplits: 1).map(String.init)
        let code: RouterError.Code
        switch parts[0] {
        case "EPATTERN": code = .invalidPattern
        case "EREGEX": code = .invalidRegex
        case "EDUPLICATE": code = .duplicateRoute
        case "EINVAL": code = .invalidArgument
        default: return nil
        }
        guard parts.count == 2 else { return (code, nil) }
        let bounds = parts[1].split(separator: "-").compactMap { Int($0) }
        guard let low = bounds.first else { return nil }
        return (code, low...(bounds.count > 1 ? bounds[1] : low))
    }
}

/// docs/SEMANTICS.md §2, §3.4, §3.6, §3.7: every malformed or extreme pattern, URL, method list and
/// request of the catalogue gets its expected status, limits hold exactly at their boundaries, and the router keeps answering its
/// known table afterwards.
@Suite struct BadInputCatalogueTests {
    typealias Line = CatalogueLine

    /// Runs one `pattern` or `methods` line; returns a problem, or `nil`.
    static func runPattern(_ line: Line, on router: Router<UInt64>) -> String? {
        let id = 900_000 + UInt64(line.number)
        let before = router.count
        var failure: RouterError?
        if line.kind == .methods {
            // A method list as bytes, as the C ABI passes it.
            do {
                try line.input.withUnsafeBufferPointer { (pattern) throws(RouterError) in
                    try line.methods.withUnsafeBufferPointer { (methods) throws(RouterError) in
                        try router.add(patternBytes: pattern, methodList: methods, id: id, value: id)
                    }
                }
            } catch {
                failure = error
            }
        } else if let text = String(validating: line.input, as: UTF8.self) {
            do {
                try router.add(text, id: id, value: id)
            } catch {
                failure = error
            }
        } else {
            // Bytes that are not UTF-8 cannot be a Swift String: register them as the C ABI does.
            do {
                try line.input.withUnsafeBufferPointer { (bytes) throws(RouterError) in
                    try router.add(patternBytes: bytes, id: id, value: id)
                }
            } catch {
                failure = error
            }
        }
        if line.expect == "ok" {
            if let failure { return "\(line): rejected with \(failure)" }
            if router.count != before + 1 { return "\(line): count \(router.count) after adding to \(before)" }
            if router.remove(id: id) != 1 { return "\(line): remove(id:) did not remove it" }
            return nil
        }
        guard let (code, offsets) = BadInputCatalogue.expectedError(line.expect) else { return "\(line): bad expectation" }
        guard let failure else {
            router.remove(id: id)
            return "\(line): accepted, expected \(line.expect)"
        }
        if failure.code != code { return "\(line): got \(failure), expected \(line.expect)" }
        if let offsets, !offsets.contains(failure.offset) { return "\(line): offset \(failure.offset), expected \(line.expect) (\(failure.message))" }
        if failure.message.isEmpty || failure.message.contains("\n") { return "\(line): message \(failure.message.debugDescription)" }
        if router.count != before { return "\(line): a failed add changed the count from \(before) to \(router.count)" }
        return nil
    }

    /// Runs one `url` line through Matcher (bytes) and, when the bytes are a string, Router.match.
    static func runURL(_ line: Line, on router: Router<UInt64>, matcher: Matcher<UInt64>) -> String? {
        let outcome: String
        var parameter: String?
        do {
            let matched = try line.input.withUnsafeBufferPointer { (bytes) throws(RouterError) in try matcher.match(utf8: bytes) }
            outcome = matched ? String(matcher.routeID) : "nomatch"
            if matched, let colon = line.expect.firstIndex(of: ":") {
                let pair = line.expect[line.expect.index(after: colon)...]
                let name = String(pair.prefix { $0 != "=" })
                parameter = matcher.parameterBytes(name).map { String(decoding: $0, as: UTF8.self) }
            }
        } catch {
            if error.code != .invalidURL { return "\(line): threw \(error)" }
            outcome = "EURL"
        }
        let expectedOutcome = String(line.expect.prefix { $0 != ":" })
        if outcome != expectedOutcome { return "\(line): got \(outcome)" }
        if let colon = line.expect.firstIndex(of: ":") {
            let pair = line.expect[line.expect.index(after: colon)...]
            let value = BadInputCatalogue.decode(Array(pair.drop { $0 != "=" }.dropFirst().utf8)) ?? []
            if parameter != String(decoding: value, as: UTF8.self) {
                return "\(line): parameter is \(parameter.debugDescription)"
            }
        }
        // The String API gives the same answer whenever the bytes are a string as they are.
        guard let text = String(validating: line.input, as: UTF8.self) else { return nil }
        do {
            let best = try router.match(text)
            let viaString = best.map { String($0.routeID) } ?? "nomatch"
            if viaString != outcome { return "\(line): Router.match gave \(viaString), Matcher \(outcome)" }
        } catch {
            if outcome != "EURL" { return "\(line): Router.match threw \(error), Matcher gave \(outcome)" }
        }
        return nil
    }

    /// Runs one `request` line through Matcher (bytes, with an HTTPMethod) and, when the bytes are
    /// strings, Router.match(_:method:).
    static func runRequest(_ line: Line, on router: Router<UInt64>, matcher: Matcher<UInt64>) -> String? {
        // No method: a lookup without one, as the C ABI's empty method.
        if line.methods.isEmpty { return runURL(line, on: router, matcher: matcher) }
        // Bytes that are no HTTP token (not even UTF-8) make no HTTPMethod: the C ABI's FR_EINVAL.
        guard let method = String(validating: line.methods, as: UTF8.self).flatMap(HTTPMethod.init(rawValue:)) else {
            return line.expect == "EINVAL" ? nil : "\(line): not a method, expected \(line.expect)"
        }
        var outcome: String
        do {
            let answer = try line.input.withUnsafeBufferPointer { (bytes) throws(RouterError) in
                try matcher.match(utf8: bytes, method: method)
            }
            switch answer {
            case .matched: outcome = String(matcher.routeID)
            case .notFound: outcome = "nomatch"
            case .methodNotAllowed: outcome = "405=" + (matcher.allowedMethods?.headerValue ?? "<none>")
            }
        } catch {
            if error.code != .invalidURL { return "\(line): threw \(error)" }
            outcome = "EURL"
        }
        if line.expect.hasPrefix("405=") {
            let allow = BadInputCatalogue.decode(Array(line.expect.utf8)).map { String(decoding: $0, as: UTF8.self) }
            if outcome != allow { return "\(line): got \(outcome)" }
        } else {
            if outcome != String(line.expect.prefix { $0 != ":" }) { return "\(line): got \(outcome)" }
            if let colon = line.expect.firstIndex(of: ":") {
                let pair = line.expect[line.expect.index(after: colon)...]
                let name = String(pair.prefix { $0 != "=" })
                let value = BadInputCatalogue.decode(Array(pair.drop { $0 != "=" }.dropFirst().utf8)) ?? []
                let parameter = matcher.parameterBytes(name).map(Array.init)
                if parameter != value { return "\(line): parameter \(name) is \(parameter.map { String(decoding: $0, as: UTF8.self) }.debugDescription)" }
            }
        }
        // The String API gives the same answer whenever the bytes are a string as they are.
        guard let text = String(validating: line.input, as: UTF8.self) else { return nil }
        let viaString: String
        do {
            switch try router.match(text, method: method) {
            case .matched(let match): viaString = String(match.routeID)
            case .notFound: viaString = "nomatch"
            case .methodNotAllowed(let allowed): viaString = "405=" + allowed.headerValue
            }
        } catch {
            viaString = error.code == .invalidURL ? "EURL" : "\(error)"
        }
        if viaString != outcome { return "\(line): Router.match(_:method:) gave \(viaString), Matcher \(outcome)" }
        return nil
    }

    static func knownTableRouter() -> (Router<UInt64>, [String]) {
        let router = Router<UInt64>()
        var problems: [String] = []
        for line in BadInputCatalogue.lines where line.kind == .route {
            guard let id = UInt64(line.expect), let pattern = String(validating: line.input, as: UTF8.self) else {
                problems.append("\(line): unreadable route")
                continue
            }
            do {
                try router.add(pattern, priority: line.priority, id: id, value: id)
            } catch {
                problems.append("\(line): known route rejected: \(error)")
            }
        }
        // Known method routes, through the Swift API: "*" is any method.
        for line in BadInputCatalogue.lines where line.kind == .known {
            let list = String(decoding: line.methods, as: UTF8.self)
            let methods = list == "*" ? [] : list.split(separator: ",").compactMap { HTTPMethod(rawValue: String($0)) }
            guard let id = UInt64(line.expect), let pattern = String(validating: line.input, as: UTF8.self) else {
                problems.append("\(line): unreadable known route")
                continue
            }
            do {
                try router.add(pattern, methods: methods, id: id, value: id)
            } catch {
                problems.append("\(line): known route rejected: \(error)")
            }
        }
        return (router, problems)
    }

    @Test func catalogueIsReadableAndLargeEnough() {
        let lines = BadInputCatalogue.lines
        #expect(!lines.isEmpty, "cannot read \(BadInputCatalogue.path)")
        #expect(lines.filter { $0.expect == "unreadable line" }.isEmpty)
        #expect(lines.filter { $0.kind != .route && $0.kind != .known }.count >= 150)
        #expect(lines.contains { $0.kind == .url && $0.input.count == 65536 && $0.expect != "EURL" })
        #expect(lines.contains { $0.kind == .url && $0.input.count == 65537 && $0.expect == "EURL" })
    }

    @Test func catalogueEscapesExpand() {
        #expect(BadInputCatalogue.decode(Array(#"/a\sb\x00\\\e"#.utf8)) == Array("/a b\u{0}\\".utf8))
        #expect(BadInputCatalogue.decode(Array(#"\*3(ab\)"#.utf8)) == Array("ababab".utf8))
        #expect(BadInputCatalogue.decode(Array(#"\*2(x\*2(y\)\)"#.utf8)) == Array("xyyxyy".utf8))
        #expect(BadInputCatalogue.decode(Array(#"\q"#.utf8)) == nil)
        #expect(BadInputCatalogue.decode(Array(#"\*2(x"#.utf8)) == nil)
    }

    /// Every line in order on one router, then every URL again: bad input leaves no trace.
    @Test func everyCaseGetsItsStatusAndTheRouterStillAnswers() {
        let (router, setup) = Self.knownTableRouter()
        for problem in setup { Issue.record(Comment(rawValue: problem)) }
        let knownCount = router.count
        #expect(knownCount == BadInputCatalogue.lines.filter { $0.kind == .route || $0.kind == .known }.count)
        let matcher = Matcher(router: router)
        var checked = 0
        for line in BadInputCatalogue.lines {
            let problem: String?
            switch line.kind {
            case .route, .known: continue
            case .pattern, .methods: problem = Self.runPattern(line, on: router)
            case .url: problem = Self.runURL(line, on: router, matcher: matcher)
            case .request: problem = Self.runRequest(line, on: router, matcher: matcher)
            }
            checked += 1
            if let problem { Issue.record(Comment(rawValue: problem)) }
        }
        #expect(checked >= 150)
        #expect(router.count == knownCount, "the catalogue left \(router.count - knownCount) routes behind")
        for line in BadInputCatalogue.lines where line.kind == .url || line.kind == .request {
            let problem = line.kind == .url ? Self.runURL(line, on: router, matcher: matcher)
                : Self.runRequest(line, on: router, matcher: matcher)
            if let problem {
                Issue.record(Comment(rawValue: "after the catalogue, \(problem)"))
            }
        }
    }

    /// docs/SEMANTICS.md §3.5 load: 65,536 routes under one 200-byte prefix build and answer, and removing
    /// some of them leaves the others reachable. (Removal is sampled: with values, each removal
    /// currently rescans every value retired before it; see RegressionTests.)
    @Test func sixtyFiveThousandRoutesSharingOneLongPrefix() throws {
        let prefix = "/" + String(repeating: "p", count: 100) + "/" + String(repeating: "q", count: 98)
        let router = Router<UInt64>()
        let routes = (0..<65_536).map { index in Route("\(prefix)/r\(index)/{id:int}", id: UInt64(index), value: UInt64(index)) }
        try router.add(contentsOf: routes)
        #expect(router.count == 65_536)
        let matcher = Matcher(router: router)
        for index in stride(from: 0, to: 65_536, by: 4099) {
            #expect(try matcher.match("\(prefix)/r\(index)/7") && matcher.routeID == UInt64(index))
            #expect(matcher.parameter("id") == "7")
        }
        #expect(try !matcher.match("\(prefix)/r65536/7"))
        #expect(try !matcher.match("\(prefix)/r1/x"))
        #expect(throws: RouterError.self) { try router.add("\(prefix)/r5/{n:int}", value: 0) }
        for index in stride(from: 0, to: 65_536, by: 128) { #expect(router.remove(id: UInt64(index)) == 1) }
        #expect(router.count == 65_536 - 512)
        #expect(try !matcher.match("\(prefix)/r128/1"))
        #expect(try matcher.match("\(prefix)/r4/1") && matcher.routeID == 4)
        #expect(try matcher.match("\(prefix)/r65535/1") && matcher.routeID == 65_535)
    }
}
