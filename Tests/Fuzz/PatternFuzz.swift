// libFuzzer harness: arbitrary bytes as a route pattern (docs/SEMANTICS.md §2, §3.6).
//
// Every input is registered on two routers (default options; case-insensitive paths with an extra
// web scheme). Invariants:
// - registration returns or throws a pattern, regex or duplicate error, never crashes or hangs;
// - an error has an offset inside the pattern (the first byte of the offending construct) and a
//   one-line, non-empty message, and registers nothing;
// - a registered pattern is a duplicate of itself at the same priority and not at another one;
//   removal takes the router back to empty;
// - the URL that reverse routing builds for a registered pattern reaches that route again.

@testable import FastRouter

#if canImport(Glibc)
import Glibc
#endif

/// Routers reused across inputs: each input leaves them empty again, which is itself checked.
private let routers: [RouterCore] = [
    RouterCore(options: RouterOptions()),
    RouterCore(options: RouterOptions(caseInsensitivePaths: true, globalFallback: false, plusAsSpace: false,
                                      webSchemes: ["http", "https", "app"])),
]
private let scratch = MatchScratch()

/// libFuzzer entry point: registers the input as a pattern on both routers.
@_cdecl("LLVMFuzzerTestOneInput")
public func patternFuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let pattern = UnsafeBufferPointer(start: data, count: size)
    for router in routers { check(pattern, on: router) }
    return 0
}

private func check(_ pattern: UnsafeBufferPointer<UInt8>, on router: RouterCore) {
    let text = show(Array(pattern))
    require(router.count == 0, "router not empty before \(text)")
    do {
        try router.add(pattern: pattern, priority: 0, id: 1, payload: nil)
    } catch {
        checkError(error, pattern, text)
        require(router.count == 0, "failed add of \(text) left \(router.count) routes")
        // The parser alone must agree with the router (a duplicate comes from the table, not the parser).
        if error.code != .duplicateRoute {
            do {
                _ = try PatternParser.parse(pattern, webSchemes: router.options.webSchemes)
                require(false, "router rejected \(text) (\(error)) but the parser accepts it")
            } catch let again {
                require(again == error, "parser and router disagree on \(text): \(again) vs \(error)")
            }
        }
        return
    }
    require(router.count == 1, "count \(router.count) after adding \(text)")
    checkRoundTrip(pattern, router, text)

    do {
        try router.add(pattern: pattern, priority: 0, id: 2, payload: nil)
        require(false, "\(text) added twice at the same priority")
    } catch {
        require(error.code == .duplicateRoute, "second add of \(text) threw \(error), expected duplicateRoute")
        require(error.offset < max(pattern.count, 1), "duplicate error offset \(error.offset) outside \(text)")
    }
    do {
        try router.add(pattern: pattern, priority: 1, id: 2, payload: nil)
    } catch {
        require(false, "\(text) at another priority threw \(error)")
    }
    require(router.count == 2, "count \(router.count) after two adds of \(text)")
    require(!router.dump().isEmpty, "empty dump with \(text) registered")
    require(router.remove(id: 1) == 1, "remove(id: 1) did not remove \(text)")
    require(router.remove(id: 2) == 1, "remove(id: 2) did not remove \(text)")
    require(router.remove(id: 2) == 0, "remove(id: 2) removed twice")
    require(router.count == 0, "count \(router.count) after removing \(text)")
}

private func checkError(_ error: RouterError, _ pattern: UnsafeBufferPointer<UInt8>, _ text: String) {
    switch error.code {
    case .invalidPattern, .invalidRegex, .duplicateRoute:
        break
    default:
        require(false, "unexpected error code for \(text): \(error)")
    }
    // Offsets name a byte of the pattern; only the empty pattern (which is valid) has none.
    require(error.offset >= 0 && error.offset < max(pattern.count, 1),
            "error offset \(error.offset) outside the \(pattern.count)-byte pattern \(text): \(error)")
    require(!error.message.isEmpty, "empty error message for \(text)")
    require(!error.message.contains("\n"), "multi-line error message for \(text): \(error.message)")
}

/// Values that satisfy each built-in constraint; regex-constrained patterns are not round-tripped.
private func sampleValue(for constraint: Constraint?) -> String? {
    switch constraint {
    case nil: return "v"
    case .int?: return "42"
    case .uint?: return "7"
    case .float?: return "1.5"
    case .uuid?: return "e621e1f8-c36c-495a-93fc-0c247a3e6e5f"
    case .alpha?: return "abc"
    case .alnum?: return "a1"
    case .hex?: return "ff"
    case .regex?: return nil
    }
}

