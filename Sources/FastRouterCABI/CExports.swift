import CFastRouter
import FastRouter
import FastRouterLint

// The C ABI of include/fastrouter.h: one @c export per function. Each checks its arguments,
// converts pointers to Swift values and maps results to FR_* statuses; the routing itself is
// RouterCore's and MatchScratch's.
//
// `fr_router *` is an unmanaged +1 reference to a RouterCore, `fr_match *` one to a MatchScratch.
// The other C types (`fr_str`, `fr_error`) are the header's own structs (module CFastRouter).

// MARK: Conversions

/// The router behind an `fr_router *`.
///
/// Safety: `pointer` came from `fr_router_new` and was not freed (the caller's contract).
@inline(__always)
private func routerCore(_ pointer: OpaquePointer) -> Unmanaged<RouterCore> {
    Unmanaged<RouterCore>.fromOpaque(UnsafeRawPointer(pointer))
}

/// The scratch behind an `fr_match *`.
///
/// Safety: `pointer` came from `fr_match_new` and was not freed (the caller's contract).
@inline(__always)
private func matchScratch(_ pointer: OpaquePointer) -> Unmanaged<MatchScratch> {
    Unmanaged<MatchScratch>.fromOpaque(UnsafeRawPointer(pointer))
}

/// The bytes of a C (pointer, length) string, or `nil` for NULL with a non-zero length.
///
/// A length above `limit` is clamped to it. Callers pass one byte more than the longest input
/// the next stage accepts, so an oversized input is still rejected by that stage (with its own
/// status and message) while no more than `limit` bytes are ever read or copied; a `size_t`
/// beyond `Int.max` cannot wrap around to a negative count.
///
/// Safety: `pointer` addresses `length` readable bytes when it is not NULL (the caller's contract).
@inline(__always)
private func bytes(_ pointer: UnsafePointer<CChar>?, _ length: UInt, limit: Int = Int.max) -> UnsafeBufferPointer<UInt8>? {
    let count = length > UInt(limit) ? limit : Int(length)
    guard let pointer else { return count == 0 ? UnsafeBufferPointer(start: nil, count: 0) : nil }
    return UnsafeBufferPointer(start: UnsafeRawPointer(pointer).assumingMemoryBound(to: UInt8.self), count: count)
}

/// The string of one `fr_str`, or `nil` when it is not valid UTF-8 or has NULL with a length.
private func string(_ value: fr_str) -> String? {
    guard let buffer = bytes(value.ptr, UInt(value.len)) else { return nil }
    return String(validating: buffer, as: UTF8.self)
}

/// Copies `text` and a NUL into `buffer` when `capacity` allows, for fr_router_url, fr_router_dump
/// and fr_router_lint.
///
/// Returns `FR_OK`, or `FR_ENOMEM` (buffer untouched) when `capacity` < length + 1;
/// `needed` gets the length either way.
private func copyOut(_ text: String, _ buffer: UnsafeMutablePointer<CChar>?, _ capacity: UInt,
                     _ needed: UnsafeMutablePointer<Int>?) -> Int32 {
    var text = text
    return text.withUTF8 { utf8 in
        needed?.pointee = utf8.count
        guard let buffer, capacity > UInt(utf8.count) else { return FRStatus.outOfMemory }
        if let base = utf8.baseAddress {
            UnsafeMutableRawPointer(buffer).copyMemory(from: base, byteCount: utf8.count)
        }
        buffer[utf8.count] = 0
        return FRStatus.ok
    }
}

/// The longest pattern handed to the parser: one byte over its limit, so an oversized pattern is
/// reported by the parser without the whole of it being copied.
private let patternLengthLimit = PatternParser.maxLength + 1

// MARK: Version and status texts

/// `fr_version`: the library version, a static NUL-terminated string.
@c(fr_version)
package func frVersion() -> UnsafePointer<CChar> {
    UnsafeRawPointer(frVersionText.utf8Start).assumingMemoryBound(to: CChar.self)
}

/// `fr_strerror`: a static description of a status code ("unknown status" for others).
@c(fr_strerror)
package func frStrerror(_ code: Int32) -> UnsafePointer<CChar> {
    UnsafeRawPointer(FRStatus.description(of: code).utf8Start).assumingMemoryBound(to: CChar.self)
}

// MARK: fr_router

/// `fr_router_new`: a new router, or NULL for unknown flag bits.
@c(fr_router_new)
package func frRouterNew(_ flags: UInt32) -> OpaquePointer? {
    guard let options = FRFlag.options(flags) else { return nil }
    return OpaquePointer(Unmanaged.passRetained(RouterCore(options: options)).toOpaque())
}

/// `fr_router_free`: releases a router; NULL does nothing.
@c(fr_router_free)
package func frRouterFree(_ router: OpaquePointer?) {
    guard let router else { return }
    routerCore(router).release()
}

