import Synchronization

/// The method names one router has seen, numbered in the order it first saw them: a route's
/// ``MethodSet`` is a bit per number (docs/SEMANTICS.md §3.7). At most ``capacity`` names.
///
/// Names are only ever appended, by the writer under the router's lock, and each is written
/// before the index block that finds it and the count are published (release) and before any
/// route using it is; a reader that loaded the tables loads the index after them (acquire), so
/// it finds every name the tables it walks use (and perhaps newer ones, which no route of those
/// tables has). Lookups read the table without locks.
final class MethodTable: @unchecked Sendable {
    /// Most distinct method names a router accepts: one bit each in a 64-bit set (docs/SEMANTICS.md §3.7).
    static let capacity = 64

    /// Each name's length and bytes (owned by the table), and the name as a method.
    private let lengths = UnsafeMutablePointer<Int>.allocate(capacity: MethodTable.capacity)
    private let bytes = UnsafeMutablePointer<UnsafeMutablePointer<UInt8>>.allocate(capacity: MethodTable.capacity)
    private let names = UnsafeMutablePointer<HTTPMethod>.allocate(capacity: MethodTable.capacity)
    private let published = Atomic<Int>(0)
    /// Where a name of up to eight bytes is found by its word: ``indexSlots`` entries, each
    /// empty (word 0) or a name's ``word(_:)`` and bit, placed by open addressing from
    /// ``slot(of:)``. Equal words are equal names, so a name is mostly found with one entry
    /// read. Longer names (rare) are compared one by one (``longBit(of:)``). Each new short
    /// name gets a new block, published before the count, so readers never see an entry
    /// change; the blocks replaced stay until the table goes (64 names at most). After the
    /// slots, the block holds the bits of the standard names (``standardNames``), which a
    /// request's lookup reads without a probe (``standardBit(_:)``).
    private let index = Atomic<UInt>(0)
    private var replacedIndexes: [UnsafeMutablePointer<IndexEntry>] = []

    /// One slot of the index.
    struct IndexEntry {
        /// The name's ``MethodTable/word(_:)``; 0 for an empty slot.
        var word: UInt64
        var bit: UInt64

        static let empty = IndexEntry(word: 0, bit: 0)
    }

    /// GET's bit once a route names it (0 before): what a HEAD request adds (docs/SEMANTICS.md §3.7).
    private let getBits = Atomic<UInt64>(0)
    /// Slots of the index: twice the names a table may hold, so a probe ends soon at an empty one.
    static let indexSlots = 2 * capacity
    /// Entries of an index block: the slots, then the standard names' bits, 8 bytes each
    /// (``standardBit(_:)``).
    static let indexBlockCount = indexSlots + (standardNames.count + 1) / 2

    init() {
        let slots = UnsafeMutablePointer<IndexEntry>.allocate(capacity: Self.indexBlockCount)
        slots.initialize(repeating: .empty, count: Self.indexBlockCount)
        index.store(UInt(bitPattern: slots), ordering: .releasing)
    }

    deinit {
        UnsafeMutablePointer<IndexEntry>(bitPattern: index.load(ordering: .relaxed))?.deallocate()
        for slots in replacedIndexes { slots.deallocate() }
        let count = published.load(ordering: .relaxed)
        for index in 0..<count { bytes[index].deallocate() }
        names.deinitialize(count: count)
        names.deallocate()
        bytes.deallocate()
        lengths.deallocate()
    }

    /// Names known to readers.
    var count: Int { published.load(ordering: .acquiring) }

    // MARK: Lookups

    /// The bit of the method spelled by `bytes`, or 0 when the router has never seen it: for a
    /// name of up to eight bytes, its ``word(_:)``, one multiply and, mostly, one entry compared.
    @inline(__always)
    func bit(of bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        guard bytes.count <= 8 else { return longBit(of: bytes) }
        return bit(word: Self.word(bytes))
    }

