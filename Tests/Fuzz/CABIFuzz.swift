// libFuzzer harness: the C ABI of include/fastrouter.h (docs/SEMANTICS.md §4) driven by fuzzer bytes.
//
// The input is a program: each step picks an fr_* call and its arguments (NULL pointers, unknown
// flags, reserved ids, huge indexes, short buffers, arbitrary pattern and URL bytes). Every byte
// string is copied into a heap block of exactly its length, so AddressSanitizer reports any read
// past a (pointer, length) string. The Swift functions behind the @c exports are called
// directly, exactly as a C caller reaches them. Invariants:
// - statuses are the ones each function documents; fr_error is always written (FR_OK, offset 0
//   and an empty message on success; the status, an in-pattern offset and a NUL-terminated
//   one-line message otherwise);
// - fr_router_count follows the adds and removes that succeeded;
// - after anything but FR_OK from fr_router_match / fr_match_next, the match reports
//   FR_NO_ROUTE, 0 parameters and a {NULL, 0} fragment;
// - every returned string is readable for its length, parameter names find their first pair,
//   and index or name misses give FR_ENOTFOUND with {NULL, 0} out-parameters;
// - fr_router_url, fr_router_dump and fr_router_lint report the full length in *needed and never write past cap;
// - HTTP methods (docs/SEMANTICS.md §3.7): fr_router_add_methods accepts exactly the valid method
//   lists and refuses a 65th method name; fr_router_match_method with an empty method answers as
//   fr_router_match, with a method it answers FR_NOMATCH / FR_EURL when fr_router_match does, and
//   its candidates are those of fr_router_match in the same order, some left out (for HEAD with
//   the fallback on, in any order: the route naming HEAD comes first at a tie of shape); on a router
//   whose routes all accept any method it answers as fr_router_match; after FR_NOMETHOD there is
//   no result and fr_match_allow gives a well-formed Allow value (tokens, each once, RFC 9110's
//   methods first and in order, HEAD with GET unless FR_NO_HEAD_FALLBACK, never the method asked
//   for) under fr_router_dump's buffer rules; otherwise FR_ENOTFOUND with *needed 0.

@testable import FastRouter
@testable import FastRouterCABI

#if canImport(Glibc)
import Glibc
#endif
import CFastRouter

private let FR_OK: Int32 = 0
private let FR_NOMATCH: Int32 = 1
private let FR_NOMETHOD: Int32 = 2
private let FR_EINVAL: Int32 = -1
private let FR_EPATTERN: Int32 = -2
private let FR_EREGEX: Int32 = -3
private let FR_EDUPLICATE: Int32 = -4
private let FR_EURL: Int32 = -5
private let FR_ENOTFOUND: Int32 = -6
private let FR_ENOMEM: Int32 = -7
private let FR_NO_ROUTE = UInt64.max
private let FR_NO_HEAD_FALLBACK: UInt32 = 1 << 3
/// Every flag fastrouter.h defines.
private let knownFlags: UInt32 = 15

/// `sizeof(fr_str)`, `sizeof(fr_error)` and its field offsets, from the header's own structs.
private let strSize = MemoryLayout<fr_str>.size
private let errorSize = MemoryLayout<fr_error>.size
private let errorOffsetField = MemoryLayout<fr_error>.offset(of: \.offset)!
private let errorMessageField = MemoryLayout<fr_error>.offset(of: \.message)!

private let patterns = [
    "/", "", "/users/:id", "/users/{id:int}", "/users/:id/posts(/:post)", "/files/*path", "/static/*",
    "/re/{w:[a-z]+}", "/re/{slow:(a+)+$}", "myapp://users/:id", "myapp://settings(/:section)", "myapp://*",
    "https://example.com/repos/:owner/:repo", "https://*.example.com/:p", "http://*/any/*", "/img/{name}.{ext:alpha}",
    "/caf%C3%A9/:x", "/a(/b(/c))", "/:a/:b/:c", "/p/{u:uuid}", "/h/{h:hex}/{f:float}", "/users/:other",
]
private let urls = [
    "/", "/users/42", "/users/x?tab=posts&tab=2#frag", "/users/42/posts/7", "/files/a/b%2Fc/d", "/static",
    "/re/abc", "/re/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaab", "myapp://users/7?x=1",
    "MYAPP://Settings/Privacy", "myapp://anything/at/all", "https://example.com/repos/apple/swift",
    "https://a.b.example.com/p", "http://host:80/any/x/y", "/img/logo.png", "/caf%C3%A9/1", "/a/b/c", "/x/y/z",
    "/bad%zz", "/%00", "/a?=v&&k", "#only", "?q=1",
]

/// Method lists for fr_router_add_methods: valid, any-method and malformed ones.
private let methodLists = [
    "GET", "POST", "GET,POST", "GET , POST", "PUT,DELETE", "HEAD", "GET,HEAD", "PATCH", "PURGE,PROPFIND", "get",
    "OPTIONS,TRACE,CONNECT", "", "*", "*,GET", "GET,", ",", ",GET", "GET,,POST", "G T", "GET;POST", "\u{0}",
    "GE\u{0}T", "GÉT", "GET\r\n",
]
/// Methods for fr_router_match_method: standard, extension, empty and malformed ones.
private let methodNames = [
    "GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "PURGE", "OPTIONS", "get", "", "*", "BREW", "G T",
    "GET,POST", "\u{0}", "GE\u{0}T", "GÉT",
]
/// The C ABI refuses method lists of this many bytes or more (64 names never need as much).
private let methodListLimit = 16 * 1024
/// RFC 9110's methods in its order: the order of an Allow value.
private let standardMethods: [[UInt8]] = ["GET", "HEAD", "POST", "PUT", "DELETE", "CONNECT", "OPTIONS", "TRACE"].map {
    Array($0.utf8)
}

