/// The ordered (name, value) pairs of a match: path parameters in pattern order, the wildcard,
/// then query parameters in URL order. Repeated names are all kept; looking a name up returns
/// the first pair, so a path value wins over a query value of the same name.
public struct Parameters: RandomAccessCollection, Sendable, Equatable {
    /// A parameter: its name and decoded value.
    public typealias Element = (name: String, value: String)

    private let names: [String]
    private let values: [String]
    /// The decoded segments the wildcard matched (empty when it matched none or there is none).
    public let wildcardSegments: [String]

    /// Parameters from explicit pairs (for tests and handlers that build their own).
    public init(_ pairs: [(name: String, value: String)], wildcardSegments: [String] = []) {
        names = pairs.map(\.name)
        values = pairs.map(\.value)
        self.wildcardSegments = wildcardSegments
    }

    init(_ scratch: MatchScratch) {
        var names: [String] = []
        var values: [String] = []
        let count = scratch.parameterCount
        names.reserveCapacity(count)
        values.reserveCapacity(count)
        for index in 0..<count {
            let (name, value) = scratch.parameter(at: index)!
            names.append(String(decoding: name, as: UTF8.self))
            values.append(String(decoding: value, as: UTF8.self))
        }
        self.names = names
        self.values = values
        wildcardSegments = scratch.wildcardRange.map { range in
            range.map { String(decoding: scratch.segment($0), as: UTF8.self) }
        } ?? []
    }

    /// The first position.
    public var startIndex: Int { 0 }
    /// One past the last position.
    public var endIndex: Int { names.count }

    /// The pair at `position`.
    public subscript(position: Int) -> Element { (names[position], values[position]) }

    /// The value of the first parameter named `name`, or `nil`.
    public subscript(_ name: String) -> String? {
        names.firstIndex(of: name).map { values[$0] }
    }

    /// Every value of the parameters named `name`, in order.
    public func values(_ name: String) -> [String] {
        zip(names, values).filter { $0.0 == name }.map(\.1)
    }

    public static func == (lhs: Parameters, rhs: Parameters) -> Bool {
        lhs.names == rhs.names && lhs.values == rhs.values && lhs.wildcardSegments == rhs.wildcardSegments
    }
}
