/// Where a candidate stands in the order of docs/SEMANTICS.md §3.1, the one order lookups sort
/// candidates by and the linter reasons with: higher priority first, then the more specific
/// host, then the more specific path compared segment by segment from the left (its tail last:
/// a route that ends where the URL ends before a wildcard), then earlier registration, then
/// expansion order within one route.
///
/// A HEAD request with the fallback on (docs/SEMANTICS.md §3.7) adds one field after the path:
/// between routes of the same shape, the one naming HEAD first (``decision(_:_:namingHead:)``).
///
/// ``decision(_:_:namingHead:)`` is the only statement of that order; `<` and every caller go
/// through it. Generic over where the segment ranks live (the linter keeps an array). A lookup
/// compares candidates the same way, field for field, in ``Walker/precedes(_:_:head:)``, reading
/// the ranks from each route expansion's interned ``TerminalShape``; a test keeps the two in
/// agreement.
package struct PrecedenceKey<Ranks: PrecedenceRanks> {
    package var priority: Int32
    /// ``HostRule/rank``: 2 exact, 1 suffix, 0 any.
    package var hostRank: UInt8
    /// The ``SegmentRank`` of each path segment from the left, then of the tail: `end`, or
    /// `wildcard` for a path ending in one.
    package var ranks: Ranks
    /// Registration order of the route.
    package var sequence: UInt64
    /// Which expansion of its route the candidate is, in expansion order (docs/SEMANTICS.md §3.6).
    package var expansion: UInt16

    @inline(__always)
    package init(priority: Int32, hostRank: UInt8, ranks: Ranks, sequence: UInt64, expansion: UInt16) {
        self.priority = priority
        self.hostRank = hostRank
        self.ranks = ranks
        self.sequence = sequence
        self.expansion = expansion
    }
}

/// The field of a ``PrecedenceKey`` that tells two keys apart.
package enum PrecedenceField: Sendable {
    /// `head`: for a HEAD request, the route naming HEAD (docs/SEMANTICS.md §3.7).
    case priority, host, path, head, registration, expansion
}

extension PrecedenceKey {
    /// The order, field by field: the first field in which `lhs` and `rhs` differ and whether
    /// `lhs` comes first by it; `nil` when the keys are equal.
    @inline(__always)
    package static func decision(_ lhs: Self, _ rhs: Self) -> (field: PrecedenceField, lhsFirst: Bool)? {
        decision(lhs, rhs, namingHead: nil)
    }

    /// ``decision(_:_:)`` for a lookup that may prefer routes naming HEAD: `namingHead` says,
    /// for a HEAD request with the fallback on, whether each of the two routes names HEAD (a
    /// route for any method does); `nil` for every other lookup.
    @inline(__always)
    package static func decision(_ lhs: Self, _ rhs: Self, namingHead: (lhs: Bool, rhs: Bool)?)
        -> (field: PrecedenceField, lhsFirst: Bool)? {
        if lhs.priority != rhs.priority { return (.priority, lhs.priority > rhs.priority) }
        if lhs.hostRank != rhs.hostRank { return (.host, lhs.hostRank > rhs.hostRank) }
        let path = lhs.ranks.withRanks { left in rhs.ranks.withRanks { right in Self.compareRanks(left, right) } }
        if path != 0 { return (.path, path > 0) }
        if let namingHead, namingHead.lhs != namingHead.rhs { return (.head, namingHead.lhs) }
        if lhs.sequence != rhs.sequence { return (.registration, lhs.sequence < rhs.sequence) }
        if lhs.expansion != rhs.expansion { return (.expansion, lhs.expansion < rhs.expansion) }
        return nil
    }

    /// True when `lhs` comes before `rhs` (false for equal keys).
    @inline(__always)
    package static func < (lhs: Self, rhs: Self) -> Bool {
        decision(lhs, rhs)?.lhsFirst ?? false
    }

    /// The key without the registration fields (sequence and expansion zeroed): two expansions
    /// whose keys are equal this way are put in order by registration alone.
    package var ignoringRegistration: Self {
        var key = self
        key.sequence = 0
        key.expansion = 0
        return key
    }

    /// Ranks from the left, higher first: 1 when `lhs` is more specific, -1 when `rhs` is, 0
    /// when equal. A tail ranks below every segment, so two rows equal up to the shorter one's
    /// tail have the same length.
    @inline(__always)
    private static func compareRanks(_ lhs: UnsafeBufferPointer<UInt8>, _ rhs: UnsafeBufferPointer<UInt8>) -> Int {
        let count = Swift.min(lhs.count, rhs.count)
        var position = 0
        while position < count {
            let left = lhs[position]
            let right = rhs[position]
            if left != right { return left > right ? 1 : -1 }
            position &+= 1
        }
        return 0
    }
}

extension PrecedenceKey: Equatable where Ranks: Equatable {}
extension PrecedenceKey: Hashable where Ranks: Hashable {}
extension PrecedenceKey: Sendable where Ranks: Sendable {}

/// Where a ``PrecedenceKey`` reads its segment ranks from.
package protocol PrecedenceRanks {
    /// Calls `body` with the ranks: each path segment's from the left, then the tail's.
    func withRanks<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result
}

extension Array: PrecedenceRanks where Element == UInt8 {
    package func withRanks<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        withUnsafeBufferPointer(body)
    }
}

extension PrecedenceKey where Ranks == [UInt8] {
    /// The key of expansion number `expansion` of a parsed pattern, for a route registered with
    /// `priority` as number `sequence`.
    package init(_ pattern: Pattern, expansion: Int, priority: Int32, sequence: UInt64) {
        let segments = pattern.variants[expansion]
        var ranks = segments.map { SegmentRank($0).rawValue }
        if case .wildcard? = segments.last {} else { ranks.append(SegmentRank.end.rawValue) }
        self.init(priority: priority, hostRank: pattern.host.rank, ranks: ranks, sequence: sequence,
                  expansion: UInt16(expansion))
    }
}