/// Reverse routing, then a lookup of the URL built: the route must be among the candidates.
private func checkRoundTrip(_ pattern: UnsafeBufferPointer<UInt8>, _ router: RouterCore, _ text: String) {
    // Known issue (RegressionTests.patternWithRawInvalidUTF8KeepsItsBytes): the router keeps a
    // pattern as a repaired String, so raw bytes that are not UTF-8 on their own (but decode to
    // UTF-8 together with escapes, as in "/n\xD5%A7") no longer parse when reverse routing reads it back.
    guard isStrictUTF8(pattern) else { return }
    guard let parsed = try? PatternParser.parse(pattern, webSchemes: router.options.webSchemes) else {
        require(false, "registered \(text) no longer parses")
        return
    }
    var parameters: [(name: String, value: String)] = []
    for variant in parsed.variants {
        // A URL over the segment limit is invalid by docs/SEMANTICS.md §3.4: such a route is registrable but unreachable.
        guard variant.count <= 1000 else { return }
        for segment in variant {
            switch segment {
            case .literal: break
            case .parameter(let name): parameters.append((name, "v"))
            case .constrained(let name, let constraint):
                guard let value = sampleValue(for: constraint) else { return }
                parameters.append((name, value))
            case .wildcard(let name): parameters.append((name, "w/x"))
            case .partial(let pieces):
                for case .parameter(let name, let constraint) in pieces {
                    guard let value = sampleValue(for: constraint) else { return }
                    parameters.append((name, value))
                }
            }
        }
    }
    if let scheme = parsed.scheme, router.options.webSchemes.contains(scheme), hostHasEscape(pattern) {
        // Known issue (RegressionTests.hostEscapeOfADelimiterIsRejected): a host escape may decode
        // to a delimiter ('/', '@', ':'…), making the route unreachable; URL hosts compare raw.
        return
    }
    var seen = Set<String>()
    parameters = parameters.filter { seen.insert($0.name).inserted }
    let url: String
    do {
        url = try router.url(for: 1, parameters: parameters)
    } catch {
        // Sample values may hold the text that separates placeholders of a partial segment
        // ("{a}a{b:alnum}" with b = "a1"): reverse routing refuses what would not route back.
        let hasPartial = parsed.variants.contains { $0.contains { if case .partial = $0 { return true }; return false } }
        require(hasPartial && error.code == .invalidArgument,
                "reverse routing of \(text) with \(parameters) threw \(error)")
        return
    }
    var full = url
    if let scheme = parsed.scheme, router.options.webSchemes.contains(scheme) {
        switch parsed.host {
        case .exact(let host):
            // Hosts with escapes or sub-delimiters cannot be written back into a URL authority as they are.
            guard host.utf8.allSatisfy({ isPlainHostByte($0) }) else { return }
        case .suffix(let suffix):
            guard suffix.utf8.allSatisfy({ isPlainHostByte($0) }) else { return }
            full = "\(scheme)://sub\(suffix)" + url
        case .any:
            full = "\(scheme)://host.example" + url
        }
    }
    var bytes = Array(full.utf8)
    let status = bytes.withUnsafeBufferPointer { router.match(url: $0, into: scratch) }
    var found = false
    var ids: [UInt64] = []
    if status == .found {
        repeat {
            ids.append(scratch.routeID)
            if scratch.routeID == 1 { found = true }
        } while scratch.next() == .found
    }
    scratch.clearResult()
    bytes.removeAll()
    require(found, "URL \(show(Array(full.utf8))) built for \(text) does not reach it: status \(status), candidates \(ids)")
}

/// True when the pattern's authority (after "://", up to '/' or '(') holds a '%'.
private func hostHasEscape(_ pattern: UnsafeBufferPointer<UInt8>) -> Bool {
    let bytes = Array(pattern)
    guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")) else { return false }
    let host = bytes[(colon + 3)...].prefix { $0 != UInt8(ascii: "/") && $0 != UInt8(ascii: "(") }
    return host.contains(UInt8(ascii: "%"))
}

private func isPlainHostByte(_ byte: UInt8) -> Bool {
    (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
        || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
}