/// `fr_router_add`: registers a route; writes `err` (an `fr_error *`) whenever it is given.
@c(fr_router_add)
package func frRouterAdd(_ router: OpaquePointer?, _ pattern: UnsafePointer<CChar>?, _ length: UInt,
                         _ priority: Int32, _ routeID: UInt64, _ err: UnsafeMutablePointer<fr_error>?) -> Int32 {
    addRoute(router, methods: nil, 0, pattern, length, priority, routeID, err)
}

/// `fr_router_add_methods`: registers a route for a comma-separated list of methods; writes
/// `err` whenever it is given.
@c(fr_router_add_methods)
package func frRouterAddMethods(_ router: OpaquePointer?, _ methods: UnsafePointer<CChar>?, _ methodsLength: UInt,
                                _ pattern: UnsafePointer<CChar>?, _ length: UInt, _ priority: Int32, _ routeID: UInt64,
                                _ err: UnsafeMutablePointer<fr_error>?) -> Int32 {
    addRoute(router, methods: methods, methodsLength, pattern, length, priority, routeID, err)
}

/// Both adds: checks the arguments in order (router, methods, pattern, id), registers the route
/// for `methods` (a list as `fr_router_add_methods` takes it; NULL with 0 for any method) and
/// writes `err` whenever it is given.
private func addRoute(_ router: OpaquePointer?, methods: UnsafePointer<CChar>?, _ methodsLength: UInt,
                      _ pattern: UnsafePointer<CChar>?, _ length: UInt, _ priority: Int32, _ routeID: UInt64,
                      _ err: UnsafeMutablePointer<fr_error>?) -> Int32 {
    func fail(_ message: String) -> Int32 {
        fr_error.store(code: FRStatus.invalidArgument, offset: 0, message: message, to: err)
        return FRStatus.invalidArgument
    }
    guard let router else { return fail("router is NULL") }
    // Clamped one byte past the limit, so that an over-long list is told apart without reading it all.
    guard let methods = bytes(methods, methodsLength, limit: methodListLimit + 1) else {
        return fail("methods is NULL but its length is not 0")
    }
    guard methods.count <= methodListLimit else { return fail("the method list is longer than 16 KiB") }
    guard let pattern = bytes(pattern, length, limit: patternLengthLimit) else {
        return fail("pattern is NULL but its length is not 0")
    }
    guard routeID != frNoRoute else { return fail("route id UINT64_MAX is reserved (FR_NO_ROUTE)") }
    do {
        try routerCore(router).takeUnretainedValue().add(pattern: pattern, methods: methods, priority: priority,
                                                         id: routeID)
    } catch {
        fr_error.store(code: FRStatus.of(error.code), offset: error.offset, message: error.message, to: err)
        return FRStatus.of(error.code)
    }
    fr_error.storeSuccess(to: err)
    return FRStatus.ok
}

/// The longest method list read: 16 KiB, more than 64 names with separators need in practice.
private let methodListLimit = 16 * 1024

/// `fr_router_remove`: removes every route with `routeID`.
@c(fr_router_remove)
package func frRouterRemove(_ router: OpaquePointer?, _ routeID: UInt64) -> Int32 {
    guard let router, routeID != frNoRoute else { return FRStatus.invalidArgument }
    let removed = routerCore(router)._withUnsafeGuaranteedRef { $0.remove(id: routeID) }
    return removed > 0 ? FRStatus.ok : FRStatus.notFound
}

/// `fr_router_count`: routes as registered; 0 for NULL.
@c(fr_router_count)
package func frRouterCount(_ router: OpaquePointer?) -> Int {
    guard let router else { return 0 }
    return routerCore(router)._withUnsafeGuaranteedRef { $0.count }
}

/// `fr_router_url`: reverse routing into a caller's buffer; `names` and `values` are `fr_str` arrays.
@c(fr_router_url)
package func frRouterURL(_ router: OpaquePointer?, _ routeID: UInt64, _ names: UnsafePointer<fr_str>?,
                         _ values: UnsafePointer<fr_str>?, _ count: UInt, _ buffer: UnsafeMutablePointer<CChar>?,
                         _ capacity: UInt, _ needed: UnsafeMutablePointer<Int>?) -> Int32 {
    needed?.pointee = 0
    guard let router, routeID != frNoRoute, buffer != nil || capacity == 0, count <= UInt(Int.max / 16) else {
        return FRStatus.invalidArgument
    }
    var parameters: [(name: String, value: String)] = []
    if count > 0 {
        guard let names, let values else { return FRStatus.invalidArgument }
        parameters.reserveCapacity(Int(count))
        for index in 0..<Int(count) {
            guard let name = string(names[index]),
                  let value = string(values[index]) else { return FRStatus.invalidArgument }
            parameters.append((name, value))
        }
    }
    let url: String
    do {
        url = try routerCore(router).takeUnretainedValue().url(for: routeID, parameters: parameters)
    } catch {
        return FRStatus.of(error.code)
    }
    return copyOut(url, buffer, capacity, needed)
}

