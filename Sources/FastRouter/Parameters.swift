/// The ordered (name, value) pairs of a match: path parameters in pattern order, the wildcard,
/// then query parameters in URL order. Repeated names are all kept; looking a name up returns
/// the first pair, so a path value wins over a query value of the same name.
///
/// The pairs are kept as UTF-8 bytes in one buffer, copied out of the lookup in one go, and a
/// `String` is made only for what is read: a match whose parameters are never read, or read by
/// name only, makes no string at all. Values are decoded and valid UTF-8 (the router rejects
/// anything else), so making a string never repairs anything.
public struct Parameters: RandomAccessCollection, @unchecked Sendable, Equatable {
    // @unchecked Sendable: the storage is written in `init` and only read afterwards; it is
    // written again (for another match) only once no `Parameters` refers to it any more.

    /// A parameter: its name and decoded value.
    public typealias Element = (name: String, value: String)

    /// Names and values interleaved (name, value, name, ...), then the wildcard's segments, then
    /// the match's fragment when it has one; `nil` when there is none of them. A match's strings in one storage of its own: one
    /// reference to count, and no other thread counts it; its path names are read from the
    /// route's interned layout, not stored (see ``ParameterStorage``).
    @usableFromInline let storage: ParameterStorage?

    /// The decoded segments the wildcard matched (empty when it matched none or there is none).
    public var wildcardSegments: [String] {
        guard let storage else { return [] }
        let first = 2 * storage.pairCount
        return (first..<(first + storage.segmentCount)).map(storage.string)
    }

    /// The raw fragment of the match these parameters came from, if it had one.
    @usableFromInline var fragment: String? {
        guard let storage else { return nil }
        let index = storage.fragmentIndex
        return index < 0 ? nil : storage.string(index)
    }

    /// Parameters from explicit pairs (for tests and handlers that build their own).
    public init(_ pairs: [(name: String, value: String)], wildcardSegments: [String] = []) {
        let strings = pairs.flatMap { [$0.name, $0.value] } + wildcardSegments
        storage = strings.isEmpty ? nil : ParameterStorage.make(pairCount: pairs.count, strings: strings)
    }

    /// The parameters of a match, held by `storage` (see ``ParameterStorage/make(_:)``).
    @usableFromInline
    init(storage: ParameterStorage?) {
        self.storage = storage
    }

    /// The first position.
    @inlinable public var startIndex: Int { 0 }
    /// One past the last position.
    @inlinable public var endIndex: Int { storage?.pairCount ?? 0 }

    /// The pair at `position`.
    @inlinable
    public subscript(position: Int) -> Element {
        // Inlinable, so that iterating costs one call per pair.
        precondition(position >= 0 && position < endIndex, "Parameters index out of range")
        return storage.unsafelyUnwrapped.pair(position)
    }

    /// Calls `body` with the UTF-8 bytes of each pair's name and value, in order, making no
    /// string: the way to read parameters that allocates nothing. The bytes are valid only
    /// during the call.
    @inlinable
    public func forEachUTF8(_ body: (_ name: UnsafeBufferPointer<UInt8>, _ value: UnsafeBufferPointer<UInt8>) throws -> Void) rethrows {
        guard let storage else { return }
        for pair in 0..<storage.pairCount {
            try body(storage.bytes(2 &* pair), storage.bytes(2 &* pair &+ 1))
        }
    }

    /// The value of the first parameter named `name`, or `nil`.
    public subscript(_ name: String) -> String? {
        guard let storage else { return nil }
        var name = name
        return name.withUTF8 { name in
            for pair in 0..<storage.pairCount where storage.equals(2 * pair, name) {
                return storage.string(2 * pair + 1)
            }
            return nil
        }
    }

    /// Every value of the parameters named `name`, in order.
    public func values(_ name: String) -> [String] {
        guard let storage else { return [] }
        var name = name
        return name.withUTF8 { name in
            (0..<storage.pairCount).filter { storage.equals(2 * $0, name) }.map { storage.string(2 * $0 + 1) }
        }
    }

    /// Two parameter lists are equal when they hold the same (name, value) pairs in the same order
    /// and the same wildcard segments (the fragment is not a parameter and is not compared).
    public static func == (lhs: Parameters, rhs: Parameters) -> Bool {
        let left = lhs.storage, right = rhs.storage
        guard (left?.pairCount ?? 0) == (right?.pairCount ?? 0),
              (left?.segmentCount ?? 0) == (right?.segmentCount ?? 0) else { return false }
        guard let left, let right else { return true }
        return (0..<(2 * left.pairCount + left.segmentCount)).allSatisfy { left.equals($0, right.bytes($0)) }
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
