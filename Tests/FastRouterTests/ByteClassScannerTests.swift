import Testing
@testable import FastRouter

/// The scanner must answer exactly as PCRE2 does for the same source, or not be used at all.
@Suite struct ByteClassScannerTests {
    /// Sources the scanner takes over from PCRE2.
    static let recognized = [
        "[^/]+", "[a-z]+", "[a-z0-9-]+", "[A-Za-z0-9_]*", "\\d+", "\\w+", "[0-9]{4}", "[0-9a-f]{8,}",
        "[a-z]{2,3}", "[^.]+", "[\\w.-]+", "[\\d]+", "[-a]+", "[a-]+", "[^/]*", "[^a-z]+", "[a\\-z]+",
        "[.+*?()|{}$^]+", "[a-z-0]+", "[^ ]{0,}",
    ]

    /// Sources left to PCRE2: anything but one repeated class, and counted negated classes.
    static let declined = [
        "[a-z]", "abc", "[a-z]+?", "[a-z]++", "[]a]+", "[^]a]+", "[[:alpha:]]+", "(?i)[a-z]+", "[a-z]+|x",
        "^[a-z]+$", ".+", "\\D+", "[a-z", "[^/]{3}", "[^a]{1,2}", "\\s+", "[\\b]+", "[é]+", "[a-z]{,3}",
        "[z-a]+", "[a-z]+x",
    ]

    @Test(arguments: recognized)
    func recognizes(_ source: String) {
        #expect(ByteClassScanner.recognize(source) != nil, "\(source)")
    }

    @Test(arguments: declined)
    func declines(_ source: String) {
        #expect(ByteClassScanner.recognize(source) == nil, "\(source)")
    }

    /// Every recognized source against thousands of segments: ASCII of every kind, '/', spaces,
    /// and two-, three- and four-byte characters, at lengths from 0 to 12.
    @Test(arguments: recognized)
    func answersAsPCRE2(_ source: String) throws {
        let regex = try CompiledRegex(source: source, patternOffset: 0)
        let scanner = try #require(regex.scanner)
        let scratch = RegexScratch()
        let pieces = ["a", "z", "A", "Q", "0", "9", "-", "_", ".", "/", " ", "+", "é", "日", "😀", "]", "^", "\\", "x",
                      "5", "f", "*"]
        // Seeded by the source's bytes, so a failure replays.
        var generator = DifferentialScenario.SplitMix64(seed: source.utf8.reduce(7) { $0 &* 31 &+ UInt64($1) })
        var checked = 0
        for length in 0...12 {
            for _ in 0..<(length == 0 ? 1 : 300) {
                var text = ""
                for _ in 0..<length { text += pieces[Int(generator.next() % UInt64(pieces.count))] }
                let bytes = Array(text.utf8)
                let expected = bytes.withUnsafeBufferPointer { regex.matchWithPCRE2($0, scratch: scratch) }
                let actual = bytes.withUnsafeBufferPointer { scanner.matches($0) }
                #expect(actual == (expected == .matched), "\(source) on \"\(text)\"")
                checked += 1
            }
        }
        #expect(checked > 3000)
    }

    /// A router with a class constraint routes exactly as before the scanner existed.
    @Test func routesThroughTheScanner() throws {
        let router = Router<Int>()
        try router.add("/files/{name:[^/]+}", value: 1)
        try router.add("/tags/{tag:[a-z0-9-]{2,8}}", value: 2)
        try router.add("/tags/{tag}", value: 3)
        #expect(try router.match("/files/r%C3%A9sum%C3%A9.pdf")?.parameters["name"] == "résumé.pdf")
        #expect(try router.match("/files/a%2Fb") == nil)  // a decoded '/' is not in [^/]
        #expect(try router.match("/tags/swift-6")?.value == 2)
        #expect(try router.match("/tags/s")?.value == 3)
        #expect(try router.match("/tags/too-long-tag")?.value == 3)
        #expect(try router.match("/tags/Swift")?.value == 3)
    }
}
