@testable import FastRouter
import Testing

/// The plain-path scan (docs/SEMANTICS.md §3.2, §3.4): which paths it walks where they are, where
/// their walk ends, and that the paths it leaves to the full scan get the same answers there.
@Suite struct PlainPathScanTests {
    /// Where ``ScratchState/scanPlainPath(_:_:)`` ends the walk of `path`, -1 when it is not plain.
    static func plainEnd(_ path: String) -> Int {
        var path = path
        return path.withUTF8 { ScratchState.scanPlainPath($0.baseAddress, $0.count).end }
    }

    @Test(arguments: [
        ("/", 0), ("/a", 2), ("/a/", 2), ("/ab", 3), ("/abc/", 4), ("/abcdef/", 7), ("/abcdefghijklmn/", 15),
        ("/abcdefghijklmno/", 16), ("/a/b/c/d/e/f/g/h/i/j/k/", 22), ("/users/42", 9), ("/a.b-c_d~e:f@g=h+i,j;k'l(m)n*o", 30),
    ])
    func plainPathsEndBeforeOneTrailingSlash(path: String, end: Int) {
        #expect(Self.plainEnd(path) == end)
    }

    @Test(arguments: [
        "", "a", "//", "//a", "/a//", "/a//b", "/abcdef//", "/abcdefghijklm//", "/abcdefghijklmnopqrstu//v",
        "/a?b", "/a#b", "/a%41", "/a b", "/a!b", "/a$b", "/a\"b", "/é", "/a\u{0}b", "/" + String(repeating: "a", count: 2048),
    ])
    func everythingElseGoesToTheFullScan(path: String) {
        #expect(Self.plainEnd(path) == -1)
    }

    /// A "/" in each of the two overlapping words of a short path is no "//" unless the bytes
    /// are side by side in the path.
    @Test func slashesAcrossTheOverlapAreNotAPair() {
        for length in 2...15 {
            for first in 0..<length {
                for second in (first + 1)..<length {
                    var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: length)
                    bytes[0] = UInt8(ascii: "/")
                    bytes[first] = UInt8(ascii: "/")
                    bytes[second] = UInt8(ascii: "/")
                    let path = String(decoding: bytes, as: UTF8.self)
                    let hasPair = zip(bytes, bytes.dropFirst()).contains { $0 == UInt8(ascii: "/") && $1 == UInt8(ascii: "/") }
                    let end = Self.plainEnd(path)
                    #expect((end == -1) == hasPair, "\(path)")
                    if !hasPair { #expect(end == (bytes.last == UInt8(ascii: "/") ? length - 1 : length), "\(path)") }
                }
            }
        }
    }

    /// The scan's mask has bit i exactly where byte i of the path's first 64 bytes is `/` or
    /// the path's end (a trailing `/` marks its own), for every length up to 80 and `/`s anywhere
    /// (not side by side).
    @Test func segmentEndMaskMarksEverySlashAndTheEndInTheFirst64Bytes() {
        var random = DifferentialScenario.SplitMix64(seed: 7)
        for length in 1...80 {
            for _ in 0..<40 {
                var bytes = [UInt8](repeating: UInt8(ascii: "b"), count: length)
                bytes[0] = UInt8(ascii: "/")
                for index in 1..<max(length, 1) where random.next() % 4 == 0 && bytes[index - 1] != UInt8(ascii: "/") {
                    bytes[index] = UInt8(ascii: "/")
                }
                let scanned = bytes.withUnsafeBufferPointer { ScratchState.scanPlainPath($0.baseAddress, $0.count) }
                var expected: UInt64 = 0
                for (index, byte) in bytes.prefix(64).enumerated() where byte == UInt8(ascii: "/") {
                    expected |= 1 << UInt64(index)
                }
                if length < 64 && bytes.last != UInt8(ascii: "/") { expected |= 1 << UInt64(length) }
                #expect(scanned.end == (bytes.last == UInt8(ascii: "/") ? length - 1 : length))
                #expect(scanned.slashes == expected, "\(String(decoding: bytes, as: UTF8.self))")
            }
        }
    }

    /// A segment's hash and last partial word as the definition states them, byte by byte:
    /// whole little-endian words mixed in order, then the 0 to 7 bytes left, zero-padded.
    static func referenceSegment(_ bytes: ArraySlice<UInt8>) -> (hash: UInt64, tail: UInt64) {
        func word(_ slice: ArraySlice<UInt8>) -> UInt64 {
            slice.reversed().reduce(0) { $0 << 8 | UInt64($1) }
        }
        var hash: UInt64 = 0
        var index = bytes.startIndex
        while bytes.endIndex - index >= 8 {
            hash = SegmentHash.mix(hash, word(bytes[index..<(index + 8)]))
            index += 8
        }
        let tail = word(bytes[index...])
        return (SegmentHash.finish(hash, tail: tail), tail)
    }