/// `tchar` of RFC 9110 §5.6.2, written apart from the library's own table.
private func isTokenByte(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"):
        return true
    default:
        return Array("!#$%&'*+-.^_`|~".utf8).contains(byte)
    }
}

private func isToken(_ bytes: ArraySlice<UInt8>) -> Bool { !bytes.isEmpty && bytes.allSatisfy(isTokenByte) }

/// What a method list means, as the header documents it.
private enum MethodListMeaning {
    /// "" or "*".
    case any
    /// These distinct names.
    case names([[UInt8]])
    /// An empty or invalid token, or "*" among other methods: FR_EINVAL.
    case invalid
    /// Whitespace the header does not cover (a tab beside a comma, a list of spaces): not predicted.
    case unclear
}

private func meaning(ofMethodList list: [UInt8]) -> MethodListMeaning {
    if list.isEmpty { return .any }
    let blank: (UInt8) -> Bool = { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
    if list.allSatisfy(blank) { return .unclear }
    var names: [[UInt8]] = []
    var sawAny = false, unclear = false, items = 0
    for item in list.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false) {
        var token = item[...]
        while let first = token.first, blank(first) { token = token.dropFirst() }
        while let last = token.last, blank(last) { token = token.dropLast() }
        if token.isEmpty { return .invalid }
        if token.count != item.count && item.contains(UInt8(ascii: "\t")) { unclear = true }
        items += 1
        if token.count == 1 && token.first == UInt8(ascii: "*") {
            sawAny = true
        } else if !isToken(token) {
            return .invalid
        } else if !names.contains(Array(token)) {
            names.append(Array(token))
        }
    }
    if sawAny { return items == 1 ? .any : .invalid }
    return unclear ? .unclear : .names(names)
}

/// A heap block holding exactly `bytes`, or NULL for none (freed by the caller).
private func heapCopy(_ bytes: [UInt8]) -> UnsafeMutablePointer<CChar>? {
    guard !bytes.isEmpty else { return nil }
    let block = malloc(bytes.count)!.assumingMemoryBound(to: CChar.self)
    bytes.withUnsafeBytes { UnsafeMutableRawPointer(block).copyMemory(from: $0.baseAddress!, byteCount: bytes.count) }
    return block
}

/// Reads every byte of a returned string (AddressSanitizer checks that they are addressable).
private func readString(_ pointer: UnsafeRawPointer?, _ length: Int, _ what: String) -> [UInt8] {
    guard let pointer else {
        require(length == 0, "\(what): NULL with length \(length)")
        return []
    }
    return Array(UnsafeRawBufferPointer(start: pointer, count: length))
}

private func loadStr(_ block: UnsafeMutableRawPointer) -> (ptr: UnsafeRawPointer?, len: Int) {
    (block.load(as: UnsafeRawPointer?.self), block.load(fromByteOffset: 8, as: Int.self))
}

private struct Session {
    var input: FuzzInput
    var router: OpaquePointer?
    /// Routes the router holds, by id, as the adds and removes that succeeded say.
    var counts: [UInt64: Int] = [:]
    /// `counts` when the current result was looked up: declining walks the candidates of that
    /// lookup, which stay valid after later removals.
    var countsAtLookup: [UInt64: Int] = [:]
    var match: OpaquePointer? = frMatchNew()
    /// The router `match` last matched against (fr_match_next after freeing it is not allowed).
    var matchedRouter: OpaquePointer?
    var matchIsCurrent = false
    /// False once the router `match` last matched against is freed, until the next lookup.
    var nextAllowed = true
    var urlBlock: UnsafeMutablePointer<CChar>?
    /// Method names the router surely knows (those of adds that succeeded) and those it may know
    /// (every name of a valid list an add was given: a failed add may have taught them).
    var namesKnown: Set<[UInt8]> = []
    var namesMaybeKnown: Set<[UInt8]> = []
    /// True once a list of unclear meaning reached the router: its names are then not tracked.
    var namesUntracked = false
    /// Whether the router serves HEAD with GET's routes (no FR_NO_HEAD_FALLBACK).
    var headFallback = true
    /// Whether `match` holds an Allow value: its last lookup returned FR_NOMETHOD. `nil` when
    /// fr_match_next ran since (declining after a 405 is not a lookup; not predicted).
    var allowIsCurrent: Bool? = false
    /// A second match, for fr_router_match's answer to the URL a method lookup was given.
    var probe: OpaquePointer? = frMatchNew()
    // Exact-size heap blocks, so AddressSanitizer catches a write past one.
    let strBlock = malloc(strSize)!.bindMemory(to: fr_str.self, capacity: 1)
    let strBlock2 = malloc(strSize)!.bindMemory(to: fr_str.self, capacity: 1)
    let errorBlock = malloc(errorSize)!.bindMemory(to: fr_error.self, capacity: 1)

