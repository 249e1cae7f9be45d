import Testing
@testable import FastRouter

/// The two keys the rules of docs/SEMANTICS.md §3.1 and §3.6 are stated in: ``PrecedenceKey``
/// (the order of candidates) and ``DuplicateKey`` (what registration refuses).
@Suite struct PrecedenceKeyTests {
    typealias Key = PrecedenceKey<[UInt8]>

    static let literal = SegmentRank.literal.rawValue
    static let partial = SegmentRank.partial.rawValue
    static let constraint = SegmentRank.constraint.rawValue
    static let parameter = SegmentRank.parameter.rawValue
    static let end = SegmentRank.end.rawValue
    static let wildcard = SegmentRank.wildcard.rawValue

    static func key(priority: Int32 = 0, hostRank: UInt8 = 0, ranks: [UInt8] = [parameter, end],
                    sequence: UInt64 = 1, expansion: UInt16 = 0) -> Key {
        Key(priority: priority, hostRank: hostRank, ranks: ranks, sequence: sequence, expansion: expansion)
    }

    /// `first` comes before `second`, `field` decides, and the reverse comparison agrees.
    private func expectOrder(_ first: Key, _ second: Key, by field: PrecedenceField,
                             sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(first < second, sourceLocation: sourceLocation)
        #expect(!(second < first), sourceLocation: sourceLocation)
        let decision = Key.decision(first, second)
        #expect(decision?.field == field && decision?.lhsFirst == true, sourceLocation: sourceLocation)
        #expect(Key.decision(second, first)?.lhsFirst == false, sourceLocation: sourceLocation)
    }

    @Test func priorityDecidesFirst() {
        // Every later field favours the lower priority.
        let high = Self.key(priority: 1, hostRank: 0, ranks: [Self.wildcard], sequence: 9, expansion: 3)
        let low = Self.key(priority: 0, hostRank: 2, ranks: [Self.literal, Self.end], sequence: 1, expansion: 0)
        expectOrder(high, low, by: .priority)
        expectOrder(Self.key(priority: -1), Self.key(priority: Int32.min), by: .priority)
    }

    @Test func hostDecidesWhenPrioritiesTie() {
        let exact = Self.key(hostRank: HostRule.exact("a.com").rank, ranks: [Self.wildcard], sequence: 9)
        let suffix = Self.key(hostRank: HostRule.suffix(".a.com").rank, ranks: [Self.literal, Self.end], sequence: 1)
        let any = Self.key(hostRank: HostRule.any.rank, ranks: [Self.literal, Self.literal, Self.end], sequence: 0)
        expectOrder(exact, suffix, by: .host)
        expectOrder(suffix, any, by: .host)
    }

    @Test func pathDecidesSegmentBySegmentFromTheLeft() {
        // The first segment that differs decides, whatever follows.
        expectOrder(Self.key(ranks: [Self.literal, Self.parameter, Self.end], sequence: 9),
                    Self.key(ranks: [Self.parameter, Self.literal, Self.end], sequence: 1), by: .path)
        for (better, worse) in [(Self.literal, Self.partial), (Self.partial, Self.constraint),
                                (Self.constraint, Self.parameter), (Self.parameter, Self.wildcard)] {
            expectOrder(Self.key(ranks: [Self.literal, better, Self.end], sequence: 2),
                        Self.key(ranks: [Self.literal, worse, Self.end], sequence: 1), by: .path)
        }
    }

    @Test func aPathEndingWithTheURLBeatsAWildcardMatchingNothing() {
        // The tail is a rank too: end before wildcard.
        expectOrder(Self.key(ranks: [Self.literal, Self.end], sequence: 2),
                    Self.key(ranks: [Self.literal, Self.wildcard], sequence: 1), by: .path)
        // A wildcard that takes segments loses to any segment at its place.
        expectOrder(Self.key(ranks: [Self.literal, Self.parameter, Self.end], sequence: 2),
                    Self.key(ranks: [Self.literal, Self.wildcard], sequence: 1), by: .path)
    }

    @Test func registrationDecidesWhenSpecificityTies() {
        expectOrder(Self.key(ranks: [Self.constraint, Self.end], sequence: 3, expansion: 5),
                    Self.key(ranks: [Self.constraint, Self.end], sequence: 4, expansion: 0), by: .registration)
    }

