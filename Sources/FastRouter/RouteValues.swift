import Synchronization

/// Where a ``Router`` keeps its routes' values (docs/ARCHITECTURE.md, "Memory per route"):
/// each route's id and value in a slot whose address does not change while a reader may hold
/// it. The slot's address is the payload the route's terminals hold (``Terminal/result``), and
/// the route id is its first word, so the untyped core reads the id of any router's route
/// (``Terminal/routeID(payloads:)``).
///
/// Slots come from chunks that double in size, up to ``largestChunk`` slots: no per-value
/// allocation and no header, so a route's value costs its id and its value's stride (16 bytes
/// for an `Int`, where a boxed value cost 32). A removed route's slot is freed once no reader
/// can hold it (``PayloadReclaimer``) and reused by a later route; when every slot is free the
/// chunks go back to the allocator.
///
/// The router's adds take slots outside the router's writer lock, and its reclaimer frees them
/// under it: a lock of its own keeps the two apart. Readers only read the slots they hold.
@usableFromInline
final class RouteValues<Value>: @unchecked Sendable {
    // Safety (`@unchecked Sendable`): the chunks and the free list are touched only under
    // `storage`'s lock; a slot's contents are written once, before its payload is published
    // with its route, and read by readers while they hold it.

    // A slot: the route id (first: the core reads it as the payload's first word), then the
    // value at ``valueOffset``. Laid out by hand rather than as a generic struct, whose type
    // metadata unspecialised code (the library's `Router.add`) would look up on every store.

    /// Where a slot's value starts.
    @usableFromInline static var valueOffset: Int { max(8, MemoryLayout<Value>.alignment) }
    /// A slot's size, a multiple of its alignment.
    static var slotStride: Int {
        let alignment = max(8, MemoryLayout<Value>.alignment)
        return (valueOffset + MemoryLayout<Value>.size + alignment - 1) / alignment * alignment
    }

    /// The most slots one chunk holds (a megabyte of 16-byte slots).
    static var largestChunk: Int { 1 << 16 }
    static var firstChunk: Int { 16 }

    /// Addresses as integers: what the lock guards is only ever touched under it.
    private struct Storage {
        var chunks: [(base: UInt, capacity: Int)] = []
        /// Slots of the last chunk handed out so far.
        var used = 0
        /// The first free slot, 0 for none; a free slot's first word links to the next.
        var free: UInt = 0
        /// Slots taken and not freed.
        var live = 0
    }

    private let storage = Mutex(Storage())

    init() {}

    deinit {
        storage.withLock { storage in
            var free = Set<UInt>()
            var next = storage.free
            while next != 0 {
                free.insert(next)
                next = UnsafeRawPointer(bitPattern: next).unsafelyUnwrapped.load(as: UInt.self)
            }
            let stride = UInt(Self.slotStride)
            for (index, chunk) in storage.chunks.enumerated() {
                let used = index == storage.chunks.count - 1 ? storage.used : chunk.capacity
                for slot in 0..<UInt(used) where !free.contains(chunk.base + slot * stride) {
                    Self.deinitializeValue(at: chunk.base + slot * stride)
                }
                UnsafeMutableRawPointer(bitPattern: chunk.base).unsafelyUnwrapped.deallocate()
            }
        }
    }

    /// A slot holding `value` for the route `routeID`: the route's payload.
    func store(_ value: Value, routeID: UInt64) -> UnsafeMutableRawPointer {
        let address = storage.withLock { storage -> UInt in
            storage.live += 1
            if storage.free != 0 {
                let slot = storage.free
                storage.free = UnsafeRawPointer(bitPattern: slot).unsafelyUnwrapped.load(as: UInt.self)
                return slot
            }
            if storage.chunks.isEmpty || storage.used == storage.chunks[storage.chunks.count - 1].capacity {
                let capacity = storage.chunks.last.map { min($0.capacity * 2, Self.largestChunk) } ?? Self.firstChunk
                let chunk = UnsafeMutableRawPointer.allocate(byteCount: capacity * Self.slotStride,
                                                             alignment: max(8, MemoryLayout<Value>.alignment))
                storage.chunks.append((UInt(bitPattern: chunk), capacity))
                storage.used = 0
            }
            storage.used += 1
            return storage.chunks[storage.chunks.count - 1].base + UInt((storage.used - 1) * Self.slotStride)
        }
        // The slot is this call's alone until its route is published.
        let slot = UnsafeMutableRawPointer(bitPattern: address).unsafelyUnwrapped
        slot.initializeMemory(as: UInt64.self, repeating: routeID, count: 1)
        (slot + Self.valueOffset).initializeMemory(as: Value.self, repeating: value, count: 1)
        return slot
    }

    /// Ends the life of the value of the slot at `address`.
    private static func deinitializeValue(at address: UInt) {
        (UnsafeMutableRawPointer(bitPattern: address).unsafelyUnwrapped + valueOffset)
            .assumingMemoryBound(to: Value.self).deinitialize(count: 1)
    }

    /// Frees the slot at `payload`: its route is gone and no reader can hold it.
    func release(_ payload: UnsafeMutableRawPointer) {
        let address = UInt(bitPattern: payload)
        Self.deinitializeValue(at: address)
        storage.withLock { storage in
            storage.live -= 1
            guard storage.live > 0 else {
                // Nothing holds a slot any more: the chunks go back, free list and all.
                for chunk in storage.chunks { UnsafeMutableRawPointer(bitPattern: chunk.base).unsafelyUnwrapped.deallocate() }
                storage = Storage()
                return
            }
            UnsafeMutableRawPointer(bitPattern: address).unsafelyUnwrapped.storeBytes(of: storage.free, as: UInt.self)
            storage.free = address
        }
    }

    /// The bytes of its chunks.
    var byteCount: Int {
        storage.withLock { $0.chunks.reduce(0) { $0 + $1.capacity } } * Self.slotStride
    }

    /// The value of the slot at `payload`, which the caller's reader holds.
    @inlinable @inline(__always)
    static func value(at payload: UnsafeMutableRawPointer) -> Value {
        (payload + valueOffset).assumingMemoryBound(to: Value.self).pointee
    }
}
