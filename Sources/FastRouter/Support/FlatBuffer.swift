/// A growable array of plain values in one manually managed allocation.
///
/// The trie keeps its nodes, edges and keys in these so that a lookup reads raw memory: no
/// reference count, no copy-on-write check, no bounds-checked Swift array in the hot loop.
/// Only the writer that owns a table side ever grows or frees it (see ``TableSide``).
struct FlatBuffer<Element: BitwiseCopyable> {
    /// Start of the storage; valid for `count` elements (capacity may be larger).
    private(set) var base: UnsafeMutablePointer<Element>
    /// Number of initialized elements.
    private(set) var count: Int
    /// Number of elements the storage holds before it must grow.
    private(set) var capacity: Int

    /// An empty buffer with room for `capacity` elements.
    init(capacity: Int = 8) {
        self.capacity = max(capacity, 1)
        self.base = .allocate(capacity: self.capacity)
        self.count = 0
    }

    /// Releases the storage. The buffer must not be used afterwards.
    func deallocate() { base.deallocate() }

    /// A copy with its own storage and the same capacity, so the copy's next append does not
    /// have to grow (and copy) the whole buffer again.
    func clone() -> FlatBuffer {
        var copy = FlatBuffer(capacity: capacity)
        copy.base.update(from: base, count: count)
        copy.count = count
        return copy
    }

    @inline(__always)
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
            base.deallocate()
            capacity = newCount
            base = .allocate(capacity: capacity)
        }
        count = newCount
        base.update(repeating: value, count: newCount)
    }

    /// Ensures room for `minimum` elements without further allocation.
    mutating func reserve(_ minimum: Int) {
        if minimum > capacity { grow(to: minimum) }
    }

    private mutating func grow(to minimum: Int) {
        let newCapacity = max(minimum, capacity * 2)
        let newBase = UnsafeMutablePointer<Element>.allocate(capacity: newCapacity)
        newBase.update(from: base, count: count)
        base.deallocate()
        base = newBase
        capacity = newCapacity
    }

    /// Bytes allocated, for memory statistics.
    var allocatedBytes: Int { capacity * MemoryLayout<Element>.stride }
}