    init(_ input: FuzzInput) {
        self.input = input
        router = frRouterNew(0)
    }

    mutating func finish() {
        frMatchFree(probe)
        frMatchFree(match)
        frRouterFree(router)
        free(urlBlock)
        free(strBlock)
        free(strBlock2)
        free(errorBlock)
    }

    var expectedCount: Int { counts.values.reduce(0, +) }

    mutating func routeID() -> UInt64 {
        switch input.below(8) {
        case 0: return FR_NO_ROUTE
        case 1: return input.uint64()
        default: return UInt64(input.below(6))
        }
    }

    mutating func bytes(from list: [String]) -> [UInt8] {
        input.chance(1, in: 2) ? Array(input.pick(list).utf8) : input.chunk()
    }

    mutating func step() {
        switch input.below(20) {
        case 0: newRouter()
        case 1, 2, 3: add()
        case 4: remove()
        case 5, 6, 7: lookUp()
        case 8: next()
        case 9: parameterByName()
        case 10: parameterAtIndex()
        case 11: reverseRoute()
        case 12: dump()
        case 13: statusTexts()
        case 14: newMatch()
        case 15: nullArguments()
        case 16, 17: addMethods()
        case 18: lookUpMethod()
        default: allowValue()
        }
        require(frRouterCount(router) == (router == nil ? 0 : expectedCount),
                "fr_router_count \(frRouterCount(router)), expected \(expectedCount)")
        checkMatchState()
    }

    mutating func newRouter() {
        let flags: UInt32 = input.chance(1, in: 4) ? UInt32(input.byte()) << UInt32(input.below(32)) : UInt32(input.below(16))
        let created = frRouterNew(flags)
        require((created == nil) == (flags & ~knownFlags != 0), "fr_router_new(\(flags)) gave \(String(describing: created))")
        guard let created else { return }
        if router == matchedRouter {
            nextAllowed = false
            matchedRouter = nil
        }
        frRouterFree(router)
        router = created
        counts = [:]
        namesKnown = []
        namesMaybeKnown = []
        namesUntracked = false
        headFallback = flags & FR_NO_HEAD_FALLBACK == 0
    }

    mutating func add() {
        let pattern = bytes(from: patterns)
        let block = heapCopy(pattern)
        defer { free(block) }
        let priority: Int32 = input.chance(1, in: 4) ? input.pick([1, -1, Int32.max, Int32.min]) : 0
        let id = routeID()
        let withError = input.chance(7, in: 8)
        memset(errorBlock, 0x5A, errorSize)
        let before = frRouterCount(router)
        let status = frRouterAdd(router, block, UInt(pattern.count), priority, id, withError ? errorBlock : nil)
        let text = show(pattern)
        switch status {
        case FR_OK:
            require(router != nil && id != FR_NO_ROUTE, "fr_router_add(\(text)) accepted a NULL router or reserved id")
            counts[id, default: 0] += 1
        case FR_EINVAL:
            require(router == nil || id == FR_NO_ROUTE, "fr_router_add(\(text), id \(id)) gave FR_EINVAL")
        case FR_EPATTERN, FR_EREGEX, FR_EDUPLICATE:
            require(router != nil && id != FR_NO_ROUTE, "fr_router_add(\(text)) gave \(status) before checking arguments")
        default:
            require(false, "fr_router_add(\(text)) returned \(status)")
        }
        require(status == FR_OK || frRouterCount(router) == before, "failed fr_router_add(\(text)) changed the count")
        guard withError else { return }
        let code = UnsafeRawPointer(errorBlock).load(as: Int32.self)
        let offset = UnsafeRawPointer(errorBlock).load(fromByteOffset: errorOffsetField, as: Int.self)
        let message = UnsafeMutableRawPointer(errorBlock) + errorMessageField
        require(code == status, "fr_error.code \(code) but fr_router_add(\(text)) returned \(status)")
        guard let end = memchr(message, 0, 256) else {
            require(false, "fr_error.message of fr_router_add(\(text)) is not NUL-terminated")
            return
        }
        let length = UnsafeRawPointer(end) - UnsafeRawPointer(message)
        let messageBytes = Array(UnsafeRawBufferPointer(start: message, count: length))
        if status == FR_OK {
            require(offset == 0 && length == 0, "fr_error after success: offset \(offset), message \(show(messageBytes))")
        } else {
            require(length > 0 && !messageBytes.contains(UInt8(ascii: "\n")) && isStrictUTF8(messageBytes),
                    "fr_error.message \(show(messageBytes)) for \(text)")
            if status == FR_EPATTERN || status == FR_EREGEX {
                require(offset < max(pattern.count, 1), "fr_error.offset \(offset) outside \(text)")
            }
        }
    }

    mutating func remove() {
        let id = routeID()
        let status = frRouterRemove(router, id)
        if router == nil || id == FR_NO_ROUTE {
            require(status == FR_EINVAL, "fr_router_remove(\(id)) on NULL or reserved id gave \(status)")
        } else if counts[id, default: 0] > 0 {
            require(status == FR_OK, "fr_router_remove(\(id)) of \(counts[id]!) routes gave \(status)")
            counts[id] = nil
        } else {
            require(status == FR_ENOTFOUND, "fr_router_remove(\(id)) of no route gave \(status)")
        }
    }