/// `fr_router_dump`: a readable listing of the tables into a caller's buffer.
@c(fr_router_dump)
package func frRouterDump(_ router: OpaquePointer?, _ buffer: UnsafeMutablePointer<CChar>?, _ capacity: UInt,
                          _ needed: UnsafeMutablePointer<Int>?) -> Int32 {
    needed?.pointee = 0
    guard let router, buffer != nil || capacity == 0 else { return FRStatus.invalidArgument }
    let listing = routerCore(router)._withUnsafeGuaranteedRef { $0.dump() }
    return copyOut(listing, buffer, capacity, needed)
}

/// `fr_router_lint`: the linter's report on the router's tables into a caller's buffer, with
/// the buffer conventions of `fr_router_dump`.
@c(fr_router_lint)
package func frRouterLint(_ router: OpaquePointer?, _ buffer: UnsafeMutablePointer<CChar>?, _ capacity: UInt,
                          _ needed: UnsafeMutablePointer<Int>?) -> Int32 {
    needed?.pointee = 0
    guard let router, buffer != nil || capacity == 0 else { return FRStatus.invalidArgument }
    let report = routerCore(router)._withUnsafeGuaranteedRef { $0.lintReport() }
    return copyOut(report, buffer, capacity, needed)
}

// MARK: fr_match

/// `fr_match_new`: a reusable lookup state holding no result.
@c(fr_match_new)
package func frMatchNew() -> OpaquePointer? {
    OpaquePointer(Unmanaged.passRetained(MatchScratch()).toOpaque())
}

/// `fr_match_free`: releases a lookup state; NULL does nothing.
@c(fr_match_free)
package func frMatchFree(_ match: OpaquePointer?) {
    guard let match else { return }
    matchScratch(match).release()
}

/// `fr_router_match`: the best route for a URL, written into `match`. The hot path: no
/// allocation and no reference counting here, so a warm `fr_match` keeps lookups allocation-free.
@c(fr_router_match)
package func frRouterMatch(_ router: OpaquePointer?, _ url: UnsafePointer<CChar>?, _ length: UInt,
                           _ match: OpaquePointer?) -> Int32 {
    guard let match else { return FRStatus.invalidArgument }
    return matchScratch(match)._withUnsafeGuaranteedRef { scratch in
        // Over-long lengths are clamped to one byte past the URL limit, which the scanner rejects
        // as FR_EURL before reading.
        guard let router, let url = bytes(url, length, limit: MatchScratch.maxURLLength + 1) else {
            scratch.clearResult()
            return FRStatus.invalidArgument
        }
        // The lookup's own function returns the C status: the call is a jump (see matchStatus).
        return routerCore(router)._withUnsafeGuaranteedRef { core in
            core.mayAnswerByPath ? pathMatchStatus(core, url, scratch) : matchStatus(core, url, scratch)
        }
    }
}

/// `fr_router_match_method`: the best route for a method and a URL, written into `match`. The
/// hot path, like `fr_router_match`.
@c(fr_router_match_method)
package func frRouterMatchMethod(_ router: OpaquePointer?, _ method: UnsafePointer<CChar>?, _ methodLength: UInt,
                                 _ url: UnsafePointer<CChar>?, _ length: UInt, _ match: OpaquePointer?) -> Int32 {
    guard let match else { return FRStatus.invalidArgument }
    return matchScratch(match)._withUnsafeGuaranteedRef { scratch in
        // A method over 64 KiB is refused like a NULL one: it cannot be a method anyone serves,
        // and checking it whole would make a lookup's cost the caller's choice.
        guard let router, let url = bytes(url, length, limit: MatchScratch.maxURLLength + 1),
              methodLength <= UInt(maxMethodLength), let method = bytes(method, methodLength) else {
            scratch.clearResult()
            return FRStatus.invalidArgument
        }
        return routerCore(router)._withUnsafeGuaranteedRef { core in
            // GET on tables that may answer by the path: tested here, so that the lookup's frame
            // is that answer's alone.
            guard core.mayAnswerByPath else { return methodStatus(core, method: method, url, scratch) }
            return isGET(method) ? pathGETStatus(core, method: method, url, scratch) : methodStatus(core, method: method, url, scratch)
        }
    }
}

/// The longest method `fr_router_match_method` takes (64 KiB): a literal (see
/// ``HTTPMethod/maxLength``), folded into the check.
@inline(__always)
private var maxMethodLength: Int { HTTPMethod.maxLength }

