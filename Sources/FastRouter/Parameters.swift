/// The ordered (name, value) pairs of a match: path parameters in pattern order, the wildcard,
/// then query parameters in URL order. Repeated names are all kept; looking a name up returns
/// the first pair, so a path value wins over a query value of the same name.
public struct Parameters: RandomAccessCollection, Sendable, Equatable {
    /// A parameter: its name and decoded value.
    public typealias Element = (name: String, value: String)

    /// Names and values interleaved (name, value, name, ...): one allocation per match with
    /// parameters, none without. Kept to one reference so a `Match` stays small to copy.
    private let pairs: [String]
    /// The decoded segments the wildcard matched (empty when it matched none or there is none).
    public let wildcardSegments: [String]

    /// Parameters from explicit pairs (for tests and handlers that build their own).
    public init(_ pairs: [(name: String, value: String)], wildcardSegments: [String] = []) {
        self.pairs = pairs.flatMap { [$0.name, $0.value] }
        self.wildcardSegments = wildcardSegments
    }

    @usableFromInline
    init(_ scratch: MatchScratch) {
        let count = scratch.parameterCount
        var pairs: [String] = []
        if count > 0 {
            pairs.reserveCapacity(2 * count)
            var index = 0
            while index < count {
                let (name, value) = scratch.parameterStrings(at: index)
                pairs.append(name)
                pairs.append(value)
                index += 1
            }
        }
        self.pairs = pairs
        var segments: [String] = []
        if let range = scratch.wildcardRange, !range.isEmpty {
            segments.reserveCapacity(range.count)
            var index = range.lowerBound
            while index < range.upperBound {
                segments.append(String(decoding: scratch.segment(index), as: UTF8.self))
                index += 1
            }
        }
        wildcardSegments = segments
    }

    /// The first position.
    public var startIndex: Int { 0 }
    /// One past the last position.
    public var endIndex: Int { pairs.count / 2 }

    /// The pair at `position`.
    public subscript(position: Int) -> Element { (pairs[2 * position], pairs[2 * position + 1]) }

    /// The value of the first parameter named `name`, or `nil`.
    public subscript(_ name: String) -> String? {
        var index = 0
        while index < pairs.count {
            if pairs[index] == name { return pairs[index + 1] }
            index += 2
        }
        return nil
    }

    /// Every value of the parameters named `name`, in order.
    public func values(_ name: String) -> [String] {
        stride(from: 0, to: pairs.count, by: 2).filter { pairs[$0] == name }.map { pairs[$0 + 1] }
    }

    public static func == (lhs: Parameters, rhs: Parameters) -> Bool {
        lhs.pairs == rhs.pairs && lhs.wildcardSegments == rhs.wildcardSegments
    }
}
