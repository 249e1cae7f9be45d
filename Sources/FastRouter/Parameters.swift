/// The ordered (name, value) pairs of a match: path parameters in pattern order, the wildcard,
/// then query parameters in URL order. Repeated names are all kept; looking a name up returns
/// the first pair, so a path value wins over a query value of the same name.
public struct Parameters: RandomAccessCollection, Sendable, Equatable {
    /// A parameter: its name and decoded value.
    public typealias Element = (name: String, value: String)

    /// Names and values interleaved (name, value, name, ...), then the wildcard's segments, then
    /// the match's fragment when it has one: one allocation per match that has any of them, none
    /// otherwise. One reference and one word keep a `Match` within the size the compiler copies
    /// and destroys inline; a larger one goes through runtime type metadata on every match.
    private let strings: [String]
    /// Number of pairs (low 32 bits), of wildcard segments (next 31) and whether the fragment
    /// follows them (top bit).
    private let shape: UInt64

    private var pairCount: Int { Int(truncatingIfNeeded: shape & 0xFFFF_FFFF) }
    private var segmentCount: Int { Int(truncatingIfNeeded: (shape >> 32) & 0x7FFF_FFFF) }
    private static let hasFragment: UInt64 = 1 << 63

    /// The decoded segments the wildcard matched (empty when it matched none or there is none).
    public var wildcardSegments: [String] { Array(strings[(2 * pairCount)..<(2 * pairCount + segmentCount)]) }

    /// The raw fragment of the match these parameters came from, if it had one.
    @usableFromInline var fragment: String? { shape & Self.hasFragment != 0 ? strings.last : nil }

    /// Parameters from explicit pairs (for tests and handlers that build their own).
    public init(_ pairs: [(name: String, value: String)], wildcardSegments: [String] = []) {
        strings = pairs.flatMap { [$0.name, $0.value] } + wildcardSegments
        shape = UInt64(pairs.count) | UInt64(wildcardSegments.count) << 32
    }

    @usableFromInline
    init(_ scratch: MatchScratch) {
        let count = scratch.parameterCount
        let wildcard = scratch.wildcardRange ?? 0..<0
        let fragment = scratch.fragmentBytes
        let total = 2 * count + wildcard.count + (fragment == nil ? 0 : 1)
        var strings: [String] = []
        if total > 0 {
            // Not Array(unsafeUninitializedCapacity:): it is not specialised here and looks up the
            // array's type metadata on every call, which costs more than the appends.
            strings.reserveCapacity(total)
            for index in 0..<count {
                let (name, value) = scratch.parameterStrings(at: index)
                strings.append(name)
                strings.append(value)
            }
            for index in wildcard { strings.append(String(decoding: scratch.segment(index), as: UTF8.self)) }
            if let fragment { strings.append(String(decoding: fragment, as: UTF8.self)) }
        }
        self.strings = strings
        shape = UInt64(count) | UInt64(wildcard.count) << 32 | (fragment == nil ? 0 : Self.hasFragment)
    }

    /// The first position.
    public var startIndex: Int { 0 }
    /// One past the last position.
    public var endIndex: Int { pairCount }

    /// The pair at `position`.
    public subscript(position: Int) -> Element { (strings[2 * position], strings[2 * position + 1]) }

    /// The value of the first parameter named `name`, or `nil`.
    public subscript(_ name: String) -> String? {
        var index = 0
        while index < 2 * pairCount {
            if strings[index] == name { return strings[index + 1] }
            index += 2
        }
        return nil
    }

    /// Every value of the parameters named `name`, in order.
    public func values(_ name: String) -> [String] {
        stride(from: 0, to: 2 * pairCount, by: 2).filter { strings[$0] == name }.map { strings[$0 + 1] }
    }

    /// Two parameter lists are equal when they hold the same (name, value) pairs in the same order
    /// (the fragment is not a parameter and is not compared).
    public static func == (lhs: Parameters, rhs: Parameters) -> Bool {
        // The fragment rides along in the storage but is not a parameter.
        let lhsEnd = 2 * lhs.pairCount + lhs.segmentCount, rhsEnd = 2 * rhs.pairCount + rhs.segmentCount
        return lhs.pairCount == rhs.pairCount && lhs.strings[..<lhsEnd] == rhs.strings[..<rhsEnd]
    }
}
