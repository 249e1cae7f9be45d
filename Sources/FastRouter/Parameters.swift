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
    /// the match's fragment when it has one, then the matched route's pattern (for a match);
    /// `nil` when there is none of them. A match's strings in one storage of its own: one
    /// reference to count, and no other thread counts it.
    @usableFromInline let storage: ParameterStorage?

    /// The decoded segments the wildcard matched (empty when it matched none or there is none).
    public var wildcardSegments: [String] {
        guard let storage else { return [] }
        let first = 2 * storage.pairCount
        return (first..<(first + storage.segmentCount)).map(storage.string)
    }

    /// The raw fragment of the match these parameters came from, if it had one.
    @usableFromInline var fragment: String? {
        guard let storage, storage.hasFragment else { return nil }
        return storage.string(storage.stringCount - (storage.hasPattern ? 2 : 1))
    }

    /// The pattern of the route matched, empty for parameters that do not come from a match.
    @usableFromInline var pattern: String {
        guard let storage, storage.hasPattern else { return "" }
        return storage.string(storage.stringCount - 1)
    }

    /// Parameters from explicit pairs (for tests and handlers that build their own).
    public init(_ pairs: [(name: String, value: String)], wildcardSegments: [String] = []) {
        let strings = pairs.flatMap { [$0.name, $0.value] } + wildcardSegments
        guard !strings.isEmpty else {
            storage = nil
            return
        }
        let storage = ParameterStorage.make(pairCount: pairs.count, segmentCount: wildcardSegments.count,
                                            hasFragment: false, hasPattern: false, stringCount: strings.count,
                                            byteCount: strings.reduce(0) { $0 + $1.utf8.count })
        var writer = storage.writer
        for var string in strings {
            string.withUTF8 { writer.append($0.baseAddress, $0.count, interned: nil, padded: false) }
        }
        writer.finish()
        self.storage = storage
    }

    /// Copies the current candidate's parameters, wildcard segments and fragment out of a
    /// match scratch's state (a pointer, not the scratch: no reference count to touch), and the
    /// pattern of its route.
    init(_ state: UnsafeMutablePointer<ScratchState>, pattern: UnsafeBufferPointer<UInt8>) {
        let count = state.pointee.parameterCount
        var wildcardCount = 0
        var wildcardBytes = 0
        state.pointee.forEachWildcardSegment { _, length in
            wildcardCount &+= 1
            wildcardBytes &+= length
        }
        let fragment = state.pointee.fragmentBytes
        // Wrapping arithmetic: every count is bounded by the URL's and the pattern's lengths.
        let stringCount = 2 &* count &+ wildcardCount &+ (fragment == nil ? 1 : 2)
        var byteCount = (fragment?.count ?? 0) &+ pattern.count &+ wildcardBytes
        for index in 0..<count {
            let (name, value) = state.pointee.parameter(at: index).unsafelyUnwrapped
            byteCount &+= name.count &+ value.count
        }
        let storage = ParameterStorage.make(pairCount: count, segmentCount: wildcardCount,
                                            hasFragment: fragment != nil, hasPattern: true, stringCount: stringCount,
                                            byteCount: byteCount, reusing: &state.pointee.spareParameters)
        var writer = storage.writer
        for index in 0..<count {
            let (name, value) = state.pointee.parameter(at: index).unsafelyUnwrapped
            writer.append(name.baseAddress, name.count, interned: state.pointee.parameterNameString(at: index), padded: true)
            // Values may lie in the caller's URL, which has no readable bytes past its end.
            writer.append(value.baseAddress, value.count, interned: nil, padded: false)
        }
        state.pointee.forEachWildcardSegment { start, length in
            writer.append(start, length, interned: nil, padded: false)
        }
        if let fragment { writer.append(fragment.baseAddress, fragment.count, interned: nil, padded: false) }
        writer.append(pattern.baseAddress, pattern.count, interned: nil, padded: true)
        writer.finish()
        self.storage = storage
    }

    /// The first position.
    public var startIndex: Int { 0 }
    /// One past the last position.
    @inlinable public var endIndex: Int { storage?.pairCount ?? 0 }

    /// The pair at `position`.
    public subscript(position: Int) -> Element {
        precondition(position >= 0 && position < endIndex, "Parameters index out of range")
        let storage = storage.unsafelyUnwrapped
        return (storage.name(position), storage.string(2 * position + 1))
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

/// The bytes behind ``Parameters``, in one allocation: the counts in the header, then the
/// boundaries of every string, then the interned name of each pair (when it has one), then
/// their UTF-8 bytes back to back.
@usableFromInline
final class ParameterStorage: ManagedBuffer<ParameterStorage.Header, Int> {
    @usableFromInline
    struct Header {
        @usableFromInline let pairCount: Int
        let segmentCount: Int
        let hasFragment: Bool
        let hasPattern: Bool
        let stringCount: Int
        /// Words of element storage asked for when the storage was allocated.
        let words: Int
    }

    // Read through a pointer: `header` is a stored `var` of ManagedBuffer, and each access to it
    // would cost a dynamic exclusivity check. The header changes only when `make` reuses the
    // storage, which no reader refers to any more.
    @inlinable var pairCount: Int { withUnsafeMutablePointerToHeader { $0.pointee.pairCount } }
    var segmentCount: Int { withUnsafeMutablePointerToHeader { $0.pointee.segmentCount } }
    var hasFragment: Bool { withUnsafeMutablePointerToHeader { $0.pointee.hasFragment } }
    var hasPattern: Bool { withUnsafeMutablePointerToHeader { $0.pointee.hasPattern } }
    var stringCount: Int { withUnsafeMutablePointerToHeader { $0.pointee.stringCount } }

    /// Words kept after the bytes, so the writer may copy a short string 16 bytes at a time.
    static let spareWords = 2

    /// Storage for `stringCount` strings of `byteCount` bytes in all, to be filled through
    /// ``writer`` with exactly those strings, in order.
    static func make(pairCount: Int, segmentCount: Int, hasFragment: Bool, hasPattern: Bool, stringCount: Int,
                     byteCount: Int) -> ParameterStorage {
        var none: ParameterStorage?
        return make(pairCount: pairCount, segmentCount: segmentCount, hasFragment: hasFragment,
                    hasPattern: hasPattern, stringCount: stringCount, byteCount: byteCount, reusing: &none)
    }

    /// ``make(pairCount:segmentCount:hasFragment:hasPattern:stringCount:byteCount:)``, taking `spare` when
    /// nothing else refers to it any more (the match it served is gone) and it is large enough,
    /// and keeping what it returns as the next spare. A thread that drops each match before the
    /// next one (the usual loop) then allocates no storage at all: one uniqueness check and one
    /// retain instead of an allocation and a deallocation per match.
    static func make(pairCount: Int, segmentCount: Int, hasFragment: Bool, hasPattern: Bool, stringCount: Int,
                     byteCount: Int, reusing spare: inout ParameterStorage?) -> ParameterStorage {
        // `stringCount + 1` boundaries (string `i` is bytes `boundary[i]..<boundary[i + 1]`),
        // `pairCount` interned names (0 for none), then the bytes.
        let words = stringCount &+ 1 &+ pairCount &+ (byteCount &+ 7) / 8 &+ spareWords
        if isKnownUniquelyReferenced(&spare), let storage = spare {
            // Only `spare` refers to it, so no reader is left: it may be written again.
            let reused = storage.withUnsafeMutablePointerToHeader { header -> Bool in
                guard header.pointee.words >= words else { return false }
                header.pointee = Header(pairCount: pairCount, segmentCount: segmentCount, hasFragment: hasFragment,
                                        hasPattern: hasPattern, stringCount: stringCount, words: header.pointee.words)
                return true
            }
            if reused { return storage }
        }
        let header = Header(pairCount: pairCount, segmentCount: segmentCount, hasFragment: hasFragment,
                            hasPattern: hasPattern, stringCount: stringCount, words: words)
        // `create` allocates an instance of the class it is called on, so the downcast holds.
        let storage = unsafeDowncast(ParameterStorage.create(minimumCapacity: words) { _ in header },
                                     to: ParameterStorage.self)
        // Small storages only: a spare is kept for the thread's life.
        if words <= maxSpareWords { spare = storage }
        return storage
    }

    /// Largest storage kept as a spare, in words (4 KiB).
    static var maxSpareWords: Int { 512 }

    /// Fills a new storage, string by string.
    struct Writer {
        let boundaries: UnsafeMutablePointer<Int>
        let names: UnsafeMutablePointer<Int>
        let base: UnsafeMutablePointer<UInt8>
        let pairCount: Int
        let stringCount: Int
        var index = 0
        var offset = 0

        /// Appends the next string; `interned` is the pair's name as an immortal string, when
        /// the string is a name that has one. `padded` says that 16 bytes past the string's end
        /// may be read (the lookup's buffers, interned names and patterns are padded so): a
        /// string of up to 32 bytes is then copied 16 bytes at a time instead of by memcpy.
        @inline(__always)
        mutating func append(_ start: UnsafePointer<UInt8>?, _ count: Int, interned: UnsafePointer<String>?,
                             padded: Bool) {
            if index < 2 &* pairCount && index & 1 == 0 { names[index >> 1] = Int(bitPattern: interned) }
            boundaries[index] = offset
            if let start, count > 0 {
                if padded && count <= 32 {
                    // The storage keeps 16 spare bytes at its end, and a block ends less than 16
                    // bytes past the string; a later string overwrites the excess.
                    let source = UnsafeRawPointer(start)
                    let target = UnsafeMutableRawPointer(base + offset)
                    target.storeBytes(of: source.loadUnaligned(as: SIMD16<UInt8>.self), as: SIMD16<UInt8>.self)
                    if count > 16 {
                        target.storeBytes(of: source.loadUnaligned(fromByteOffset: 16, as: SIMD16<UInt8>.self),
                                          toByteOffset: 16, as: SIMD16<UInt8>.self)
                    }
                } else {
                    (base + offset).initialize(from: start, count: count)
                }
            }
            offset &+= count
            index &+= 1
        }

        /// Closes the last string; every announced string must have been appended.
        mutating func finish() {
            precondition(index == stringCount, "ParameterStorage filled with fewer strings than announced")
            boundaries[index] = offset
        }
    }

    /// A writer for a storage just made; the storage must outlive it.
    var writer: Writer {
        withUnsafeMutablePointerToElements { boundaries in
            let names = boundaries + stringCount + 1
            return Writer(boundaries: boundaries, names: names,
                          base: UnsafeMutableRawPointer(names + pairCount).assumingMemoryBound(to: UInt8.self),
                          pairCount: pairCount, stringCount: stringCount)
        }
    }

    /// The bytes of string `index`, valid while the storage lives.
    @inline(__always)
    func bytes(_ index: Int) -> UnsafeBufferPointer<UInt8> {
        withUnsafeMutablePointerToElements { boundaries in
            let base = UnsafeRawPointer(boundaries + stringCount + 1 + pairCount)
                .assumingMemoryBound(to: UInt8.self)
            return UnsafeBufferPointer(start: base + boundaries[index], count: boundaries[index + 1] - boundaries[index])
        }
    }

    /// The name of pair `pair`: the interned string when it has one (path parameters), which
    /// costs a copy instead of a decoding.
    func name(_ pair: Int) -> String {
        let interned = withUnsafeMutablePointerToElements { $0[stringCount + 1 + pair] }
        if let name = UnsafePointer<String>(bitPattern: interned) { return name.pointee }
        return string(2 * pair)
    }

    /// String `index`; the bytes are valid UTF-8, so nothing is repaired. Copied into a string
    /// made for them rather than decoded: about half the instructions of
    /// `String(decoding:as:)` for a short value on this toolchain (callgrind, 135 against 238 for
    /// 14 ASCII bytes).
    func string(_ index: Int) -> String {
        let bytes = bytes(index)
        guard let source = bytes.baseAddress, bytes.count > 0 else { return "" }
        return String(unsafeUninitializedCapacity: bytes.count) { target in
            UnsafeMutableRawPointer(target.baseAddress.unsafelyUnwrapped).copyMemory(from: source, byteCount: bytes.count)
            return bytes.count
        }
    }

    /// Whether string `index` is exactly `other`.
    @inline(__always)
    func equals(_ index: Int, _ other: UnsafeBufferPointer<UInt8>) -> Bool {
        let mine = bytes(index)
        guard mine.count == other.count else { return false }
        return mine.isEmpty || memcmp(mine.baseAddress!, other.baseAddress!, mine.count) == 0
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
