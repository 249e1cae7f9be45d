import FastRouter
import FastRouterDeepLinks
import Foundation
import Testing

/// What this module adds to the core's ``Parameters``: `uuid`, and lists that read like
/// deep-link arguments.
@Suite struct ParametersInteropTests {
    @Test func uuidReadsAnyCaseAndRejectsOtherText() throws {
        let router = Router<Int>()
        try router.add("/u/:id/:uuid", value: 1)
        let match = try #require(try router.match("/u/42/e621e1f8-C36C-495A-93FC-0C247A3E6E5F?q=not-a-uuid"))
        #expect(match.parameters.uuid("uuid") == UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"))
        #expect(match.parameters.uuid("id") == nil)
        #expect(match.parameters.uuid("q") == nil)
        #expect(match.parameters.uuid("missing") == nil)
    }

    /// A list reads every value of its name, path value first, as deep-link arguments do.
    @Test func listAgreesWithDeepLinkArguments() throws {
        let router = Router<Int>()
        try router.add("/t/:tags", value: 1)
        let match = try #require(try router.match("/t/a,b?tags=c&x=1&tags=d,,e&tags="))
        #expect(match.parameters.list("tags") == DeepLinkArguments(match.parameters).parameters.values("tags")
            .flatMap { $0.split(separator: ",").map(String.init) })
    }
}
