/// The bytes behind ``Parameters``, in one allocation: the counts in the header, then one span
/// (offset and length into the bytes) per string, then the bytes.
///
/// String `2 * i` is the name of pair `i` and `2 * i + 1` its value; the wildcard's segments
/// and the fragment follow. The names of a match's path parameters are not stored:
/// they are read from the route's layout (interned and immortal, see ``NameTable``), which also
/// holds them as strings, so reading a name copies a string instead of making one.
///
/// A match fills it from its lookup with whole copies, not string by string: the path's values
/// are copied as one block (the URL's bytes up to the last value's end), the walk's captures
/// become their spans as they are, and the wildcard's segments are spans into the same block.
/// Only the query's pairs and the fragment are copied one by one.
@usableFromInline
final class ParameterStorage: ManagedBuffer<ParameterStorage.Header, UInt64> {
    @usableFromInline
    struct Header {
        /// What the strings are: set for each match the storage serves.
        @usableFromInline var contents: Contents
        /// Words of element storage asked for when the storage was allocated.
        let words: Int
    }

    /// The counts and places of a storage's strings.
    @usableFromInline
    struct Contents {
        @usableFromInline var pairCount: Int
        /// Pairs named by ``layout`` (a match's path parameters, the first ones); 0 without one.
        @usableFromInline var namedCount: Int
        @usableFromInline var layout: UnsafePointer<ParameterLayoutEntry>?
        var segmentCount: Int
        /// Index of the fragment's string, -1 when there is none.
        var fragment: Int
        @usableFromInline var stringCount: Int
    }

    // Read through a pointer: `header` is a stored `var` of ManagedBuffer, and each access to it
    // would cost a dynamic exclusivity check. The contents change only when `make` reuses the
    // storage, which no reader refers to any more.
    @inlinable var pairCount: Int { withUnsafeMutablePointerToHeader { $0.pointee.contents.pairCount } }
    var segmentCount: Int { withUnsafeMutablePointerToHeader { $0.pointee.contents.segmentCount } }
    var fragmentIndex: Int { withUnsafeMutablePointerToHeader { $0.pointee.contents.fragment } }

    /// Largest storage kept as a spare, in words (4 KiB).
    static var maxSpareWords: Int { 512 }

    /// Storage for `stringCount` strings and `byteCount` bytes, its header set but its spans
    /// and bytes to be written. Takes `spare` when nothing else refers to it any more (the
    /// match it served is gone) and it is large enough, and keeps what it returns as the next
    /// spare: a thread that drops each match before the next one (the usual loop) allocates no
    /// storage at all, one uniqueness check and one retain instead of an allocation and a
    /// deallocation per match.
    @inline(__always)
    static func make(_ contents: Contents, byteCount: Int, reusing spare: inout ParameterStorage?) -> ParameterStorage {
        let storage = reserve(words: contents.stringCount &+ (byteCount &+ 7) &>> 3, &spare)
        storage.withUnsafeMutablePointerToHeader { $0.pointee.contents = contents }
        return storage
    }

    /// `spare` when only it refers to it (no reader is left: it may be written again) and it
    /// has `words` words, or else a new storage (the next spare, when small).
    @inline(__always)
    private static func reserve(words: Int, _ spare: inout ParameterStorage?) -> ParameterStorage {
        if isKnownUniquelyReferenced(&spare), let storage = spare,
           storage.withUnsafeMutablePointerToHeader({ $0.pointee.words >= words }) {
            return storage
        }
        return allocate(words: words, spare: &spare)
    }

    @inline(never)
    private static func allocate(words: Int, spare: inout ParameterStorage?) -> ParameterStorage {
        let empty = Contents(pairCount: 0, namedCount: 0, layout: nil, segmentCount: 0, fragment: -1,
                             stringCount: 0)
        let header = Header(contents: empty, words: words)
        // `create` allocates an instance of the class it is called on, so the downcast holds.
        let storage = unsafeDowncast(ParameterStorage.create(minimumCapacity: words) { _ in header },
                                     to: ParameterStorage.self)
        // Small storages only: a spare is kept for the thread's life.
        if words <= maxSpareWords { spare = storage }
        return storage
    }

    /// Where the spans and the bytes of a storage just made lie; the storage must outlive it.
    struct Layout {
        let spans: UnsafeMutablePointer<UInt64>
        let bytes: UnsafeMutablePointer<UInt8>
    }

