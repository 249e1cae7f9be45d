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
        var layouts: [[Int64]: UnsafePointer<LayoutEntry>] = [:]
    }

    /// One parameter of a route variant: its name and the URL segment that holds its value
    /// (-1 when it is a slice of a partial segment, found at match time).
    struct LayoutEntry {
        let name: UnsafePointer<UInt8>
        let nameLength: Int
        let segment: Int32
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

    /// An immortal parameter layout: (name, segment) for each parameter of a route variant, in
    /// pattern order. Variants with the same names at the same places share one.
    static func internLayout(_ parameters: [(name: String, segment: Int32)]) -> UnsafePointer<LayoutEntry> {
        let ids = parameters.map { intern($0.name) }
        return state.withLock { state in
            let key = zip(ids, parameters).flatMap { [Int64($0), Int64($1.segment)] }
            if let existing = state.layouts[key] { return existing }
            let storage = UnsafeMutablePointer<LayoutEntry>.allocate(capacity: max(parameters.count, 1))
            for (index, id) in ids.enumerated() {
                let bytes = entry(id).pointee.bytes
                (storage + index).initialize(to: LayoutEntry(name: bytes.baseAddress ?? UnsafePointer(bitPattern: 1)!,
                                                             nameLength: bytes.count, segment: parameters[index].segment))
            }
            state.layouts[key] = UnsafePointer(storage)
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