    /// A segment's first word, loaded in one go wherever it lies and however much of the buffer
    /// may be read, is its label's (the label's first 8 bytes, zero-padded); in a buffer of
    /// fewer than 8 bytes, read byte by byte, too. (A path has no empty segment.)
    @Test func headsLoadAsTheirLabels() {
        let text = Array("/ab/abcdefghijklmnop/0123456789/x/12345678/".utf8)
        text.withUnsafeBufferPointer { buffer in
            let base = buffer.baseAddress!
            for start in 0..<text.count {
                for end in (start + 1)...text.count where !text[start..<end].contains(UInt8(ascii: "/")) {
                    for readable in Set([end, min(end + 3, text.count), text.count]) {
                        let label = Array(text[start..<end])
                        #expect(SegmentHash.head(base, from: start, end: end, readable: readable) == SegmentHash.head(of: label),
                                "\(start)..<\(end) of \(readable)")
                    }
                }
            }
        }
    }

    /// A URL's segment hashes as the definition says and as the editor hashes the same label,
    /// wherever it lies and however much of the buffer may be read past it.
    @Test func segmentsHashAsTheirLabels() {
        let text = Array("/abcdefghijklmnopqrstuvwxyz/0123456789/x/12345678/".utf8)
        text.withUnsafeBufferPointer { buffer in
            let base = buffer.baseAddress!
            for start in 0..<text.count {
                for end in start...text.count where !text[start..<end].contains(UInt8(ascii: "/")) {
                    for readable in [end, text.count] {
                        let segment = SegmentHash.hash(base, from: start, end: end, readable: readable)
                        let reference = Self.referenceSegment(text[start..<end])
                        #expect(segment.end == end)
                        #expect(segment.hash == reference.hash && segment.tail == reference.tail, "\(start)..<\(end)")
                        #expect(SegmentHash.of(Array(text[start..<end])) == reference.hash, "\(start)..<\(end)")
                        #expect(SegmentHash.segment(Array(text[start..<end])).tail == reference.tail, "\(start)..<\(end)")
                    }
                }
            }
        }
    }

    /// The walk finds every segment's end from windows of `/` positions, whatever the path's
    /// length and however the buffer ends: a long path with a query (the full scan, no window
    /// from the scan) and a plain path past 64 bytes reach the same routes as short ones.
    @Test func segmentEndsPast64Bytes() throws {
        let router = Router<Int>()
        let long = String(repeating: "l", count: 70)
        try router.add("/a/:x/b", value: 1)
        try router.add("/\(long)/:y", value: 2)
        try router.add("/a/\(long)/c/:z", value: 3)
        try router.add("/files/*rest", value: 4)
        let cases: [(String, Int?, [String])] = [
            ("/a/\(long)/b", 1, [long]), ("/a/\(long)/b?q=1", 1, [long, "1"]),
            ("/\(long)/v", 2, ["v"]), ("/\(long)/v/", 2, ["v"]), ("/\(long)/\(long)x", 2, [long + "x"]),
            ("/a/\(long)/c/\(long)", 3, [long]), ("/a/\(long)/c/z?k=\(long)", 3, ["z", long]),
            ("/files/\(long)/\(long)/x", 4, ["\(long)/\(long)/x"]), ("/a/\(long)/d", nil, []),
        ]
        for (url, value, parameters) in cases {
            let match = try router.match(url)
            #expect(match?.value == value, "\(url)")
            #expect(match.map { $0.parameters.map(\.value) } ?? [] == parameters, "\(url)")
        }
        // Paths ending on either side of the window's last bit (byte 63), with and without a
        // trailing `/`, and one segment longer still.
        for length in 60...67 {
            let value = String(repeating: "v", count: length - 3)
            // "/a/:x" is not a route; "/a/:x/b" is.
            for url in ["/a/\(value)", "/a/\(value)/"] { #expect(try router.match(url) == nil, "\(url)") }
            for url in ["/a/\(value)/b", "/a/\(value)/b/"] {
                let match = try router.match(url)
                #expect(match?.value == 1, "\(url)")
                #expect(match?.parameters.first?.value == value, "\(url)")
            }
        }
        // A window filled near the buffer's end reads its last 16 bytes: a last segment that
        // starts past byte 64 and ends anywhere, plain or decoded (`%76` is a `v`).
        for tail in 1...40 {
            let value = String(repeating: "v", count: tail)
            for url in ["/a/\(long)/c/\(value)", "/a/\(long)/c/\(value)/", "/a/\(long)/c/%76\(value)"] {
                let match = try router.match(url)
                #expect(match?.value == 3, "\(url)")
                #expect(match?.parameters.first?.value == (url.contains("%") ? "v" + value : value), "\(url)")
            }
        }
    }

    /// Plain or not, a URL reaches the same route with the same parameters.
    @Test func plainAndFullScansAgree() throws {
        let router = Router<Int>()
        try router.add("/", value: 0)
        try router.add("/a", value: 1)
        try router.add("/a/:x", value: 2)
        try router.add("/files/*rest", value: 3)
        let cases: [(String, Int?, [String])] = [
            ("/", 0, []), ("/a", 1, []), ("/a/", 1, []), ("/a/b", 2, ["b"]), ("/a/b/", 2, ["b"]),
            ("/a//b", 2, ["b"]), ("//a", 1, []), ("/a?q=1", 1, ["1"]), ("/a/%62", 2, ["b"]), ("/a/b!", 2, ["b!"]),
            ("/files/", 3, [""]), ("/files/x/y/", 3, ["x/y"]), ("/b", nil, []),
        ]
        for (url, value, parameters) in cases {
            let match = try router.match(url)
            #expect(match?.value == value, "\(url)")
            #expect(match.map { $0.parameters.map(\.value) } ?? [] == parameters, "\(url)")
        }
    }
}
