import CFastRouter
import Testing
@testable import FastRouter
@testable import FastRouterCABI
@testable import FastRouterLint

#if canImport(Glibc)
import Glibc
#endif

/// Regressions and agreements at the C boundary, called as the exports' Swift functions: the
/// same inputs through the C entry points and through the Swift core must give the same answers.
@Suite struct CABIRegressionTests {
    /// fuzz-pattern: `HHxXA://n\xD5%A7`. A raw byte that is not UTF-8 on its own (0xD5) followed by
    /// an escape completing it (%A7) decoded to valid UTF-8 (U+0567), so the pattern registered;
    /// but the router keeps the pattern as a String (0xD5 repaired to U+FFFD), which no longer
    /// parsed: fr_router_url answered FR_EPATTERN for a registered route. A pattern is text: its
    /// raw bytes must be UTF-8, so the pattern is refused at the raw byte, in Swift and in C alike.
    @Test func patternWithRawInvalidUTF8IsRefusedAtTheRawByte() throws {
        let pattern: [UInt8] = Array("/n".utf8) + [0xD5] + Array("%A7".utf8)
        let router = frRouterNew(0)
        defer { frRouterFree(router) }
        var error = fr_error()
        let added = pattern.withUnsafeBufferPointer { bytes in
            frRouterAdd(router, UnsafeRawPointer(bytes.baseAddress!).assumingMemoryBound(to: CChar.self),
                        UInt(bytes.count), 0, 1, &error)
        }
        #expect(added == RouterError.Code.invalidPattern.rawValue)
        #expect(error.offset == 2)
        #expect(frRouterCount(router) == 0)
        // The Swift core refuses the same bytes at the same offset.
        let core = RouterCore(options: RouterOptions())
        let swiftError = #expect(throws: RouterError.self) {
            try pattern.withUnsafeBufferPointer { try core.add(pattern: $0, priority: 0, id: 1, payload: nil) }
        }
        #expect(swiftError?.code == .invalidPattern && swiftError?.offset == 2)
        // A String holding the repaired text is refused too; the escaped form registers and round-trips.
        #expect(throws: RouterError.self) { try Router<Int>().add("/n\u{FFFD}%A7", value: 1) }
        let escaped = Router<Int>()
        let id = try escaped.add("/n%D5%A7", value: 1)
        #expect(try escaped.url(for: id) == "/n%D5%A7")
        #expect(try escaped.match("/n%D5%A7")?.routeID == id)
        #expect(escaped.lint().isEmpty)
    }

    /// Review: reverse routing with an empty value for a placeholder inside an optional group
    /// must leave the group out (placeholders match non-empty segments only) rather than fail
    /// or add "name=" to the query; a required placeholder's empty value and NUL anywhere stay
    /// invalid. Swift and C agree.
    @Test func emptyOptionalValuesLeaveTheirGroupOut() throws {
        let router = Router<Void>()
        let settings = try router.add("myapp://settings(/:section)(/{page:int})")
        let user = try router.add("/users/:id(/:tab)")
        #expect(try router.url(for: settings, parameters: ["section": ""]) == "myapp://settings")
        #expect(try router.url(for: settings, parameters: ["section": "", "page": "2"]) == "myapp://settings/2")
        #expect(try router.url(for: settings, parameters: ["section": "privacy", "page": ""]) == "myapp://settings/privacy")
        #expect(try router.url(for: user, parameters: ["id": "7", "tab": "", "q": ""]) == "/users/7?q=")
        #expect(throws: RouterError(.invalidArgument, offset: 0, "the value for parameter 'id' is empty")) {
            try router.url(for: user, parameters: ["id": "", "tab": "x"])
        }
        for parameters: KeyValuePairs<String, String> in [["id": "a\u{0}b"], ["id": "7", "tab": "\u{0}"],
                                                           ["id": "7", "q\u{0}": "v"], ["id": "7", "section": "\u{0}"]] {
            let error = #expect(throws: RouterError.self) { try router.url(for: user, parameters: parameters) }
            #expect(error?.code == .invalidArgument)
        }

        let c = frRouterNew(0)
        defer { frRouterFree(c) }
        #expect("myapp://settings(/:section)(/{page:int})".withCString { frRouterAdd(c, $0, UInt(strlen($0)), 0, 1, nil) } == 0)
        #expect("/users/:id(/:tab)".withCString { frRouterAdd(c, $0, UInt(strlen($0)), 0, 2, nil) } == 0)
        func build(_ id: UInt64, _ pairs: [(String, String)]) -> (Int32, String, Int) {
            let storage = pairs.flatMap { [Array($0.0.utf8), Array($0.1.utf8)] }.map { bytes -> UnsafeMutablePointer<CChar> in
                let copy = UnsafeMutablePointer<CChar>.allocate(capacity: max(bytes.count, 1))
                bytes.withUnsafeBytes { UnsafeMutableRawPointer(copy).copyMemory(from: $0.baseAddress ?? UnsafeRawPointer(copy), byteCount: bytes.count) }
                return copy
            }
            defer { storage.forEach { $0.deallocate() } }
            let names = pairs.indices.map { fr_str(ptr: UnsafePointer(storage[2 * $0]), len: pairs[$0].0.utf8.count) }
            let values = pairs.indices.map { fr_str(ptr: UnsafePointer(storage[2 * $0 + 1]), len: pairs[$0].1.utf8.count) }
            var buffer = [CChar](repeating: 0, count: 64)
            var needed = -1
            let status = names.withUnsafeBufferPointer { n in
                values.withUnsafeBufferPointer { v in
                    frRouterURL(c, id, n.baseAddress, v.baseAddress, UInt(pairs.count), &buffer, UInt(buffer.count), &needed)
                }
            }
            return (status, status == 0 ? String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) : "", needed)
        }
        #expect(build(1, [("section", "")]) == (0, "myapp://settings", 16))
        #expect(build(1, [("section", ""), ("page", "3")]) == (0, "myapp://settings/3", 18))
        #expect(build(2, [("id", "7"), ("tab", "")]) == (0, "/users/7", 8))
        #expect(build(2, [("id", ""), ("tab", "x")]).0 == RouterError.Code.invalidArgument.rawValue)
        #expect(build(2, [("id", "a\u{0}b")]).0 == RouterError.Code.invalidArgument.rawValue)
        #expect(build(2, [("id", "7"), ("tab", "\u{0}")]).0 == RouterError.Code.invalidArgument.rawValue)
        #expect(build(2, [("id", "7"), ("x\u{0}", "v")]).0 == RouterError.Code.invalidArgument.rawValue)
    }

    @Test func lintExportWritesTheReportWithTheDumpBufferConventions() throws {
        let router = frRouterNew(0)
        defer { frRouterFree(router) }
        for (pattern, priority, id) in [("/users/:id", Int32(1), UInt64(1)), ("/users/me", 0, 2)] {
            #expect(Array(pattern.utf8CString).withUnsafeBufferPointer {
                frRouterAdd(router, $0.baseAddress, UInt($0.count - 1), priority, id, nil)
            } == 0)
        }
        var needed = -1
        #expect(frRouterLint(router, nil, 0, &needed) == RouterError.Code.outOfMemory.rawValue)
        let expected = Unmanaged<RouterCore>.fromOpaque(UnsafeRawPointer(router!)).takeUnretainedValue().lintReport()
        #expect(needed == expected.utf8.count)
        var buffer = [CChar](repeating: 0x23, count: needed + 1)
        #expect(frRouterLint(router, &buffer, UInt(needed), &needed) == RouterError.Code.outOfMemory.rawValue)
        #expect(buffer[0] == 0x23)
        #expect(frRouterLint(router, &buffer, UInt(needed + 1), nil) == 0)
        #expect(String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) == expected)
        #expect(expected.hasSuffix("0 errors, 1 warning\n"))
        #expect(frRouterLint(nil, &buffer, UInt(buffer.count), &needed) == RouterError.Code.invalidArgument.rawValue)
        #expect(needed == 0)
        #expect(frRouterLint(router, nil, 4, &needed) == RouterError.Code.invalidArgument.rawValue)
    }
}