/// `fr_match_allow`: the `Allow` value after `FR_NOMETHOD`, into a caller's buffer.
@c(fr_match_allow)
package func frMatchAllow(_ match: OpaquePointer?, _ buffer: UnsafeMutablePointer<CChar>?, _ capacity: UInt,
                          _ needed: UnsafeMutablePointer<Int>?) -> Int32 {
    needed?.pointee = 0
    guard let match, buffer != nil || capacity == 0 else { return FRStatus.invalidArgument }
    return matchScratch(match)._withUnsafeGuaranteedRef { scratch in
        // Measure first, then write: a buffer too small is left untouched.
        var length = 0
        let present = scratch.forEachAllowedMethod { name in length += (length == 0 ? 0 : 2) + name.count }
        needed?.pointee = length
        guard present else {
            if let buffer, capacity > 0 { buffer[0] = 0 }
            return FRStatus.notFound
        }
        guard let buffer, capacity > UInt(length) else { return FRStatus.outOfMemory }
        var offset = 0
        _ = scratch.forEachAllowedMethod { name in
            if offset != 0 {
                buffer[offset] = CChar(UInt8(ascii: ","))
                buffer[offset + 1] = CChar(UInt8(ascii: " "))
                offset += 2
            }
            UnsafeMutableRawPointer(buffer + offset).copyMemory(from: name.baseAddress!, byteCount: name.count)
            offset += name.count
        }
        buffer[offset] = 0
        return FRStatus.ok
    }
}

/// `fr_match_next`: declines the current result for the next candidate.
@c(fr_match_next)
package func frMatchNext(_ match: OpaquePointer?) -> Int32 {
    guard let match else { return FRStatus.invalidArgument }
    return FRStatus.of(matchScratch(match)._withUnsafeGuaranteedRef { $0.next() })
}

/// `fr_match_route_id`: the current route id, or `FR_NO_ROUTE`.
@c(fr_match_route_id)
package func frMatchRouteID(_ match: OpaquePointer?) -> UInt64 {
    guard let match else { return frNoRoute }
    return matchScratch(match)._withUnsafeGuaranteedRef { $0.routeIDWithoutPayloads }
}

/// `fr_match_param_count`: pairs of the current result; 0 without one.
@c(fr_match_param_count)
package func frMatchParamCount(_ match: OpaquePointer?) -> Int {
    guard let match else { return 0 }
    return matchScratch(match)._withUnsafeGuaranteedRef { $0.parameterCount }
}

/// `fr_match_param_at`: the pair at `index`; `name` and `value` are optional `fr_str *`.
@c(fr_match_param_at)
package func frMatchParamAt(_ match: OpaquePointer?, _ index: UInt, _ name: UnsafeMutablePointer<fr_str>?,
                            _ value: UnsafeMutablePointer<fr_str>?) -> Int32 {
    guard let match else {
        name?.pointee = .absent
        value?.pointee = .absent
        return FRStatus.invalidArgument
    }
    let pair = matchScratch(match)._withUnsafeGuaranteedRef { scratch in
        index <= UInt(Int.max) ? scratch.parameter(at: Int(index)) : nil
    }
    guard let pair else {
        name?.pointee = .absent
        value?.pointee = .absent
        return FRStatus.notFound
    }
    name?.pointee = fr_str(pair.name)
    value?.pointee = fr_str(pair.value)
    return FRStatus.ok
}

/// `fr_match_param`: the value of the first pair named `name`; `value` is an optional `fr_str *`.
@c(fr_match_param)
package func frMatchParam(_ match: OpaquePointer?, _ name: UnsafePointer<CChar>?, _ length: UInt,
                          _ value: UnsafeMutablePointer<fr_str>?) -> Int32 {
    guard let match, let name = bytes(name, length) else {
        value?.pointee = .absent
        return FRStatus.invalidArgument
    }
    guard let found = matchScratch(match)._withUnsafeGuaranteedRef({ $0.parameter(named: name) }) else {
        value?.pointee = .absent
        return FRStatus.notFound
    }
    value?.pointee = fr_str(found)
    return FRStatus.ok
}

/// `fr_match_fragment`: the raw fragment of the matched URL, or `{NULL, 0}`.
@c(fr_match_fragment)
package func frMatchFragment(_ match: OpaquePointer?) -> fr_str {
    guard let match,
          let fragment = matchScratch(match)._withUnsafeGuaranteedRef({ $0.fragmentBytes }) else {
        return .absent
    }
    return fr_str(fragment)
}

/// Where a router made by `fr_router_new` keeps its bytes, part by part (the benchmark's
/// breakdown; not part of the C ABI).
package func memoryBreakdown(ofCRouter router: OpaquePointer) -> MemoryBreakdown {
    routerCore(router)._withUnsafeGuaranteedRef { $0.memoryBreakdown() }
}
