import CFastRouter
import Testing
@testable import FastRouter
@testable import FastRouterCABI

/// The C boundary's mapping of Swift results onto the header's `FR_*` constants.
@Suite struct CStatusMappingTests {
    /// Every router error has its own status, the one its raw value documents, and the text
    /// `fr_strerror` returns for it is the error's message.
    @Test(arguments: RouterError.Code.allCases)
    func everyErrorCodeMapsToItsHeaderStatus(_ code: RouterError.Code) {
        let status = FRStatus.of(code)
        #expect(status == code.rawValue)
        #expect(FRStatus.code(of: status) == code)
        #expect(String(cString: fr_strerror(status)) == code.message)
    }

    /// A lookup's status is its C number as it is (the C entry points return it unmapped).
    @Test func lookupStatusesMapToOutcomesAndErrors() {
        #expect(LookupStatus.found.rawValue == Int32(FR_OK) && LookupStatus.noMatch.rawValue == Int32(FR_NOMATCH))
        #expect(LookupStatus.invalidURL.rawValue == Int32(FR_EURL) && LookupStatus.invalidMethod.rawValue == Int32(FR_EINVAL))
        #expect(LookupStatus.methodNotAllowed.rawValue == Int32(FR_NOMETHOD))
        #expect(FRStatus.of(LookupStatus.found) == Int32(FR_OK))
        #expect(FRStatus.of(LookupStatus.noMatch) == Int32(FR_NOMATCH))
        #expect(FRStatus.of(LookupStatus.invalidURL) == Int32(FR_EURL))
        #expect(FRStatus.of(LookupStatus.methodNotAllowed) == Int32(FR_NOMETHOD) && FR_NOMETHOD == 2)
        #expect(FRStatus.of(LookupStatus.invalidMethod) == Int32(FR_EINVAL))
        #expect(String(cString: fr_strerror(Int32(FR_NOMETHOD))) == "method not allowed")
        #expect(Set(RouterError.Code.allCases.map(FRStatus.of)).count == RouterError.Code.allCases.count)
        #expect(String(cString: fr_strerror(Int32(FR_OK))) == "ok")
        #expect(String(cString: fr_strerror(Int32(FR_NOMATCH))) == "no match")
        #expect(String(cString: fr_strerror(42)) == "unknown status")
    }

    @Test func versionIsTheHeaders() {
        #expect(String(cString: fr_version()) == FR_VERSION)
    }

    /// The error struct is written through the header's own layout, message cut at a character.
    @Test func errorStructIsWrittenThroughTheHeaderLayout() {
        var error = fr_error()
        fr_error.store(code: Int32(FR_EPATTERN), offset: 7, message: String(repeating: "é", count: 200), to: &error)
        #expect(error.code == Int32(FR_EPATTERN) && error.offset == 7)
        let message = withUnsafeBytes(of: &error.message) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
        #expect(message.utf8.count == 254 && message == String(repeating: "é", count: 127))
    }
}
