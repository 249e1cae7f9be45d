/// A growable array of plain values in one manually managed allocation.
///
/// A reader's scratch keeps its parameters, query pairs and collected candidates in these so
/// that a lookup touches raw memory: no reference count, no copy-on-write check, no
/// bounds-checked Swift array in the hot loop.
/// Only its owner (one reader's scratch) ever grows or frees it.
@usableFromInline
struct FlatBuffer<Element: BitwiseCopyable> {
    /// Start of the storage; valid for `count` elements (capacity may be larger).
    @usableFromInline private(set) var base: UnsafeMutablePointer<Element>
    /// Number of initialized elements.
    @usableFromInline private(set) var count: Int
    /// Number of elements the storage holds before it must grow.
    private(set) var capacity: Int

    /// An empty buffer with room for `capacity` elements.
    init(capacity: Int = 8) {
        self.capacity = max(capacity, 1)
        self.base = Self.allocateStorage(self.capacity)
        self.count = 0
    }

    /// Releases the storage. The buffer must not be used afterwards.
    func deallocate() { free(base) }

    /// Storage for `capacity` elements, from malloc. Buffers of several megabytes (the tables of
    /// a large router) are aligned to 2 MiB and offered to the kernel for transparent huge pages:
    /// filling them then takes one page fault per 2 MiB instead of per 4 KiB, and lookups that
    /// wander over hundreds of megabytes miss the TLB far less often.
    @inline(never)
    private static func allocateStorage(_ capacity: Int) -> UnsafeMutablePointer<Element> {
        let bytes = byteCount(capacity)
        var raw: UnsafeMutableRawPointer?
        if bytes >= hugeBufferBytes {
            if posix_memalign(&raw, hugePageBytes, bytes) == 0, let raw {
                adviseHugePages(raw, bytes)
                return raw.bindMemory(to: Element.self, capacity: capacity)
            }
        }
        raw = malloc(max(bytes, 1))
        guard let raw else { fatalError("out of memory allocating \(bytes) bytes") }
        return raw.bindMemory(to: Element.self, capacity: capacity)
    }

    /// Bytes of storage for `capacity` elements.
    private static func byteCount(_ capacity: Int) -> Int {
        let (bytes, overflow) = capacity.multipliedReportingOverflow(by: MemoryLayout<Element>.stride)
        precondition(!overflow, "table too large")
        return bytes
    }

    /// A copy with its own storage and the same capacity, so the copy's next append does not
    /// have to grow (and copy) the whole buffer again.
    func clone() -> FlatBuffer {
        var copy = FlatBuffer(capacity: capacity)
        copy.base.update(from: base, count: count)
        copy.count = count
        return copy
    }

    @inlinable @inline(__always)
    subscript(index: Int) -> Element {
        get { base[index] }
        nonmutating set { base[index] = newValue }
    }

    /// Appends one element and returns its index. Amortized O(1).
    @discardableResult
    mutating func append(_ element: Element) -> Int {
        if count == capacity { grow(to: count + 1) }
        base[count] = element
        count += 1
        return count - 1
    }

    /// Appends the elements of `elements` and returns the index of the first.
    @discardableResult
    mutating func append(contentsOf elements: UnsafeBufferPointer<Element>) -> Int {
        let start = count
        if count + elements.count > capacity { grow(to: count + elements.count) }
        if let source = elements.baseAddress, !elements.isEmpty {
            (base + count).update(from: source, count: elements.count)
        }
        count += elements.count
        return start
    }

    /// Grows the count by `n` uninitialized elements and returns a pointer to the first of them.
    mutating func extend(by n: Int) -> UnsafeMutablePointer<Element> {
        if count + n > capacity { grow(to: count + n) }
        count += n
        return base + (count - n)
    }

    /// Empties the buffer, keeping its storage.
    @inline(__always)
    mutating func removeAll() { count = 0 }

    /// Drops elements from the end.
    mutating func removeLast(_ n: Int) { count -= n }

    /// Sets every element to `value` and the count to `newCount` (used to size hash tables).
    mutating func reset(count newCount: Int, to value: Element) {
        if newCount > capacity {
            free(base)
            capacity = newCount
            base = Self.allocateStorage(capacity)
        }
        count = newCount
        base.update(repeating: value, count: newCount)
    }

    /// Gives back the unused room of a buffer large enough to be its own mapping (see
    /// ``grow(to:)``), keeping `spare` elements of room past the last one (a buffer read a word
    /// past its end keeps that word readable): the pages beyond are unmapped in place, and a
    /// later growth remaps rather than copies. Smaller buffers keep their room.
    mutating func shrinkToFit(keepingSpare spare: Int = 0) {
        guard count + spare < capacity, Self.byteCount(capacity) >= Self.hugeBufferBytes else { return }
        let newCapacity = max(count + spare, 1)
        let bytes = Self.byteCount(newCapacity)
        guard let raw = realloc(base, bytes) else { return }
        base = raw.bindMemory(to: Element.self, capacity: newCapacity)
        capacity = newCapacity
    }

    /// Ensures room for `minimum` elements without further allocation.
    mutating func reserve(_ minimum: Int) {
        if minimum > capacity { grow(to: minimum) }
    }

    @inline(never)
    private mutating func grow(to minimum: Int) {
        let newCapacity = max(minimum, capacity * 2)
        if Self.byteCount(capacity) >= Self.hugeBufferBytes {
            // A buffer this large is its own mapping: realloc remaps its pages instead of copying
            // them into fresh ones, which the kernel would first have to clear.
            let bytes = Self.byteCount(newCapacity)
            guard let raw = realloc(base, bytes) else { fatalError("out of memory allocating \(bytes) bytes") }
            Self.adviseHugePages(raw, bytes)
            base = raw.bindMemory(to: Element.self, capacity: newCapacity)
            capacity = newCapacity
            return
        }
        let newBase = Self.allocateStorage(newCapacity)
        newBase.update(from: base, count: count)
        free(base)
        base = newBase
        capacity = newCapacity
    }

    /// Offers the whole 2 MiB pages inside `bytes` at `start` for transparent huge pages (Linux;
    /// nothing elsewhere). A remapped buffer may no longer start on a 2 MiB boundary.
    private static func adviseHugePages(_ start: UnsafeMutableRawPointer, _ bytes: Int) {
        #if os(Linux)
        let first = (UInt(bitPattern: start) + UInt(hugePageBytes - 1)) & ~UInt(hugePageBytes - 1)
        let end = (UInt(bitPattern: start) + UInt(bytes)) & ~UInt(hugePageBytes - 1)
        guard end > first, let aligned = UnsafeMutableRawPointer(bitPattern: first) else { return }
        _ = madvise(aligned, Int(end - first), MADV_HUGEPAGE)
        #endif
    }

    /// Bytes from which storage is aligned for huge pages.
    private static var hugeBufferBytes: Int { 4 << 20 }
    private static var hugePageBytes: Int { 2 << 20 }

    /// Bytes allocated, for memory statistics.
    var allocatedBytes: Int { capacity * MemoryLayout<Element>.stride }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