    mutating func lookUp() {
        var url = bytes(from: urls)
        if input.chance(1, in: 16) {
            // Past the segment or length limits.
            let unit = url.isEmpty ? Array("/a".utf8) : url
            url = Array(repeatElement(unit, count: input.pick([600, 1100, 33_000]) / unit.count + 1).joined())
        }
        free(urlBlock)
        urlBlock = heapCopy(url)
        let status = frRouterMatch(router, urlBlock, UInt(url.count), match)
        matchedRouter = router
        nextAllowed = true
        if match != nil { allowIsCurrent = false }
        switch status {
        case FR_OK:
            require(router != nil && match != nil, "fr_router_match on NULL gave FR_OK")
        case FR_NOMATCH:
            break
        case FR_EURL:
            break
        case FR_EINVAL:
            require(router == nil || match == nil, "fr_router_match(\(show(url))) gave FR_EINVAL")
        default:
            require(false, "fr_router_match(\(show(url))) returned \(status)")
        }
        if url.count > 65536 { require(status == FR_EURL || status == FR_EINVAL, "\(url.count)-byte URL gave \(status)") }
        matchIsCurrent = status == FR_OK
        countsAtLookup = counts
        if matchIsCurrent { readCurrent(url) }
    }

    mutating func next() {
        // fr_match_next after freeing the router that answered is outside the contract.
        guard nextAllowed else { return }
        let status = frMatchNext(match)
        if match == nil {
            require(status == FR_EINVAL, "fr_match_next(NULL) gave \(status)")
            return
        }
        require(status == FR_OK || status == FR_NOMATCH, "fr_match_next gave \(status)")
        require(status == FR_NOMATCH || matchIsCurrent, "fr_match_next found a route without a current match")
        if allowIsCurrent == true { allowIsCurrent = nil }
        matchIsCurrent = status == FR_OK
        if matchIsCurrent { readCurrent(nil) }
    }

    /// Reads every parameter and the fragment of the current result.
    func readCurrent(_ url: [UInt8]?) {
        let id = frMatchRouteID(match)
        require(id != FR_NO_ROUTE && countsAtLookup[id, default: 0] > 0 || matchedRouter != router,
                "current route id \(id) was not registered at the lookup")
        let count = frMatchParamCount(match)
        var seenNames: [[UInt8]] = []
        for index in 0..<count {
            let status = frMatchParamAt(match, UInt(index), strBlock, strBlock2)
            require(status == FR_OK, "fr_match_param_at(\(index)) of \(count) gave \(status)")
            let name = loadStr(strBlock)
            let value = loadStr(strBlock2)
            let nameBytes = readString(name.ptr, name.len, "parameter name")
            let valueBytes = readString(value.ptr, value.len, "parameter value")
            require(value.ptr != nil, "present value of parameter \(index) is {NULL, 0}")
            require(isStrictUTF8(nameBytes) && isStrictUTF8(valueBytes) && !valueBytes.contains(0),
                    "parameter \(show(nameBytes)) = \(show(valueBytes))")
            if !seenNames.contains(nameBytes) {
                let block = heapCopy(nameBytes)
                let found = frMatchParam(match, block, UInt(nameBytes.count), strBlock)
                free(block)
                let byName = loadStr(strBlock)
                require(found == FR_OK && byName.ptr == value.ptr && byName.len == value.len,
                        "fr_match_param(\(show(nameBytes))) is not the first pair")
                seenNames.append(nameBytes)
            }
        }
        memset(strBlock, 0x5A, strSize)
        memset(strBlock2, 0x5A, strSize)
        let past = frMatchParamAt(match, UInt(count), strBlock, strBlock2)
        require(past == FR_ENOTFOUND, "fr_match_param_at past the end gave \(past)")
        require(loadStr(strBlock).ptr == nil && loadStr(strBlock).len == 0 && loadStr(strBlock2).ptr == nil,
                "out-parameters of a missed index are not {NULL, 0}")
        let fragment = frMatchFragment(match)
        let fragmentBytes = readString(fragment.ptr, fragment.len, "fragment")
        if let url {
            if let hash = url.firstIndex(of: UInt8(ascii: "#")) {
                require(fragment.ptr != nil && fragmentBytes == Array(url[(hash + 1)...]),
                        "fragment \(show(fragmentBytes)) of \(show(url))")
            } else {
                require(fragment.ptr == nil && fragment.len == 0, "fragment without '#' in \(show(url))")
            }
        }
    }

    func checkMatchState() {
        guard !matchIsCurrent else { return }
        require(frMatchRouteID(match) == FR_NO_ROUTE, "no current result but route id \(frMatchRouteID(match))")
        require(frMatchParamCount(match) == 0, "no current result but \(frMatchParamCount(match)) parameters")
        let fragment = frMatchFragment(match)
        require(fragment.ptr == nil && fragment.len == 0, "no current result but a fragment")
        memset(strBlock, 0x5A, strSize)
        require(frMatchParamAt(match, 0, strBlock, nil) == (match == nil ? FR_EINVAL : FR_ENOTFOUND),
                "fr_match_param_at without a result")
        require(loadStr(strBlock).ptr == nil, "fr_match_param_at without a result left its out-parameter")
    }

