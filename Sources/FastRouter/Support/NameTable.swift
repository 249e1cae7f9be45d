import Synchronization

/// Interned parameter names and parameter-name lists, shared by every router and never freed.
///
/// A match hands out parameter names as (pointer, length) pairs that must stay valid after the
/// lookup has left the table, even if a writer removes the route meanwhile. Interning makes the
/// names immortal: memory grows only with the number of *distinct* names and name lists, which
/// is small in any real route set, and readers need no lock or reference count to use them.
enum NameTable {
    /// One interned name: its UTF-8 bytes (immortal) and the same text as a Swift string.
    struct Entry {
        let bytes: UnsafeBufferPointer<UInt8>
        let string: String
    }

    private struct State {
        var ids: [String: UInt32] = [:]
        var lists: [[UInt32]: UnsafePointer<UInt32>] = [:]
    }

    private static let state = Mutex(State())
    /// Entries by id. Grows in fixed chunks that never move, so readers index it without a lock.
    nonisolated(unsafe) private static let chunks: UnsafeMutablePointer<UnsafeMutablePointer<Entry>?> = {
        let pointer = UnsafeMutablePointer<UnsafeMutablePointer<Entry>?>.allocate(capacity: maxChunks)
        pointer.initialize(repeating: nil, count: maxChunks)
        return pointer
    }()
    private static let chunkSize = 4096
    private static let maxChunks = 4096

    /// The id of `name`, interning it on first use.
    static func intern(_ name: String) -> UInt32 {
        state.withLock { state in
            if let id = state.ids[name] { return id }
            let id = UInt32(state.ids.count)
            let (chunk, slot) = (Int(id) / chunkSize, Int(id) % chunkSize)
            precondition(chunk < maxChunks, "more than 16M distinct parameter names")
            if chunks[chunk] == nil {
                chunks[chunk] = .allocate(capacity: chunkSize)
            }
            let utf8 = Array(name.utf8)
            let storage = UnsafeMutablePointer<UInt8>.allocate(capacity: max(utf8.count, 1))
            storage.initialize(from: utf8, count: utf8.count)
            (chunks[chunk]! + slot).initialize(to: Entry(bytes: UnsafeBufferPointer(start: storage, count: utf8.count), string: name))
            state.ids[name] = id
            return id
        }
    }

    /// An immortal copy of a list of name ids (the parameter names of one route variant, in order).
    static func internList(_ ids: [UInt32]) -> UnsafePointer<UInt32> {
        state.withLock { state in
            if let existing = state.lists[ids] { return existing }
            let storage = UnsafeMutablePointer<UInt32>.allocate(capacity: max(ids.count, 1))
            storage.initialize(from: ids, count: ids.count)
            state.lists[ids] = UnsafePointer(storage)
            return UnsafePointer(storage)
        }
    }

    /// The entry for an id returned by ``intern(_:)``. Safe from any thread without a lock:
    /// an id is only published (through a route) after its entry was written.
    @inline(__always)
    static func entry(_ id: UInt32) -> UnsafeMutablePointer<Entry> {
        chunks[Int(id) / chunkSize].unsafelyUnwrapped + Int(id) % chunkSize
    }
}
