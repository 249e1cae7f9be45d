/// A growable list that one writer owns alone, its elements reached through a pointer the list
/// keeps: no copy-on-write, so reading or changing an element in place costs no uniqueness check
/// and no reference count, where a field of an `Array` element costs both (the tree editor
/// touches its nodes' fields a few hundred times an add).
///
/// The elements live in a `ManagedBuffer` (which deinitializes them when the last copy goes);
/// the pointers into it are kept beside it, so an access never touches the buffer object itself.
/// Copies share the elements: the owner must be used as one value (the writer's ``TreeEditor`` is
/// used where it lies in its state, never copied and kept).
struct WriterBuffer<Element> {
    private final class Storage: ManagedBuffer<Int, Element> {
        deinit {
            _ = withUnsafeMutablePointers { count, elements in elements.deinitialize(count: count.pointee) }
        }
    }

    private var storage: Storage
    /// The storage's elements and its count (its header), which its deinitializer reads.
    private var base: UnsafeMutablePointer<Element>
    private var stored: UnsafeMutablePointer<Int>
    private(set) var count = 0
    private(set) var capacity: Int

    init() {
        storage = Self.makeStorage(capacity: 4)
        base = storage.withUnsafeMutablePointerToElements { $0 }
        stored = storage.withUnsafeMutablePointerToHeader { $0 }
        capacity = 4
    }

    private static func makeStorage(capacity: Int) -> Storage {
        // Safety: `create` makes an instance of the class it is called on.
        unsafeDowncast(Storage.create(minimumCapacity: capacity) { _ in 0 }, to: Storage.self)
    }

    /// Element `index`, in place (`index` below ``count``).
    subscript(index: Int) -> Element {
        unsafeAddress {
            precondition(UInt(bitPattern: index) < UInt(bitPattern: count), "WriterBuffer index out of range")
            return UnsafePointer(base + index)
        }
        unsafeMutableAddress {
            precondition(UInt(bitPattern: index) < UInt(bitPattern: count), "WriterBuffer index out of range")
            return base + index
        }
    }

    /// The elements where they lie: valid until the next ``append(_:)``, ``reserveCapacity(_:)``
    /// or ``removeAll()``.
    var elements: UnsafeBufferPointer<Element> { UnsafeBufferPointer(start: base, count: count) }

    mutating func append(_ element: consuming Element) {
        if count == capacity { grow(to: count + 1) }
        (base + count).initialize(to: element)
        count += 1
        stored.pointee = count
    }

    mutating func reserveCapacity(_ minimum: Int) {
        if minimum > capacity { grow(to: minimum) }
    }

    /// Empties it, keeping its room.
    mutating func removeAll() {
        base.deinitialize(count: count)
        count = 0
        stored.pointee = 0
    }

    private mutating func grow(to minimum: Int) {
        let fresh = Self.makeStorage(capacity: Swift.max(minimum, capacity * 2))
        let freshBase = fresh.withUnsafeMutablePointerToElements { $0 }
        freshBase.moveInitialize(from: base, count: count)
        stored.pointee = 0
        storage = fresh
        base = freshBase
        stored = fresh.withUnsafeMutablePointerToHeader { $0 }
        stored.pointee = count
        capacity = fresh.capacity
    }
}