    @Test func expansionOrderDecidesLast() {
        expectOrder(Self.key(sequence: 3, expansion: 0), Self.key(sequence: 3, expansion: 1), by: .expansion)
    }

    @Test func equalKeysComeInNoOrder() {
        let key = Self.key(priority: 2, hostRank: 1, ranks: [Self.literal, Self.end], sequence: 7, expansion: 1)
        #expect(!(key < key))
        #expect(Key.decision(key, key) == nil)
    }

    @Test func ignoringRegistrationLeavesSpecificity() {
        let a = Self.key(priority: 1, hostRank: 2, ranks: [Self.literal, Self.end], sequence: 3, expansion: 1)
        let b = Self.key(priority: 1, hostRank: 2, ranks: [Self.literal, Self.end], sequence: 8, expansion: 0)
        #expect(a != b)
        #expect(a.ignoringRegistration == b.ignoringRegistration)
        #expect(Key.decision(a.ignoringRegistration, b.ignoringRegistration) == nil)
        var c = b
        c.ranks = [Self.parameter, Self.end]
        #expect(c.ignoringRegistration != a.ignoringRegistration)
    }

    @Test func keysOfParsedPatterns() throws {
        let core = RouterCore(options: RouterOptions())
        let pattern = try core.parsedPattern("https://*.example.com/a/:b/{c:int}/{d}.{e}(/*rest)")
        let present = PrecedenceKey(pattern, expansion: 0, priority: 4, sequence: 9)
        #expect(present.ranks == [Self.literal, Self.parameter, Self.constraint, Self.partial, Self.wildcard])
        #expect(present.priority == 4 && present.hostRank == 1 && present.sequence == 9 && present.expansion == 0)
        let absent = PrecedenceKey(pattern, expansion: 1, priority: 4, sequence: 9)
        #expect(absent.ranks == [Self.literal, Self.parameter, Self.constraint, Self.partial, Self.end])
        #expect(absent.expansion == 1)
        // Both match ".../a/b/1/x.y": the expansion ending there comes first.
        #expect(PrecedenceKey.decision(absent, present)?.field == .path)
        #expect(absent < present)
        #expect(PrecedenceKey(try core.parsedPattern("/"), expansion: 0, priority: 0, sequence: 1).ranks == [Self.end])
    }
}

@Suite struct DuplicateKeyTests {
    static func keys(_ pattern: String, priority: Int32 = 0, options: RouterOptions = RouterOptions()) throws -> [DuplicateKey] {
        DuplicateKey.keys(of: try RouterCore(options: options).parsedPattern(pattern), priority: priority)
    }

    /// Whether some expansion of one has the key of an expansion of the other.
    static func collide(_ a: String, _ b: String, priorities: (Int32, Int32) = (0, 0),
                        options: RouterOptions = RouterOptions()) throws -> Bool {
        !Set(try keys(a, priority: priorities.0, options: options))
            .isDisjoint(with: try keys(b, priority: priorities.1, options: options))
    }

    @Test func parameterNamesDoNotCount() throws {
        #expect(try Self.keys("/a/{x:int}") == Self.keys("/a/{y:int}"))
        #expect(try Self.keys("/a/:x/*rest") == Self.keys("/a/{y}/*"))
        #expect(try Self.keys("/f/{name}.{ext:alpha}") == Self.keys("/f/{a}.{b:alpha}"))
        #expect(try Self.keys("myapp://settings(/:section)") == Self.keys("myapp://settings(/:page)"))
    }

    @Test func constraintsCount() throws {
        #expect(try !Self.collide("/a/{x:int}", "/a/{x:uint}"))
        #expect(try !Self.collide("/a/{x:int}", "/a/:x"))
        #expect(try !Self.collide("/a/{x:[0-9]+}", "/a/{x:[0-9]*}"))
        #expect(try Self.collide("/a/{x:[0-9]+}", "/a/{y:[0-9]+}"))
        #expect(try !Self.collide("/f/{name}.{ext:alpha}", "/f/{name}.{ext}"))
        #expect(try !Self.collide("/f/{name}.json", "/f/{name}.xml"))
        #expect(try !Self.collide("/a/:x", "/a/*x"))
        #expect(try !Self.collide("/a/:x", "/a/{x}.{y}"))
    }