    /// The bit of the name of up to eight bytes whose ``word(_:)`` is `word`, or 0 when the
    /// router has never seen it.
    @inline(__always)
    func bit(word: UInt64) -> UInt64 {
        // A name is written before the index block that holds it is published (release), so
        // whatever this block holds is readable. A name newer than the tables this reader loaded
        // may be found: no route of those tables has its bit, so it answers as an unknown name.
        let entries = UnsafePointer<IndexEntry>(bitPattern: index.load(ordering: .acquiring)).unsafelyUnwrapped
        var slot = Self.slot(of: word)
        while true {
            let entry = entries[slot]
            if entry.word == word { return entry.bit }
            if entry.word == 0 { return 0 }
            slot = (slot &+ 1) & (Self.indexSlots &- 1)
        }
    }

    /// The bit of standard name `number` (``standardMethodNumber(of:)``), or 0 when no route names
    /// it: one entry read, no word made and no probe.
    @inline(__always)
    func standardBit(_ number: Int) -> UInt64 {
        // As in ``bit(word:)``: the block a reader loads after its tables knows their names.
        let entries = UnsafePointer<IndexEntry>(bitPattern: index.load(ordering: .acquiring)).unsafelyUnwrapped
        return UnsafeRawPointer(entries + Self.indexSlots).load(fromByteOffset: number &* 8, as: UInt64.self)
    }

    /// ``bit(of:)`` for a name over eight bytes: the names compared one by one (the published
    /// ones: each is written before the count).
    @inline(never)
    private func longBit(of bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        let base = bytes.baseAddress.unsafelyUnwrapped
        for number in 0..<count where lengths[number] == bytes.count && memcmp(self.bytes[number], base, bytes.count) == 0 {
            return 1 &<< UInt64(number)
        }
        return 0
    }

    /// Where the probe for a name with `word` starts (Fibonacci hashing: the top bits of a
    /// multiply).
    @inline(__always)
    static func slot(of word: UInt64) -> Int {
        Int(truncatingIfNeeded: (word &* 0x9E37_79B9_7F4A_7C15) &>> UInt64(64 - indexSlots.trailingZeroBitCount))
    }

    // MARK: Standard names

    /// The names a request almost always has, RFC 9110's methods and PATCH (RFC 5789), in the
    /// numbering of ``standardMethodNumber(of:)``.
    static let standardNames: [HTTPMethod] = [.get, .put, .post, .head, .patch, .trace, .delete, .options, .connect]
    /// HEAD's number in ``standardNames``: a HEAD request may take GET's routes too.
    static let headNumber = 3

    // MARK: By method

    /// The bit of `method`, or 0 when the router has never seen it.
    func bit(of method: HTTPMethod) -> UInt64 {
        let word = method.word
        return word != 0 ? bit(word: word) : withUTF8(method.rawValue) { bit(of: $0) }
    }

