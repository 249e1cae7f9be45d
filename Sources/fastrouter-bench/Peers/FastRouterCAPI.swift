import CBenchLoops
import CFastRouter

/// FastRouter through its C ABI, called exactly as a C program calls it: the declarations of
/// include/fastrouter.h, (pointer, length) URLs, one reusable `fr_match` per thread, and the
/// timed lookups in C (`CBenchLoops`), each reading the route id and every parameter.
final class FastRouterCAPI: MutableContender, @unchecked Sendable {
    // Safety: `router` is the thread-safe fr_router; `urls` is immutable after init.
    let router: OpaquePointer
    let urls: StringTable
    private(set) var build = BuildCost(seconds: 0, heapBytes: 0, residentBytes: 0)

    init(set: RouteSet) throws(BuildFailure) {
        guard let router = fr_router_new(0) else { throw BuildFailure(description: "fr_router_new returned NULL") }
        self.router = router
        urls = StringTable(set.requests.map(\.url))
        let patterns = StringTable(set.routes.map(\.pattern))
        let priorities = set.routes.map(\.priority)
        var error = fr_error()
        var failure: String?
        (_, build) = BuildCost.measure {
            for index in 0..<patterns.count {
                let (pointer, length) = patterns.string(index)
                let status = fr_router_add(router, pointer, length, priorities[index], UInt64(index), &error)
                if status != FR_OK {
                    failure = "fr_router_add(\(set.routes[index].pattern)): \(Self.describe(error, status: status))"
                    return
                }
            }
        }
        // Every stored property is set, so throwing runs `deinit`, which frees the router.
        if let failure { throw BuildFailure(description: failure) }
    }

    deinit { fr_router_free(router) }

    func makeWorker() -> Worker { Worker(router: router, urls: urls, match: MatchHandle()) }

    func add(pattern: String, id: UInt64) -> String? {
        var pattern = pattern
        return pattern.withUTF8 { bytes in
            var error = fr_error()
            let status = bytes.withMemoryRebound(to: CChar.self) { chars in
                fr_router_add(router, chars.baseAddress, chars.count, 0, id, &error)
            }
            return status == FR_OK ? nil : Self.describe(error, status: status)
        }
    }

    func remove(id: UInt64) -> Bool { fr_router_remove(router, id) == FR_OK }

    /// The status, its text and the error's offset and message, for a failed add.
    static func describe(_ error: fr_error, status: Int32) -> String {
        var message = error.message
        let text = withUnsafeBytes(of: &message) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
        return "status \(status) (\(String(cString: fr_strerror(status)))) at offset \(error.offset): \(text)"
    }

    /// One `fr_match`, freed with its last worker.
    final class MatchHandle {
        let pointer: OpaquePointer
        init() {
            guard let pointer = fr_match_new() else { fatalError("fr_match_new returned NULL: out of memory") }
            self.pointer = pointer
        }
        deinit { fr_match_free(pointer) }
    }

    struct Worker: LookupWorker {
        let router: OpaquePointer
        let urls: StringTable
        let match: MatchHandle

        @inline(__always)
        mutating func lookup(_ index: Int) -> UInt64 {
            let (pointer, length) = urls.string(index)
            return bench_fr_lookup(router, match.pointer, pointer, length)
        }

        @inline(__always)
        mutating func run(from first: Int, lookups: Int, count: Int) -> UInt64 {
            bench_fr_run(router, match.pointer, urls.base, urls.starts, count, first, lookups)
        }

        mutating func answer(_ index: Int) -> Answer {
            let (pointer, length) = urls.string(index)
            let status = fr_router_match(router, pointer, length, match.pointer)
            guard status == FR_OK else {
                return Answer(route: nil, parameters: [],
                              failure: status == FR_NOMATCH ? nil : "status \(status) (\(String(cString: fr_strerror(status))))")
            }
            var parameters: [Parameter] = []
            for position in 0..<fr_match_param_count(match.pointer) {
                var name = fr_str(), value = fr_str()
                guard fr_match_param_at(match.pointer, position, &name, &value) == FR_OK else {
                    return Answer(route: nil, parameters: parameters, failure: "fr_match_param_at(\(position)) failed")
                }
                parameters.append(Parameter(name: Self.text(name), value: Self.text(value)))
            }
            let id = fr_match_route_id(match.pointer)
            return Answer(route: id == UInt64.max ? nil : Int(id), parameters: parameters, failure: nil)
        }

        /// Copies an `fr_str` out (a NULL pointer reads as the empty string).
        static func text(_ str: fr_str) -> String {
            guard let pointer = str.ptr else { return "" }
            return String(decoding: UnsafeRawBufferPointer(start: pointer, count: str.len), as: UTF8.self)
        }
    }
}