    mutating func parameterByName() {
        let name = input.chance(1, in: 2) ? Array(input.pick(["id", "tab", "path", "*", "", "p", "owner", "x"]).utf8) : input.chunk()
        let block = heapCopy(name)
        defer { free(block) }
        let withValue = input.chance(3, in: 4)
        memset(strBlock, 0x5A, strSize)
        let status = frMatchParam(match, block, UInt(name.count), withValue ? strBlock : nil)
        switch status {
        case FR_OK:
            require(matchIsCurrent, "fr_match_param found \(show(name)) without a result")
            if withValue {
                let value = loadStr(strBlock)
                _ = readString(value.ptr, value.len, "value of \(show(name))")
            }
        case FR_ENOTFOUND:
            require(match != nil, "fr_match_param(NULL match) gave FR_ENOTFOUND")
            if withValue { require(loadStr(strBlock).ptr == nil && loadStr(strBlock).len == 0, "missed name left its value") }
        case FR_EINVAL:
            require(match == nil, "fr_match_param(\(show(name))) gave FR_EINVAL")
        default:
            require(false, "fr_match_param(\(show(name))) returned \(status)")
        }
    }

    mutating func parameterAtIndex() {
        let index: UInt = input.chance(1, in: 2) ? UInt(input.below(8)) : UInt(truncatingIfNeeded: input.uint64())
        let status = frMatchParamAt(match, index, input.chance(1, in: 2) ? strBlock : nil, input.chance(1, in: 2) ? strBlock2 : nil)
        let count = UInt(frMatchParamCount(match))
        if match == nil {
            require(status == FR_EINVAL, "fr_match_param_at(NULL) gave \(status)")
        } else {
            require(status == (index < count ? FR_OK : FR_ENOTFOUND), "fr_match_param_at(\(index)) of \(count) gave \(status)")
        }
    }

    mutating func reverseRoute() {
        let id = routeID()
        let count = input.below(4)
        var blocks: [UnsafeMutablePointer<CChar>?] = []
        let names = malloc(max(count, 1) * strSize)!
        let values = malloc(max(count, 1) * strSize)!
        for index in 0..<count {
            let name = bytes(from: ["id", "owner", "repo", "path", "p", "section", "post", "ext", "name", "x", "*"])
            let value = bytes(from: ["42", "a b", "x/y", "", "logo", "e621e1f8-c36c-495a-93fc-0c247a3e6e5f", "ü"])
            let nameBlock = heapCopy(name)
            let valueBlock = heapCopy(value)
            blocks += [nameBlock, valueBlock]
            names.storeBytes(of: UnsafeRawPointer(nameBlock), toByteOffset: index * strSize, as: UnsafeRawPointer?.self)
            names.storeBytes(of: name.count, toByteOffset: index * strSize + 8, as: Int.self)
            values.storeBytes(of: UnsafeRawPointer(valueBlock), toByteOffset: index * strSize, as: UnsafeRawPointer?.self)
            values.storeBytes(of: value.count, toByteOffset: index * strSize + 8, as: Int.self)
        }
        defer {
            for block in blocks { free(block) }
            free(names)
            free(values)
        }
        let capacity = input.pick([0, 1, 8, 64, 4096])
        let buffer = capacity > 0 ? malloc(capacity)!.assumingMemoryBound(to: CChar.self) : nil
        defer { free(buffer) }
        var needed = -1
        let status = frRouterURL(router, id, count > 0 ? UnsafePointer(names.assumingMemoryBound(to: fr_str.self)) : nil,
                                 count > 0 ? UnsafePointer(values.assumingMemoryBound(to: fr_str.self)) : nil, UInt(count),
                                 buffer, UInt(capacity), &needed)
        require(needed >= 0, "fr_router_url left *needed unset")
        switch status {
        case FR_OK:
            require(needed < capacity && buffer![needed] == 0, "fr_router_url: \(needed) bytes in \(capacity)")
            require(counts[id, default: 0] > 0, "fr_router_url built a URL for unknown id \(id)")
        case FR_ENOMEM:
            require(needed + 1 > capacity, "fr_router_url: FR_ENOMEM with \(needed) bytes needed and \(capacity) available")
        case FR_ENOTFOUND:
            require(counts[id, default: 0] == 0, "fr_router_url: FR_ENOTFOUND for registered id \(id)")
        case FR_EINVAL:
            break
        case FR_EPATTERN:
            // Known issue (RegressionTests.patternWithRawInvalidUTF8KeepsItsBytes): a pattern whose raw
            // bytes are not UTF-8 on their own is stored repaired and no longer parses.
            require(counts[id, default: 0] > 0, "fr_router_url: FR_EPATTERN for unknown id \(id)")
        default:
            require(false, "fr_router_url returned \(status)")
        }
    }

    mutating func dump() {
        let capacity = input.pick([0, 1, 16, 256, 65536])
        let buffer = capacity > 0 ? malloc(capacity)!.assumingMemoryBound(to: CChar.self) : nil
        defer { free(buffer) }
        var needed = -1
        // The dump and the linter's report share their buffer conventions.
        let lint = input.chance(1, in: 4)
        let name = lint ? "fr_router_lint" : "fr_router_dump"
        let write = lint ? frRouterLint : frRouterDump
        let status = input.chance(3, in: 4) ? write(router, buffer, UInt(capacity), &needed)
            : write(router, buffer, UInt(capacity), nil)
        if router == nil {
            require(status == FR_EINVAL, "\(name)(NULL) gave \(status)")
            return
        }
        require(status == FR_OK || status == FR_ENOMEM, "\(name) gave \(status)")
        if status == FR_OK, needed >= 0 { require(needed < capacity && buffer![needed] == 0, "\(name) overran") }
    }

