import Testing
@testable import FastRouter

/// The key the order of candidates (docs/SEMANTICS.md §3.1) is stated in: ``PrecedenceKey``.
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
