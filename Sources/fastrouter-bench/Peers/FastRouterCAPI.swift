import FastRouter

/// FastRouter through its C ABI: the Swift functions behind the `fr_*` exports, called
/// directly with (pointer, length) URLs, one reusable `fr_match` per thread.
final class FastRouterCAPI: MutableContender, @unchecked Sendable {
    // Safety: `router` is the thread-safe fr_router; `urls` is immutable after init.
    let router: OpaquePointer
    let urls: StringTable
    private(set) var build = BuildCost(seconds: 0, heapBytes: 0, residentBytes: 0)

    /// Sizes of the C structs the exports write through raw pointers (SPEC §4).
    static let strSize = 16          // fr_str: const char *, size_t
    static let errorSize = 272       // fr_error: int, size_t, char[256]
    static let errorMessageOffset = 16

    init(set: RouteSet) throws(BuildFailure) {
        guard let router = frRouterNew(0) else { throw BuildFailure(description: "fr_router_new returned NULL") }
        self.router = router
        urls = StringTable(set.requests.map(\.url))
        let patterns = StringTable(set.routes.map(\.pattern))
        let priorities = set.routes.map(\.priority)
        let error = UnsafeMutableRawPointer.allocate(byteCount: Self.errorSize, alignment: 8)
        defer { error.deallocate() }
        var failure: String?
        (_, build) = BuildCost.measure {
            for index in 0..<patterns.count {
                let (pointer, length) = patterns.string(index)
                let status = frRouterAdd(router, pointer, UInt(length), priorities[index], UInt64(index), error)
                if status != 0 {
                    failure = "fr_router_add(\(set.routes[index].pattern)): \(Self.describe(error: error, status: status))"
                    return
                }
            }
        }
        // Every stored property is set, so throwing runs `deinit`, which frees the router.
        if let failure { throw BuildFailure(description: failure) }
    }

    deinit { frRouterFree(router) }

    func makeWorker() -> Worker { Worker(router: router, urls: urls, match: MatchHandle()) }

    func add(pattern: String, id: UInt64) -> String? {
        var pattern = pattern
        return pattern.withUTF8 { bytes in
            let error = UnsafeMutableRawPointer.allocate(byteCount: Self.errorSize, alignment: 8)
            defer { error.deallocate() }
            let status = bytes.withMemoryRebound(to: CChar.self) { chars in
                frRouterAdd(router, chars.baseAddress, UInt(chars.count), 0, id, error)
            }
            return status == 0 ? nil : Self.describe(error: error, status: status)
        }
    }

    func remove(id: UInt64) -> Bool { frRouterRemove(router, id) == 0 }

    static func describe(error: UnsafeMutableRawPointer, status: Int32) -> String {
        let offset = error.load(fromByteOffset: 8, as: Int.self)
        let message = String(cString: (error + errorMessageOffset).assumingMemoryBound(to: CChar.self))
        return "status \(status) (\(String(cString: frStrerror(status)))) at offset \(offset): \(message)"
    }

    /// One `fr_match`, freed with its last worker.
    final class MatchHandle {
        let pointer: OpaquePointer
        init() {
            guard let pointer = frMatchNew() else { fatalError("fr_match_new returned NULL: out of memory") }
            self.pointer = pointer
        }
        deinit { frMatchFree(pointer) }
    }

    struct Worker: LookupWorker {
        let router: OpaquePointer
        let urls: StringTable
        let match: MatchHandle

        @inline(__always)
        mutating func lookup(_ index: Int) -> UInt64 {
            let (pointer, length) = urls.string(index)
            _ = frRouterMatch(router, pointer, UInt(length), match.pointer)
            return frMatchRouteID(match.pointer)
        }

        mutating func answer(_ index: Int) -> Answer {
            let (pointer, length) = urls.string(index)
            let status = frRouterMatch(router, pointer, UInt(length), match.pointer)
            guard status == 0 else {
                return Answer(route: nil, parameters: [],
                              failure: status == 1 ? nil : "status \(status) (\(String(cString: frStrerror(status))))")
            }
            let strings = UnsafeMutableRawPointer.allocate(byteCount: 2 * FastRouterCAPI.strSize, alignment: 8)
            defer { strings.deallocate() }
            var parameters: [Parameter] = []
            for position in 0..<frMatchParamCount(match.pointer) {
                guard frMatchParamAt(match.pointer, UInt(position), strings, strings + FastRouterCAPI.strSize) == 0 else {
                    return Answer(route: nil, parameters: parameters, failure: "fr_match_param_at(\(position)) failed")
                }
                parameters.append(Parameter(name: Self.text(strings), value: Self.text(strings + FastRouterCAPI.strSize)))
            }
            let id = frMatchRouteID(match.pointer)
            return Answer(route: id == UInt64.max ? nil : Int(id), parameters: parameters, failure: nil)
        }

        /// Copies an `fr_str` out (a NULL pointer reads as the empty string).
        static func text(_ str: UnsafeMutableRawPointer) -> String {
            let pointer = str.load(as: UnsafePointer<UInt8>?.self)
            let length = str.load(fromByteOffset: 8, as: Int.self)
            guard let pointer else { return "" }
            return String(decoding: UnsafeBufferPointer(start: pointer, count: length), as: UTF8.self)
        }
    }
}
