import Testing
@testable import FastRouter

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

private func compile(_ source: String, sourceLocation: SourceLocation = #_sourceLocation) -> CompiledRegex? {
    do throws(RouterError) {
        return try CompiledRegex(source: source, patternOffset: 0)
    } catch {
        Issue.record("\(source) does not compile: \(error)", sourceLocation: sourceLocation)
        return nil
    }
}

private func outcome(_ regex: CompiledRegex, _ bytes: [UInt8], scratch: RegexScratch = RegexScratch()) -> RegexOutcome {
    bytes.withUnsafeBufferPointer { regex.match($0, scratch: scratch) }
}

private func outcome(_ regex: CompiledRegex, _ text: String, scratch: RegexScratch = RegexScratch()) -> RegexOutcome {
    outcome(regex, Array(text.utf8), scratch: scratch)
}

/// Wall-clock seconds taken by `body`; only for generous upper bounds, never for performance claims.
private func seconds(_ body: () -> Void) -> Double {
    var start = timespec()
    var end = timespec()
    clock_gettime(CLOCK_MONOTONIC, &start)
    body()
    clock_gettime(CLOCK_MONOTONIC, &end)
    return Double(end.tv_sec - start.tv_sec) + Double(end.tv_nsec - start.tv_nsec) / 1e9
}

@Suite struct RegexConstraintTests {
    @Test func matchIsAnchoredAtBothEnds() throws {
        let letters = try #require(compile("[a-z]+"))
        #expect(outcome(letters, "abc") == .matched)
        #expect(outcome(letters, "abc1") == .failed)
        #expect(outcome(letters, "1abc") == .failed)
        #expect(outcome(letters, "ab-c") == .failed)
        let animals = try #require(compile("cat|dog"))
        #expect(outcome(animals, "dog") == .matched)
        #expect(outcome(animals, "cats") == .failed)
        #expect(outcome(animals, "hotdog") == .failed)
        // End anchoring must make PCRE2 try the longer alternative rather than stop at "a".
        let prefix = try #require(compile("a|ab"))
        #expect(outcome(prefix, "ab") == .matched)
    }

    @Test func patternsRunInUTFMode() throws {
        let any = try #require(compile("."))
        #expect(outcome(any, "é") == .matched)
        #expect(outcome(any, "😀") == .matched)
        #expect(outcome(any, "ab") == .failed)
        let accented = try #require(compile("caf[éè]"))
        #expect(outcome(accented, "café") == .matched)
        #expect(outcome(accented, "cafe") == .failed)
    }

    @Test func ordinaryRegexesWork() throws {
        let code = try #require(compile("[a-z]+-[0-9]{2,4}"))
        #expect(outcome(code, "abc-12") == .matched)
        #expect(outcome(code, "abc-12345") == .failed)
        let version = try #require(compile("v[0-9]+(\\.[0-9]+)*"))
        #expect(outcome(version, "v1") == .matched)
        #expect(outcome(version, "v1.20.3") == .matched)
        #expect(outcome(version, "v1.") == .failed)
        #expect(outcome(version, "1.2") == .failed)
    }

    @Test func ordinaryRegexesWorkOn64KiBSegments() throws {
        let scratch = RegexScratch()
        let code = try #require(compile("[a-z]+-[0-9]{2,4}"))
        let letters = [UInt8](repeating: UInt8(ascii: "q"), count: 65_533) + Array("-12".utf8)
        #expect(outcome(code, letters, scratch: scratch) == .matched)

        let version = try #require(compile("v[0-9]+(\\.[0-9]+)*"))
        var dotted: [UInt8] = [UInt8(ascii: "v"), UInt8(ascii: "1")]
        while dotted.count < 65_536 { dotted += Array(".7".utf8) }
        #expect(dotted.count == 65_536)
        #expect(outcome(version, dotted, scratch: scratch) == .matched)
        // A mismatch at the very end backtracks through every repetition and still reports a plain failure.
        #expect(outcome(version, dotted + [UInt8(ascii: ".")], scratch: scratch) == .failed)

        let alternation = try #require(compile("(a|b)*"))
        #expect(outcome(alternation, [UInt8](repeating: UInt8(ascii: "a"), count: 65_536), scratch: scratch) == .matched)
    }

    @Test func interpreterLimitsAlsoFitOrdinaryRegexesOn64KiB() throws {
        // (*NO_JIT) forces the interpreter: the path taken where JIT is unavailable.
        let version = try #require(compile("(*NO_JIT)v[0-9]+(\\.[0-9]+)*"))
        #expect(!version.isJITCompiled)
        var dotted: [UInt8] = [UInt8(ascii: "v"), UInt8(ascii: "1")]
        while dotted.count < 65_536 { dotted += Array(".7".utf8) }
        #expect(outcome(version, dotted) == .matched)
    }

    @Test func catastrophicBacktrackingStopsAtTheLimit() throws {
        let subject = [UInt8](repeating: UInt8(ascii: "a"), count: 10 * 1024) + [UInt8(ascii: "b")]
        let scratch = RegexScratch()
        for source in ["(a+)+$", "(*NO_JIT)(a+)+$", "(a|aa)+$"] {
            let regex = try #require(compile(source))
            var result = RegexOutcome.matched
            let elapsed = seconds { result = outcome(regex, subject, scratch: scratch) }
            #expect(result == .limitExceeded || result == .failed, "\(source)")
            #expect(elapsed < 2, "\(source) took \(elapsed) s")
        }
    }