    var layout: Layout {
        withUnsafeMutablePointers { header, elements in
            Layout(spans: elements,
                   bytes: UnsafeMutableRawPointer(elements + header.pointee.contents.stringCount).assumingMemoryBound(to: UInt8.self))
        }
    }

    @inline(__always)
    static func span(_ start: Int, _ count: Int) -> UInt64 {
        UInt64(truncatingIfNeeded: start) | UInt64(truncatingIfNeeded: count) &<< 32
    }

    /// The bytes of string `index`, valid while the storage lives.
    @inlinable @inline(__always)
    func bytes(_ index: Int) -> UnsafeBufferPointer<UInt8> {
        withUnsafeMutablePointers { header, elements in
            if index < 2 &* header.pointee.contents.namedCount && index & 1 == 0 {
                let entry = header.pointee.contents.layout.unsafelyUnwrapped[index &>> 1]
                return UnsafeBufferPointer(start: entry.name, count: entry.nameLength)
            }
            let span = elements[index]
            let base = UnsafeRawPointer(elements + header.pointee.contents.stringCount).assumingMemoryBound(to: UInt8.self)
            return UnsafeBufferPointer(start: base + Int(truncatingIfNeeded: span & 0xFFFF_FFFF),
                                       count: Int(truncatingIfNeeded: span &>> 32))
        }
    }

    /// Pair `pair`, name and value, in one call: what iterating over parameters reads.
    @usableFromInline
    func pair(_ pair: Int) -> (name: String, value: String) {
        withUnsafeMutablePointers { header, elements in
            let base = UnsafeRawPointer(elements + header.pointee.contents.stringCount).assumingMemoryBound(to: UInt8.self)
            let value = Self.string(elements[2 &* pair &+ 1], in: base)
            if pair < header.pointee.contents.namedCount {
                return (header.pointee.contents.layout.unsafelyUnwrapped[pair].nameString.pointee, value)
            }
            return (Self.string(elements[2 &* pair], in: base), value)
        }
    }

    /// String `index`; the bytes are valid UTF-8, so nothing is repaired.
    func string(_ index: Int) -> String {
        if let name = interned(index) { return name.pointee }
        return withUnsafeMutablePointers { header, elements in
            Self.string(elements[index],
                        in: UnsafeRawPointer(elements + header.pointee.contents.stringCount).assumingMemoryBound(to: UInt8.self))
        }
    }

    /// The interned name of string `index` when it is the name of a path parameter.
    private func interned(_ index: Int) -> UnsafePointer<String>? {
        withUnsafeMutablePointerToHeader { header in
            index < 2 &* header.pointee.contents.namedCount && index & 1 == 0
                ? header.pointee.contents.layout.unsafelyUnwrapped[index &>> 1].nameString : nil
        }
    }

    /// The string of `span` in the bytes at `base`, copied into a string made for it rather
    /// than decoded (the bytes are valid UTF-8): about half the instructions of
    /// `String(decoding:as:)` on this toolchain.
    @inline(never)
    private static func string(_ span: UInt64, in base: UnsafePointer<UInt8>) -> String {
        let count = Int(truncatingIfNeeded: span &>> 32)
        guard count > 0 else { return "" }
        let start = base + Int(truncatingIfNeeded: span & 0xFFFF_FFFF)
        return String(unsafeUninitializedCapacity: count) { target in
            target.baseAddress.unsafelyUnwrapped.initialize(from: start, count: count)
            return count
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

extension ParameterStorage {
    /// Storage holding `strings`: the pairs' names and values interleaved, then the wildcard's
    /// segments (for ``Parameters/init(_:wildcardSegments:)``).
    static func make(pairCount: Int, strings: [String]) -> ParameterStorage {
        var none: ParameterStorage?
        let storage = make(Contents(pairCount: pairCount, namedCount: 0, layout: nil,
                                    segmentCount: strings.count - 2 * pairCount, fragment: -1,
                                    stringCount: strings.count),
                           byteCount: strings.reduce(0) { $0 + $1.utf8.count }, reusing: &none)
        let layout = storage.layout
        var offset = 0
        for (index, var string) in strings.enumerated() {
            string.withUTF8 { bytes in
                if let source = bytes.baseAddress { (layout.bytes + offset).initialize(from: source, count: bytes.count) }
                layout.spans[index] = span(offset, bytes.count)
                offset += bytes.count
            }
        }
        return storage
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
