// swift_lookup_loop.swift — lookup_loop.c's twin for the Swift value API: a fixed number of
// `Router.match` calls, for counting instructions.
//
//     swift_lookup_loop ROUTES URLS LOOKUPS
//
// Registers every pattern of ROUTES (route id and value = its position), then matches the URLs of
// URLS in turn: two warm-up passes, in which every URL must match, then LOOKUPS
// matches in perfLookups(), called once. Each measured match reads the value, the route id and
// the bytes of every (name, value) parameter (`Parameters.forEachUTF8`), as lookup_loop.c reads
// each `fr_str`: the value a caller gets, read without making strings. `make perf` runs it under
// callgrind with collection on inside perfLookups() only.
//
// With methods (the `-methods` files: "GET /users/:id", "GET /users/42"), routes are registered
// with theirs and, when the URL lines carry methods, every match is `Router.match(_:method:)`
// and the measured function is perfMethodLookups().
import FastRouter

#if canImport(Glibc)
import Glibc
#endif

func lines(_ path: String) -> [String] {
    guard let file = fopen(path, "rb") else { fatalError("\(path): cannot open") }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65536)
    while true {
        let count = fread(&chunk, 1, chunk.count, file)
        if count <= 0 { break }
        bytes += chunk[..<count]
    }
    return String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: true)
        .map(String.init).filter { !$0.hasPrefix("#") }
}

/// A line's method, when it starts with one (upper-case letters, then spaces or tabs, then more),
/// and the rest of the line.
func splitMethod(_ line: String) -> (method: HTTPMethod?, rest: String) {
    let bytes = Array(line.utf8)
    var end = 0
    while end < bytes.count && bytes[end] >= UInt8(ascii: "A") && bytes[end] <= UInt8(ascii: "Z") { end += 1 }
    var rest = end
    while rest < bytes.count && (bytes[rest] == UInt8(ascii: " ") || bytes[rest] == UInt8(ascii: "\t")) { rest += 1 }
    guard end > 0, rest > end, rest < bytes.count else { return (nil, line) }
    guard let method = HTTPMethod(rawValue: String(decoding: bytes[..<end], as: UTF8.self)) else { return (nil, line) }
    return (method, String(decoding: bytes[rest...], as: UTF8.self))
}

@inline(never) @_silgen_name("perfLookups")
func perfLookups(_ router: Router<Int>, _ urls: [String], _ lookups: Int) -> Int {
    var checksum = 0
    var index = 0
    for _ in 0..<lookups {
        if let match = try? router.match(urls[index]) {
            checksum &+= match.value &+ Int(match.routeID)
            match.parameters.forEachUTF8 { name, value in checksum &+= name.count &+ value.count }
        }
        index += 1
        if index == urls.count { index = 0 }
    }
    return checksum
}

@inline(never) @_silgen_name("perfMethodLookups")
func perfMethodLookups(_ router: Router<Int>, _ urls: [String], _ methods: [HTTPMethod], _ lookups: Int) -> Int {
    var checksum = 0
    var index = 0
    for _ in 0..<lookups {
        if case .matched(let match)? = try? router.match(urls[index], method: methods[index]) {
            checksum &+= match.value &+ Int(match.routeID)
            match.parameters.forEachUTF8 { name, value in checksum &+= name.count &+ value.count }
        }
        index += 1
        if index == urls.count { index = 0 }
    }
    return checksum
}

let arguments = CommandLine.arguments
guard arguments.count == 4, let lookups = Int(arguments[3]) else {
    fatalError("usage: swift_lookup_loop ROUTES URLS LOOKUPS")
}
let routes = lines(arguments[1]).map(splitMethod)
let requests = lines(arguments[2]).map(splitMethod)
// Each worker thread of a server owns its request strings.
let urls = requests.map { String(decoding: Array($0.rest.utf8), as: UTF8.self) }
// A URL without a method, among URLs with methods, asks as GET.
let methods = requests.contains { $0.method != nil } ? requests.map { $0.method ?? .get } : nil
let router = Router<Int>()
do {
    try router.add(contentsOf: routes.enumerated().map { index, route in
        Route(route.rest, methods: route.method.map { [$0] } ?? [], id: UInt64(index), value: index)
    })
} catch {
    fatalError("\(error)")
}
for _ in 0..<2 {
    for (line, url) in urls.enumerated() {
        let matched: Bool
        if let methods {
            matched = (try? router.match(url, method: methods[line]))?.match != nil
        } else {
            matched = (try? router.match(url)) != nil
        }
        guard matched else { fatalError("line \(line + 1): \(url) did not match") }
    }
}
print(lookups)
if let methods {
    print(perfMethodLookups(router, urls, methods, lookups))
} else {
    print(perfLookups(router, urls, lookups))
}