    /// The first eight bytes of `bytes` as a little-endian word, zero-padded, with the length
    /// in the top byte when it is under eight: two names of up to eight bytes have one word
    /// only when they are equal, even when one holds NUL or control bytes (a request's method
    /// may; a route's is a token). An eight-byte name whose last byte is below 8 (not a token)
    /// gets 0, which no name has.
    @inline(__always)
    static func word(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        let count = bytes.count
        guard count != 0 else { return 0 }
        // A buffer with bytes has a base address.
        let base = bytes.baseAddress.unsafelyUnwrapped
        let raw = UnsafeRawPointer(base)
        let length = UInt64(truncatingIfNeeded: count) &<< 56
        if count >= 8 {
            let word = UInt64(littleEndian: raw.loadUnaligned(as: UInt64.self))
            return word &>> 56 < 8 ? 0 : word
        }
        if count >= 4 {
            // Two overlapping loads inside the buffer: the first four bytes and the last four.
            let low = UInt64(UInt32(littleEndian: raw.loadUnaligned(as: UInt32.self)))
            let high = UInt64(UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: count &- 4, as: UInt32.self)))
            return low | high &<< UInt64(truncatingIfNeeded: (count &- 4) &* 8) | length
        }
        if count == 1 { return UInt64(base[0]) | length }
        // Two or three bytes ("GET", "PUT"): two overlapping two-byte loads; the byte they share
        // is or-ed with itself.
        let low = UInt64(UInt16(littleEndian: raw.loadUnaligned(as: UInt16.self)))
        let high = UInt64(UInt16(littleEndian: raw.loadUnaligned(fromByteOffset: count &- 2, as: UInt16.self)))
        return low | high &<< UInt64(truncatingIfNeeded: (count &- 2) &* 8) | length
    }

    /// `"HEAD"` as a ``word(_:)``: how a lookup tells a HEAD request without a table lookup.
    static let headWord: UInt64 = 0x0400_0000_4441_4548
    /// `"GET"` as a ``word(_:)``.
    static let getWord: UInt64 = 0x0300_0000_0054_4547

    /// The bit of GET, or 0 when the router has never seen it: the routes that also answer a
    /// HEAD request (docs/SEMANTICS.md §3.7). One load.
    @inline(__always)
    var getBit: UInt64 { getBits.load(ordering: .acquiring) }

    // MARK: Registering

    /// The set of `methods` (any method when empty), numbering the names not seen before.
    /// Only the writer calls it, under the router's lock.
    /// - Throws: `.invalidArgument` when a name would be the router's 65th.
    func set(of methods: [HTTPMethod]) throws(RouterError) -> MethodSet {
        if methods.isEmpty { return .any }
        var mask: UInt64 = 0
        for method in methods {
            var bit = bit(of: method)
            if bit == 0 {
                let count = published.load(ordering: .relaxed)
                guard count < Self.capacity else {
                    throw RouterError(.invalidArgument, offset: 0,
                                      "too many distinct method names: \(method.rawValue) would be the \(count + 1)th (a router knows at most \(Self.capacity))")
                }
                let utf8 = Array(method.rawValue.utf8)
                let copy = UnsafeMutablePointer<UInt8>.allocate(capacity: utf8.count)
                copy.initialize(from: utf8, count: utf8.count)
                let word = utf8.withUnsafeBufferPointer { Self.word($0) }
                lengths[count] = utf8.count
                bytes[count] = copy
                (names + count).initialize(to: method)
                if utf8.count <= 8 { publishIndex(IndexEntry(word: word, bit: 1 &<< UInt64(count))) }
                if method == .get { getBits.store(1 &<< UInt64(count), ordering: .releasing) }
                published.store(count + 1, ordering: .releasing)
                bit = 1 &<< UInt64(count)
            }
            mask |= bit
        }
        return MethodSet(mask: mask, isAny: false)
    }

    /// Publishes a copy of the index with `entry` added; the old block is kept, since a
    /// reader may still be probing it.
    private func publishIndex(_ entry: IndexEntry) {
        let old = UnsafeMutablePointer<IndexEntry>(bitPattern: index.load(ordering: .relaxed)).unsafelyUnwrapped
        let slots = UnsafeMutablePointer<IndexEntry>.allocate(capacity: Self.indexBlockCount)
        slots.initialize(from: old, count: Self.indexBlockCount)
        var slot = Self.slot(of: entry.word)
        while slots[slot].word != 0 { slot = (slot + 1) & (Self.indexSlots - 1) }
        slots[slot] = entry
        if let number = Self.standardNames.firstIndex(where: { $0.word == entry.word }) {
            UnsafeMutableRawPointer(slots + Self.indexSlots).storeBytes(of: entry.bit, toByteOffset: number * 8, as: UInt64.self)
        }
        index.store(UInt(bitPattern: slots), ordering: .releasing)
        replacedIndexes.append(old)
    }

    // MARK: Listing

    /// Calls `body` with each method of `mask` in `Allow` order (docs/SEMANTICS.md §3.7): RFC
    /// 9110's methods in its order, then the others in the order the router first saw them.
    /// With `impliedHead`, HEAD is listed as well (GET routes serve it). Allocates nothing.
    func forEach(in mask: UInt64, impliedHead: Bool, _ body: (UnsafeBufferPointer<UInt8>, HTTPMethod) -> Void) {
        let count = self.count
        var standard: UInt64 = 0
        for method in HTTPMethod.standardOrder {
            let bit = self.bit(of: method)
            standard |= bit
            if mask & bit != 0 || (impliedHead && method == .head) {
                withUTF8(method.rawValue) { body($0, method) }
            }
        }
        for index in 0..<count where mask & (1 &<< UInt64(index)) != 0 && standard & (1 &<< UInt64(index)) == 0 {
            body(UnsafeBufferPointer(start: bytes[index], count: lengths[index]), names[index])
        }
    }

    /// The methods of `set` in `Allow` order; empty for any method.
    func methods(in set: MethodSet) -> [HTTPMethod] {
        guard !set.isAny else { return [] }
        var methods: [HTTPMethod] = []
        forEach(in: set.mask, impliedHead: false) { _, method in methods.append(method) }
        return methods
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Whether `method` is `GET`, most requests' method: three bytes compared, no word made (a
/// lookup then takes ``MethodTable/getBit``, one load, and no index probe; a table without
/// dynamic routes answers it by the path). Inlinable: the C entry `fr_router_match_method` tests
/// it before choosing its lookup.
@inlinable @inline(__always)
package func isGET(_ method: UnsafeBufferPointer<UInt8>) -> Bool {
    guard method.count == 3 else { return false }
    // A buffer with bytes has a base address.
    let base = UnsafeRawPointer(method.baseAddress.unsafelyUnwrapped)
    return base.loadUnaligned(as: UInt16.self) == UInt16(littleEndian: 0x4547) && base.load(fromByteOffset: 2, as: UInt8.self) == 0x54
}

/// The number of the standard name (``MethodTable/standardNames``) spelled by `bytes`, or -1
/// for any other: the length chooses the names to try, and one or two loads compared with the
/// names' bytes as constants tell which, without a word made or a probe.
@inlinable @inline(__always)
package func standardMethodNumber(of bytes: UnsafeBufferPointer<UInt8>) -> Int {
    // Loads read as little-endian: a name's first byte is the constant's lowest. Only a name of
    // three bytes or more is read, and it has a base address.
    @inline(__always) func word32(_ offset: Int) -> UInt32 {
        UInt32(littleEndian: UnsafeRawPointer(bytes.baseAddress.unsafelyUnwrapped).loadUnaligned(fromByteOffset: offset, as: UInt32.self))
    }
    @inline(__always) func word16(_ offset: Int) -> UInt32 {
        UInt32(UInt16(littleEndian: UnsafeRawPointer(bytes.baseAddress.unsafelyUnwrapped).loadUnaligned(fromByteOffset: offset, as: UInt16.self)))
    }
    @inline(__always) func byte(_ offset: Int) -> UInt32 { UInt32(bytes[offset]) }
    switch bytes.count {
    case 3:
        let name = word16(0) | byte(2) &<< 16
        return name == 0x54_45_47 ? 0 : name == 0x54_55_50 ? 1 : -1         // "GET", "PUT"
    case 4:
        let name = word32(0)
        return name == 0x54_53_4F_50 ? 2 : name == 0x44_41_45_48 ? 3 : -1   // "POST", "HEAD"
    case 5:
        let head = word32(0), last = byte(4)
        if head == 0x43_54_41_50 && last == 0x48 { return 4 }                // "PATC" "H"
        return head == 0x43_41_52_54 && last == 0x45 ? 5 : -1               // "TRAC" "E"
    case 6:
        return word32(0) == 0x45_4C_45_44 && word16(4) == 0x45_54 ? 6 : -1  // "DELE" "TE"
    case 7:
        // Two overlapping loads: bytes 0-3 and 3-6.
        let head = word32(0), tail = word32(3)
        if head == 0x49_54_50_4F && tail == 0x53_4E_4F_49 { return 7 }       // "OPTI" "IONS"
        return head == 0x4E_4E_4F_43 && tail == 0x54_43_45_4E ? 8 : -1      // "CONN" "NECT"
    default:
        return -1
    }
}