    mutating func statusTexts() {
        let code = Int32(bitPattern: UInt32(truncatingIfNeeded: input.uint64()))
        for text in [frStrerror(code), frStrerror(Int32(input.below(10)) - 8), frVersion()] {
            require(strlen(text) > 0 && strlen(text) < 100, "status text of \(strlen(text)) bytes")
        }
    }

    mutating func newMatch() {
        frMatchFree(match)
        match = input.chance(1, in: 8) ? nil : frMatchNew()
        matchIsCurrent = false
        allowIsCurrent = false
        matchedRouter = nil
        nextAllowed = true
    }

    mutating func nullArguments() {
        switch input.below(9) {
        case 0: require(frRouterMatch(router, nil, UInt(1 + input.below(100)), match) == FR_EINVAL, "NULL URL with a length")
            resetAfterFailedLookup()
        case 1: require(frRouterAdd(router, nil, UInt(1 + input.below(100)), 0, 1, nil) == FR_EINVAL, "NULL pattern with a length")
        case 2: require(frRouterMatch(nil, nil, 0, match) == FR_EINVAL, "fr_router_match(NULL router)")
            resetAfterFailedLookup()
        case 3: require(frMatchParam(match, nil, UInt(1 + input.below(100)), nil) == FR_EINVAL, "NULL name with a length")
        case 4: require(frRouterAdd(router, nil, UInt.max, 0, 1, nil) == FR_EINVAL, "NULL pattern with SIZE_MAX")
        case 5: require(frRouterAddMethods(router, nil, UInt(1 + input.below(100)), "/a", 2, 0, 1, nil) == FR_EINVAL,
                        "NULL method list with a length")
        case 6: require(frRouterMatchMethod(router, nil, UInt(1 + input.below(100)), "/a", 2, match) == FR_EINVAL,
                        "NULL method with a length")
            resetAfterFailedLookup()
        case 7:
            var needed = -1
            let status = frMatchAllow(match, nil, UInt(1 + input.below(100)), &needed)
            require(status == FR_EINVAL || (status == FR_ENOTFOUND && allowIsCurrent == false),
                    "fr_match_allow with a NULL buffer and a capacity gave \(status)")
            require(needed >= 0, "fr_match_allow left *needed unset")
        default: require(frRouterMatch(router, nil, UInt.max, match) == FR_EINVAL, "NULL URL with SIZE_MAX")
            resetAfterFailedLookup()
        }
    }

    /// After a lookup that failed on its arguments: no result, no Allow value (when there is a match).
    mutating func resetAfterFailedLookup() {
        matchIsCurrent = false
        if match != nil { allowIsCurrent = false }
    }

    /// A method list or a method: from the lists above, a fuzzer chunk, one of 80 generated names
    /// (more than a router takes), or a token over 64 KiB, sometimes with a bad last byte.
    mutating func methodBytes(from list: [String]) -> [UInt8] {
        switch input.below(8) {
        case 0: return input.chunk(limit: 24)
        case 1:
            var names = (0...input.below(3)).map { _ in "M\(input.below(80))" }
            if input.chance(1, in: 4) { names.append(input.pick(list)) }
            return Array(names.joined(separator: input.chance(1, in: 2) ? "," : " , ").utf8)
        case 2:
            var huge = [UInt8](repeating: UInt8(ascii: "X"), count: 70_000)
            if input.chance(1, in: 2) { huge[huge.count - 1] = input.pick([0, 0x20, 0x2C, 0x80, 0xFF]) }
            return huge
        default: return Array(input.pick(list).utf8)
        }
    }