    @Test func hittingALimitIsReportedAsLimitExceeded() throws {
        // A pattern may lower (never raise) the match limit; this makes the outcome deterministic.
        let regex = try #require(compile("(*LIMIT_MATCH=50)(a+)+$"))
        #expect(outcome(regex, String(repeating: "a", count: 30) + "b") == .limitExceeded)
        #expect(outcome(regex, "aaa") == .matched)
        let shallow = try #require(compile("(*NO_JIT)(*LIMIT_DEPTH=100)v[0-9]+(\\.[0-9]+)*"))
        #expect(outcome(shallow, "v1" + String(repeating: ".2", count: 1000)) == .limitExceeded)
        #expect(outcome(shallow, "v1.2") == .matched)
        let catastrophic = try #require(compile("(a+)+$"))
        #expect(outcome(catastrophic, [UInt8](repeating: UInt8(ascii: "a"), count: 10 * 1024) + [UInt8(ascii: "b")])
                == .limitExceeded)
    }

    @Test func jitIsUsedWhereAvailable() throws {
        let regex = try #require(compile("[0-9]+"))
        #if os(Linux) && (arch(x86_64) || arch(arm64))
        #expect(regex.isJITCompiled)
        #endif
        #expect(regex.source == "[0-9]+")
    }

    @Test func compileErrorsCarryOffsetAndMessage() {
        let cases: [(source: String, offset: Int, words: String)] = [
            ("a(", 2, "missing closing parenthesis"),
            ("*a", 0, "quantifier does not follow"),
            ("[z-a]", 3, "range out of order"),
            ("a)", 1, "unmatched closing parenthesis"),
        ]
        for entry in cases {
            do throws(RouterError) {
                _ = try CompiledRegex(source: entry.source, patternOffset: 100)
                Issue.record("\(entry.source) compiled")
            } catch {
                #expect(error.code == .invalidRegex)
                #expect(error.offset == 100 + entry.offset, "\(entry.source): \(error)")
                #expect(error.message.contains(entry.words), "\(entry.source): \(error.message)")
            }
        }
    }

    @Test func invalidUTF8SubjectFailsInsteadOfCrashing() throws {
        let regex = try #require(compile(".*"))
        #expect(outcome(regex, [0xFF]) == .failed)
        #expect(outcome(regex, [0x61, 0xC3]) == .failed)
        #expect(outcome(regex, [0xED, 0xA0, 0x80]) == .failed)
    }

    @Test func emptyBufferWithoutStorageIsSafe() throws {
        let regex = try #require(compile("a*"))
        #expect(regex.match(UnsafeBufferPointer(start: nil, count: 0), scratch: RegexScratch()) == .matched)
    }

    @Test func oneScratchServesManyRegexes() throws {
        let scratch = RegexScratch()
        let digits = try #require(compile("[0-9]+"))
        let letters = try #require(compile("[a-z]+"))
        for _ in 0..<100 {
            #expect(outcome(digits, "123", scratch: scratch) == .matched)
            #expect(outcome(letters, "123", scratch: scratch) == .failed)
            #expect(outcome(letters, "abc", scratch: scratch) == .matched)
        }
    }

    @Test func threadsShareOneCompiledRegex() async throws {
        let regex = try #require(compile("[a-z]+-[0-9]{2,4}"))
        let mismatches = await withTaskGroup(of: Int.self) { group in
            for worker in 0..<4 {
                group.addTask {
                    let scratch = RegexScratch()
                    var wrong = 0
                    for index in 0..<5_000 {
                        let good = Array("item-\(10 + (index + worker) % 9000)".utf8)
                        let bad = Array("item_\(index)".utf8)
                        if good.withUnsafeBufferPointer({ regex.match($0, scratch: scratch) }) != .matched { wrong += 1 }
                        if bad.withUnsafeBufferPointer({ regex.match($0, scratch: scratch) }) != .failed { wrong += 1 }
                    }
                    return wrong
                }
            }
            return await group.reduce(0, +)
        }
        #expect(mismatches == 0)
    }

    @Test func equalSourcesAreEqualRegexes() throws {
        let first = try #require(compile("[a-z]+"))
        let second = try #require(compile("[a-z]+"))
        let other = try #require(compile("[a-z]*"))
        #expect(first == second)
        #expect(first != other)
    }

    @Test func parsedPatternsCarryTheirCompiledRegexes() throws {
        let bytes = Array("/{x:[a-z]+}/{y:int}".utf8)
        let pattern = try bytes.withUnsafeBufferPointer { buffer throws(RouterError) in
            try PatternParser.parse(buffer, webSchemes: [])
        }
        let regex = try #require(pattern.regexes["[a-z]+"])
        #expect(pattern.regexes.count == 1)
        #expect(outcome(regex, "abc") == .matched)
        #expect(outcome(regex, "abc1") == .failed)
    }
}
