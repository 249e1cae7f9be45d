// swift_lookup_loop.swift — lookup_loop.c's twin for the Swift value API: a fixed number of
// `Router.match` calls, for counting instructions.
//
//     swift_lookup_loop ROUTES URLS LOOKUPS
//
// Registers every pattern of ROUTES (route id and value = its position), then matches the URLs of
// URLS in turn: two warm-up passes, in which every URL must match, then LOOKUPS
// matches in perfLookups(), called once. Each measured match reads the value, the route id and
// every (name, value) parameter, as a caller would. `make perf` runs it under callgrind with
// collection on inside perfLookups() only.
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

@inline(never) @_silgen_name("perfLookups")
func perfLookups(_ router: Router<Int>, _ urls: [String], _ lookups: Int) -> Int {
    var checksum = 0
    var index = 0
    for _ in 0..<lookups {
        if let match = try? router.match(urls[index]) {
            checksum &+= match.value &+ Int(match.routeID)
            for parameter in match.parameters { checksum &+= parameter.name.utf8.count &+ parameter.value.utf8.count }
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
let patterns = lines(arguments[1])
// Each worker thread of a server owns its request strings.
let urls = lines(arguments[2]).map { String(decoding: Array($0.utf8), as: UTF8.self) }
let router = Router<Int>()
do {
    try router.add(contentsOf: patterns.enumerated().map { Route($1, id: UInt64($0), value: $0) })
} catch {
    fatalError("\(error)")
}
for _ in 0..<2 {
    for (line, url) in urls.enumerated() {
        guard (try? router.match(url)) != nil else { fatalError("line \(line + 1): \(url) did not match") }
    }
}
print(lookups)
print(perfLookups(router, urls, lookups))