    mutating func addMethods() {
        let methods = methodBytes(from: methodLists)
        let pattern = bytes(from: patterns)
        let methodsBlock = heapCopy(methods), patternBlock = heapCopy(pattern)
        defer {
            free(methodsBlock)
            free(patternBlock)
        }
        let priority: Int32 = input.chance(1, in: 4) ? input.pick([1, -1, Int32.max, Int32.min]) : 0
        let id = routeID()
        memset(errorBlock, 0x5A, errorSize)
        let before = frRouterCount(router)
        let status = frRouterAddMethods(router, methodsBlock, UInt(methods.count), patternBlock, UInt(pattern.count),
                                        priority, id, errorBlock)
        let text = "\(show(methods)) \(show(pattern))"
        let meaning = meaning(ofMethodList: methods)
        if router == nil || id == FR_NO_ROUTE {
            require(status == FR_EINVAL, "fr_router_add_methods(\(text)) on NULL or reserved id gave \(status)")
        } else if methods.count > methodListLimit {
            require(status == FR_EINVAL, "fr_router_add_methods(\(text)), a \(methods.count)-byte list, gave \(status)")
        } else {
            switch meaning {
            case .invalid:
                require(status == FR_EINVAL || status == FR_EPATTERN || status == FR_EREGEX,
                        "fr_router_add_methods(\(text)), an invalid list, gave \(status)")
            case .names(let names):
                namesMaybeKnown.formUnion(names)
                if namesKnown.union(names).count > 64 {
                    require(status != FR_OK,
                            "fr_router_add_methods(\(text)) beyond 64 method names gave \(status)")
                }
                if namesMaybeKnown.count <= 64 && !namesUntracked {
                    require(status != FR_EINVAL, "fr_router_add_methods(\(text)) gave FR_EINVAL within 64 names")
                }
            case .any:
                require(status != FR_EINVAL, "fr_router_add_methods(\(text)) for any method gave FR_EINVAL")
            case .unclear:
                namesUntracked = true
            }
            require([FR_OK, FR_EINVAL, FR_EPATTERN, FR_EREGEX, FR_EDUPLICATE].contains(status),
                    "fr_router_add_methods(\(text)) returned \(status)")
        }
        if status == FR_OK {
            counts[id, default: 0] += 1
            if case .names(let names) = meaning { namesKnown.formUnion(names) }
        }
        require(status == FR_OK || frRouterCount(router) == before, "failed fr_router_add_methods(\(text)) changed the count")
        let code = UnsafeRawPointer(errorBlock).load(as: Int32.self)
        let offset = UnsafeRawPointer(errorBlock).load(fromByteOffset: errorOffsetField, as: Int.self)
        let message = UnsafeMutableRawPointer(errorBlock) + errorMessageField
        require(code == status, "fr_error.code \(code) but fr_router_add_methods(\(text)) returned \(status)")
        if status == FR_EPATTERN || status == FR_EREGEX {
            require(offset < max(pattern.count, 1), "fr_error.offset \(offset) outside the pattern of \(text)")
        }
        guard let end = memchr(message, 0, 256) else {
            require(false, "fr_error.message of fr_router_add_methods(\(text)) is not NUL-terminated")
            return
        }
        let messageBytes = Array(UnsafeRawBufferPointer(start: message, count: UnsafeRawPointer(end) - UnsafeRawPointer(message)))
        require((status == FR_OK) == messageBytes.isEmpty && !messageBytes.contains(UInt8(ascii: "\n")) &&
                isStrictUTF8(messageBytes), "fr_error.message \(show(messageBytes)) for \(text) (status \(status))")
    }

    /// The route ids of every candidate `m` walks from its current result (consumed).
    func candidateIDs(_ m: OpaquePointer?, first status: Int32) -> [UInt64] {
        var ids: [UInt64] = []
        var status = status
        while status == FR_OK {
            ids.append(frMatchRouteID(m))
            status = frMatchNext(m)
        }
        return ids
    }

    mutating func lookUpMethod() {
        let method = methodBytes(from: methodNames)
        var url = bytes(from: urls)
        if input.chance(1, in: 32) {
            let unit = url.isEmpty ? Array("/a".utf8) : url
            url = Array(repeatElement(unit, count: 70_000 / unit.count + 1).joined())
        }
        free(urlBlock)
        urlBlock = heapCopy(url)
        let methodBlock = heapCopy(method)
        defer { free(methodBlock) }
        let status = frRouterMatchMethod(router, methodBlock, UInt(method.count), urlBlock, UInt(url.count), match)
        matchedRouter = router
        nextAllowed = true
        countsAtLookup = counts
        let text = "\(show(method)) \(show(url))"
        // A method over 64 KiB is refused whatever its bytes (include/fastrouter.h).
        let validMethod = method.isEmpty || (method.count <= 65_536 && isToken(method[...]))
        if router == nil || match == nil {
            require(status == FR_EINVAL, "fr_router_match_method(\(text)) on NULL gave \(status)")
            resetAfterFailedLookup()
            return
        }
        require([FR_OK, FR_NOMATCH, FR_NOMETHOD, FR_EURL, FR_EINVAL].contains(status),
                "fr_router_match_method(\(text)) returned \(status)")
        // fr_router_match's answer to the same URL, on the probe match.
        let plain = frRouterMatch(router, urlBlock, UInt(url.count), probe)
        if !validMethod {
            require(status == FR_EINVAL || (status == FR_EURL && plain == FR_EURL),
                    "fr_router_match_method(\(text)), not a token, gave \(status)")
        } else if method.isEmpty || (namesMaybeKnown.isEmpty && !namesUntracked) {
            // No method, or only routes for any method: exactly fr_router_match.
            require(status == plain, "fr_router_match_method(\(text)) gave \(status), fr_router_match \(plain)")
            if status == FR_OK && input.chance(1, in: 4) {
                let filtered = candidateIDs(match, first: status)
                require(filtered == candidateIDs(probe, first: plain), "fr_router_match_method(\(text)) candidates differ")
                matchIsCurrent = false
                allowIsCurrent = false
                return
            }
        } else {
            switch plain {
            case FR_NOMATCH, FR_EURL:
                require(status == plain, "fr_router_match_method(\(text)) gave \(status), fr_router_match \(plain)")
            case FR_OK:
                require(status == FR_OK || status == FR_NOMETHOD,
                        "fr_router_match_method(\(text)) gave \(status) where fr_router_match matched")
            default:
                require(false, "fr_router_match(\(show(url))) returned \(plain)")
            }
            if status == FR_OK && input.chance(1, in: 4) {
                // The filtered candidates are fr_router_match's, in the same order, some left out.
                // A HEAD request (fallback on) puts the route naming HEAD before an earlier route
                // of its shape (docs/SEMANTICS.md §3.7): only the candidates are compared then.
                let filtered = candidateIDs(match, first: status)
                let reorders = headFallback && method == Array("HEAD".utf8)
                var all = candidateIDs(probe, first: plain)[...]
                for id in filtered {
                    guard let index = all.firstIndex(of: id) else {
                        require(false, "fr_router_match_method(\(text)) candidates \(filtered) are not in fr_router_match's order")
                        break
                    }
                    if reorders { all.remove(at: index) } else { all = all[(index + 1)...] }
                }
                matchIsCurrent = false
                allowIsCurrent = false
                return
            }
        }
        matchIsCurrent = status == FR_OK
        allowIsCurrent = status == FR_NOMETHOD
        if matchIsCurrent { readCurrent(url) }
        if status == FR_NOMETHOD { checkAllowValue(method) }
    }