    @Test func hostAndTableCount() throws {
        #expect(try !Self.collide("https://a.com/x", "https://b.com/x"))
        #expect(try !Self.collide("https://a.com/x", "https://*.a.com/x"))
        #expect(try !Self.collide("https://*/x", "https://a.com/x"))
        #expect(try !Self.collide("https://a.com/x", "http://a.com/x"))
        #expect(try !Self.collide("myapp://x", "/x"))
        // Tables are lower-cased schemes; hosts lower-cased names.
        #expect(try Self.collide("MYAPP://x", "myapp://x"))
        #expect(try Self.collide("https://A.com/x", "https://a.com/x"))
        #expect(try Self.collide("https://*/x", "https:///x"))
    }

    @Test func priorityCounts() throws {
        #expect(try !Self.collide("/a/:x", "/a/:y", priorities: (0, 1)))
        #expect(try Self.collide("/a/:x", "/a/:y", priorities: (-3, -3)))
    }

    @Test func literalsStayDistinctInEveryCase() throws {
        let folding = RouterOptions(caseInsensitivePaths: true)
        #expect(try !Self.collide("/A", "/a", options: folding))
        #expect(try !Self.collide("/users/Me", "/users/me"))
        #expect(try !Self.collide("myapp://Home/x", "myapp://home/x"))
        #expect(try !Self.collide("/f/{n}.JSON", "/f/{n}.json", options: folding))
    }

    @Test func expansionsHaveOneKeyEach() throws {
        let keys = try Self.keys("/a(/b)(/:c)")
        #expect(keys.count == 4)
        #expect(Set(keys).count == 4)
        #expect(try keys[3] == Self.keys("/a")[0])
        #expect(try Self.collide("/a(/b)", "/a"))
        // Two expansions of one pattern with one key: registration refuses the pattern.
        #expect(try Set(Self.keys("/a(/:x)(/:y)")).count == 3)
    }

    /// Registration refuses exactly the routes whose keys collide, whichever way the routes come:
    /// one at a time, in a small batch (keys compared with each other) or in a large one (the
    /// trie compared as it grows).
    @Test func registrationRefusesExactlyWhatTheKeysSay() throws {
        let pairs: [(String, String)] = [
            ("/a/{x:int}", "/a/{y:int}"), ("/a/{x:int}", "/a/{x:uint}"), ("/a/:x", "/a/{x:[a-z]+}"),
            ("/a/{x:[a-z]+}", "/a/{y:[a-z]+}"), ("/f/{a}.{b}", "/f/{c}.{d}"), ("/f/{a}.{b:int}", "/f/{c}.{d}"),
            ("/A", "/a"), ("https://a.com/x", "https://b.com/x"), ("https://a.com/x", "https://A.COM/x"),
            ("https://*.a.com/x", "https://*.a.com/x"), ("myapp://x/*rest", "myapp://x/*"), ("myapp://x", "MyApp://x"),
            ("/a(/b)", "/a"), ("/a(/b)", "/a/c"), ("/w/*a", "/w/:a"),
        ]
        for options in [RouterOptions(), RouterOptions(caseInsensitivePaths: true)] {
            for (first, second) in pairs {
                for priorities: (Int32, Int32) in [(0, 0), (0, 2)] {
                    let collide = try Self.collide(first, second, priorities: priorities, options: options)
                    // One at a time.
                    let router = Router<Int>(options: options)
                    try router.add(first, priority: priorities.0, value: 0)
                    var refused: RouterError.Code?
                    do {
                        try router.add(second, priority: priorities.1, value: 1)
                    } catch {
                        refused = error.code
                    }
                    #expect(refused == (collide ? .duplicateRoute : nil), "\(first), \(second), \(priorities)")
                    // Both in one batch, small and large.
                    for filler in [0, 80] {
                        let routes = (0..<filler).map { Route("/filler/\($0)", value: $0) }
                            + [Route(first, priority: priorities.0, value: 0), Route(second, priority: priorities.1, value: 1)]
                        let batch = Router<Int>(options: options)
                        let failed: Bool
                        do {
                            _ = try batch.add(contentsOf: routes)
                            failed = false
                        } catch {
                            #expect(error.code == .duplicateRoute)
                            failed = true
                        }
                        #expect(failed == collide, "batch of \(routes.count): \(first), \(second), \(priorities)")
                    }
                }
            }
        }
    }
}
