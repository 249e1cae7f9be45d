/// The ordered (name, value) pairs of a match: path parameters in pattern order, the wildcard,
/// then query parameters in URL order. Repeated names are all kept; looking a name up returns
/// the first pair, so a path value wins over a query value of the same name.
public struct Parameters: RandomAccessCollection, Sendable, Equatable {
    /// A parameter: its name and decoded value.
    public typealias Element = (name: String, value: String)

    /// Pairs held inline. Names and values are usually small strings (up to 15 UTF-8 bytes live
    /// inside the `String` itself), so a match with this many parameters allocates nothing.
    static let inlineCapacity = 4
    private typealias InlineStrings = (String, String, String, String, String, String, String, String)

    /// The first ``inlineCapacity`` pairs, interleaved (name, value, name, ...).
    private var inlinePairs: InlineStrings = ("", "", "", "", "", "", "", "")
    /// The pairs after those, interleaved the same way.
    private var overflow: [String] = []
    private var pairCount = 0
    /// The decoded segments the wildcard matched (empty when it matched none or there is none).
    public let wildcardSegments: [String]

    /// Parameters from explicit pairs (for tests and handlers that build their own).
    public init(_ pairs: [(name: String, value: String)], wildcardSegments: [String] = []) {
        self.wildcardSegments = wildcardSegments
        for pair in pairs { append(pair.name, pair.value) }
    }

    @usableFromInline
    init(_ scratch: MatchScratch) {
        wildcardSegments = scratch.wildcardRange.map { range in
            range.map { String(decoding: scratch.segment($0), as: UTF8.self) }
        } ?? []
        for index in 0..<scratch.parameterCount {
            let (name, value) = scratch.parameter(at: index)!
            append(String(decoding: name, as: UTF8.self), String(decoding: value, as: UTF8.self))
        }
    }

    private mutating func append(_ name: String, _ value: String) {
        if pairCount < Self.inlineCapacity {
            withUnsafeMutableBytes(of: &inlinePairs) { raw in
                let strings = raw.baseAddress!.assumingMemoryBound(to: String.self)
                strings[2 * pairCount] = name
                strings[2 * pairCount + 1] = value
            }
        } else {
            overflow.append(name)
            overflow.append(value)
        }
        pairCount += 1
    }

    /// The name (`part` 0) or value (`part` 1) of the pair at `position`.
    private func string(_ position: Int, _ part: Int) -> String {
        if position >= Self.inlineCapacity { return overflow[2 * (position - Self.inlineCapacity) + part] }
        return withUnsafeBytes(of: inlinePairs) { raw in
            raw.baseAddress!.assumingMemoryBound(to: String.self)[2 * position + part]
        }
    }

    /// The first position.
    public var startIndex: Int { 0 }
    /// One past the last position.
    public var endIndex: Int { pairCount }

    /// The pair at `position`.
    public subscript(position: Int) -> Element {
        precondition(position >= 0 && position < pairCount, "parameter index out of range")
        return (string(position, 0), string(position, 1))
    }

    /// The value of the first parameter named `name`, or `nil`.
    public subscript(_ name: String) -> String? {
        for position in 0..<pairCount where string(position, 0) == name { return string(position, 1) }
        return nil
    }

    /// Every value of the parameters named `name`, in order.
    public func values(_ name: String) -> [String] {
        (0..<pairCount).filter { string($0, 0) == name }.map { string($0, 1) }
    }

    public static func == (lhs: Parameters, rhs: Parameters) -> Bool {
        lhs.pairCount == rhs.pairCount && lhs.wildcardSegments == rhs.wildcardSegments
            && (0..<lhs.pairCount).allSatisfy { lhs[$0] == rhs[$0] }
    }
}
