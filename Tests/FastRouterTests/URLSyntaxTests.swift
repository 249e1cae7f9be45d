@testable import FastRouter
import Testing

/// The URL syntax both scans share (``URLSyntax``), and the two scans reading it alike.
@Suite struct URLSyntaxTests {
    static func withBytes<R>(_ text: String, _ body: (UnsafePointer<UInt8>, Int) -> R) -> R {
        Array(text.utf8).withUnsafeBufferPointer { body($0.baseAddress!, $0.count) }
    }

    @Test(arguments: [
        ("http://h/", 4), ("a:", 1), ("a+b.c-9:rest", 7), ("HTTPS:", 5),
        ("1a:", nil), ("ab", nil), ("a?b:", nil), ("a#b:", nil), (":x", nil), ("/a:b", nil), ("a", nil),
    ] as [(String, Int?)])
    func schemeIsLettersThenSchemeBytesThenAColon(url: String, length: Int?) {
        #expect(Self.withBytes(url) { URLSyntax.schemeLength($0, $1) } == length)
    }

    @Test func anAuthorityIsTwoSlashesAndEndsAtSlashQuestionMarkOrHash() {
        #expect(Self.withBytes("x://h") { URLSyntax.authorityFollows($0, at: 2, length: $1) })
        #expect(!Self.withBytes("x:/h") { URLSyntax.authorityFollows($0, at: 2, length: $1) })
        #expect(!Self.withBytes("x:/") { URLSyntax.authorityFollows($0, at: 2, length: $1) })
        for byte in UInt8(0)...UInt8(255) {
            #expect(URLSyntax.endsAuthority(byte) == (byte == 0x2F || byte == 0x3F || byte == 0x23), "\(byte)")
        }
    }

    /// A URL read where it is and the same URL decoded (an escape sends it to the slow path)
    /// give the same route, query pairs and fragment.
    @Test(arguments: [
        "http://host/a?x=1&y=2#frag", "http://host/a#frag?x=1", "http://host/a?x=1", "http://host/a#",
        "/a?x=1#f", "/a#f", "/a?", "app://host/a?x=1#f", "http://host?x=1", "http://host#f",
    ])
    func bothScansReadQueriesAndFragmentsAlike(url: String) throws {
        let router = Router<Int>()
        try router.add("/a", value: 1)
        try router.add("app://host/a", value: 2)
        try router.add("/", value: 3)
        let plain = try router.match(url)
        let escaped = try router.match(url.replacingFirst("/a", with: "/%61"))
        #expect(plain?.value == escaped?.value, "\(url)")
        #expect(plain.map { Array($0.parameters.map { "\($0.name)=\($0.value)" }) }
                    == escaped.map { Array($0.parameters.map { "\($0.name)=\($0.value)" }) }, "\(url)")
        #expect(plain?.fragment == escaped?.fragment, "\(url)")
    }
}

private extension String {
    /// The string with its first `target` replaced (itself when there is none).
    func replacingFirst(_ target: String, with replacement: String) -> String {
        guard let range = range(of: target) else { return self }
        return replacingCharacters(in: range, with: replacement)
    }
}