    /// The Allow value after FR_NOMETHOD for `method` is well-formed.
    func checkAllowValue(_ method: [UInt8]) {
        var needed = -1
        require(frMatchAllow(match, nil, 0, &needed) == FR_ENOMEM && needed > 0, "FR_NOMETHOD without an Allow value")
        let buffer = malloc(needed + 1)!.assumingMemoryBound(to: CChar.self)
        defer { free(buffer) }
        var again = -1
        require(frMatchAllow(match, buffer, UInt(needed + 1), &again) == FR_OK && again == needed && buffer[needed] == 0,
                "fr_match_allow with \(needed + 1) bytes")
        let value = Array(UnsafeRawBufferPointer(start: buffer, count: needed))
        let names = value.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false).enumerated().map { index, item in
            index == 0 ? Array(item) : Array(item.dropFirst())
        }
        let shown = show(value)
        require(names.allSatisfy { isToken($0[...]) } && Array(names.joined(separator: Array(", ".utf8))) == value,
                "Allow value \(shown) is not \"token, token\"")
        require(Set(names).count == names.count, "Allow value \(shown) repeats a method")
        require(!names.contains(method), "Allow value \(shown) has the method \(show(method)) that got FR_NOMETHOD")
        let standard = names.compactMap { standardMethods.firstIndex(of: $0) }
        require(standard == standard.sorted() && names.prefix(standard.count).allSatisfy { standardMethods.contains($0) },
                "Allow value \(shown) is not in RFC 9110 order")
        let get = Array("GET".utf8), head = Array("HEAD".utf8)
        if headFallback {
            require(!names.contains(get) || names.contains(head), "Allow value \(shown) has GET without HEAD")
            if method == head { require(!names.contains(get), "HEAD got FR_NOMETHOD with GET allowed: \(shown)") }
        }
        for name in names where !namesMaybeKnown.contains(name) && !namesUntracked {
            require(headFallback && name == head && names.contains(get), "Allow value \(shown) names \(show(name)), never registered")
        }
    }

    mutating func allowValue() {
        var length = -1
        let current = allowIsCurrent == true && match != nil && frMatchAllow(match, nil, 0, &length) == FR_ENOMEM
        let capacity = input.pick([0, 1, 4, 16, 256, max(length, 0), max(length, 0) + 1, max(length, 0) + 2])
        let buffer = capacity > 0 ? malloc(capacity)!.assumingMemoryBound(to: CChar.self) : nil
        defer { free(buffer) }
        if let buffer { memset(buffer, 0x5A, capacity) }
        var needed = -1
        let withNeeded = input.chance(3, in: 4)
        let status = withNeeded ? frMatchAllow(match, buffer, UInt(capacity), &needed)
            : frMatchAllow(match, buffer, UInt(capacity), nil)
        if match == nil {
            require(status == FR_EINVAL, "fr_match_allow(NULL) gave \(status)")
            if withNeeded { require(needed == 0, "fr_match_allow(NULL) set *needed to \(needed)") }
            return
        }
        guard let isCurrent = allowIsCurrent else { return }
        if !isCurrent {
            require(status == FR_ENOTFOUND, "fr_match_allow without FR_NOMETHOD gave \(status)")
            if withNeeded { require(needed == 0, "fr_match_allow without FR_NOMETHOD set *needed to \(needed)") }
            return
        }
        require(current, "fr_match_allow after FR_NOMETHOD has no value")
        if withNeeded { require(needed == length, "fr_match_allow: *needed \(needed), earlier \(length)") }
        if capacity >= length + 1 {
            require(status == FR_OK && buffer![length] == 0 && strlen(buffer!) == length,
                    "fr_match_allow into \(capacity) bytes for \(length) gave \(status)")
        } else {
            require(status == FR_ENOMEM, "fr_match_allow into \(capacity) bytes for \(length) gave \(status)")
            for index in 0..<capacity {
                require(buffer![index] == 0x5A, "fr_match_allow wrote into a buffer too small (\(capacity) for \(length))")
            }
        }
    }
}

/// libFuzzer entry point: runs the input as a program of up to 200 C ABI calls.
@_cdecl("LLVMFuzzerTestOneInput")
public func cabiFuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    // Every publication checks the version it publishes and that it frees nothing reachable.
    PublishedTables.checksEveryUpdate = true
    var session = Session(FuzzInput(UnsafeBufferPointer(start: data, count: size)))
    var steps = 0
    while !session.input.isExhausted && steps < 200 {
        session.step()
        steps += 1
    }
    session.finish()
    return 0
}
