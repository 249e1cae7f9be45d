import CBenchLoops
import CFastRouter

/// FastRouter through its C ABI, called exactly as a C program calls it: the declarations of
/// include/fastrouter.h, (pointer, length) URLs, one reusable `fr_match` per thread, and the
/// timed lookups in C (`CBenchLoops`), each reading the route id and every parameter. A route
/// with methods is added with `fr_router_add_methods`, and a set looked up with methods goes
/// through `fr_router_match_method`.
final class FastRouterCAPI: MutableContender, @unchecked Sendable {
    // Safety: `router` is the thread-safe fr_router; `urls` and `methods` are immutable after init.
    let router: OpaquePointer
    let urls: StringTable
    /// Request i's method, laid out as `urls`; `nil` when the set is looked up without methods.
    let methods: StringTable?
    private(set) var build = BuildCost(seconds: 0, heapBytes: 0, residentBytes: 0)

    init(set: RouteSet) throws(BuildFailure) {
        guard let router = fr_router_new(0) else { throw BuildFailure(description: "fr_router_new returned NULL") }
        self.router = router
        urls = StringTable(set.requests.map(\.url))
        methods = set.looksUpMethods ? StringTable(set.requests.map { $0.method ?? "" }) : nil
        let patterns = StringTable(set.routes.map(\.pattern))
        let priorities = set.routes.map(\.priority)
        // "GET,POST", as fr_router_add_methods takes them; a route without methods is added with
        // fr_router_add, as every route of a set looked up without methods is.
        let routeMethods = set.routes.contains { !$0.methods.isEmpty }
            ? StringTable(set.routes.map { $0.methods.joined(separator: ",") }) : nil
        var error = fr_error()
        var failure: String?
        (_, build) = BuildCost.measure {
            for index in 0..<patterns.count {
                let (pointer, length) = patterns.string(index)
                let status: Int32
                if let routeMethods, !set.routes[index].methods.isEmpty {
                    let (methods, methodsLength) = routeMethods.string(index)
                    status = fr_router_add_methods(router, methods, methodsLength, pointer, length, priorities[index],
                                                   UInt64(index), &error)
                } else {
                    status = fr_router_add(router, pointer, length, priorities[index], UInt64(index), &error)
                }
                if status != FR_OK {
                    failure = "fr_router_add\(set.routes[index].methods.isEmpty ? "" : "_methods")(\(set.routes[index].pattern)): \(Self.describe(error, status: status))"
                    return
                }
            }
        }
        // Every stored property is set, so throwing runs `deinit`, which frees the router.
        if let failure { throw BuildFailure(description: failure) }
    }

    deinit { fr_router_free(router) }

    func makeWorker() -> Worker { Worker(router: router, urls: urls, methods: methods, match: MatchHandle()) }

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
        let methods: StringTable?
        let match: MatchHandle

        // The choice between the two C entry points is made once per call, outside the loops.
        @inline(__always)
        mutating func lookup(_ index: Int) -> UInt64 {
            let (pointer, length) = urls.string(index)
            guard let methods else { return bench_fr_lookup(router, match.pointer, pointer, length) }
            let (method, methodLength) = methods.string(index)
            return bench_fr_method_lookup(router, match.pointer, method, methodLength, pointer, length)
        }

        @inline(__always)
        mutating func run(from first: Int, lookups: Int, count: Int) -> UInt64 {
            guard let methods else { return bench_fr_run(router, match.pointer, urls.base, urls.starts, count, first, lookups) }
            return bench_fr_method_run(router, match.pointer, urls.base, urls.starts, methods.base, methods.starts, count,
                                       first, lookups)
        }

        mutating func answer(_ index: Int) -> Answer {
            let (pointer, length) = urls.string(index)
            let status: Int32
            if let methods {
                let (method, methodLength) = methods.string(index)
                status = fr_router_match_method(router, method, methodLength, pointer, length, match.pointer)
            } else {
                status = fr_router_match(router, pointer, length, match.pointer)
            }
            guard status == FR_OK else {
                if status == FR_NOMETHOD { return Answer(route: nil, parameters: [], failure: "405, Allow: \(allow())") }
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

        /// The Allow value after FR_NOMETHOD.
        func allow() -> String {
            var needed = 0
            _ = fr_match_allow(match.pointer, nil, 0, &needed)
            var buffer = [CChar](repeating: 0, count: needed + 1)
            guard fr_match_allow(match.pointer, &buffer, buffer.count, &needed) == FR_OK else { return "?" }
            return String(decoding: buffer.prefix(needed).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }

        /// Copies an `fr_str` out (a NULL pointer reads as the empty string).
        static func text(_ str: fr_str) -> String {
            guard let pointer = str.ptr else { return "" }
            return String(decoding: UnsafeRawBufferPointer(start: pointer, count: str.len), as: UTF8.self)
        }
    }
}
