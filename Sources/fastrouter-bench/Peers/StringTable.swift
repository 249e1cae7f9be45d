/// Strings laid out back to back in one NUL-separated buffer, for the byte-oriented APIs:
/// one allocation, good locality, and no String bridging inside a timed loop.
final class StringTable: @unchecked Sendable {
    // Safety: written once in init, only read afterwards, freed in deinit; sharing it between
    // threads is sharing immutable memory.
    let base: UnsafeMutablePointer<CChar>
    /// `count + 1` offsets: string i spans `starts[i] ..< starts[i + 1] - 1` (the NUL excluded).
    let starts: UnsafeMutablePointer<Int>
    let count: Int

    init<S: Collection>(_ strings: S) where S.Element == String {
        count = strings.count
        let total = strings.reduce(0) { $0 + $1.utf8.count + 1 }
        base = .allocate(capacity: max(total, 1))
        starts = .allocate(capacity: count + 1)
        var offset = 0
        for (index, string) in strings.enumerated() {
            starts[index] = offset
            for byte in string.utf8 {
                base[offset] = CChar(bitPattern: byte)
                offset += 1
            }
            base[offset] = 0
            offset += 1
        }
        starts[count] = offset
    }

    deinit {
        base.deallocate()
        starts.deallocate()
    }

    /// Pointer to string `index` (NUL-terminated) and its length in bytes.
    @inline(__always)
    func string(_ index: Int) -> (pointer: UnsafePointer<CChar>, length: Int) {
        let start = starts[index]
        return (UnsafePointer(base + start), starts[index + 1] - start - 1)
    }
}

/// Time and memory spent building a router from prepared input.
struct BuildCost: Sendable, Codable {
    var seconds: Double
    /// Growth of the allocator's live bytes (mallinfo2) across the build.
    var heapBytes: Int64
    /// Growth of the resident set across the build (includes JIT code pages and mmaps).
    var residentBytes: Int64

    /// Runs `body` (the build only: inputs are prepared before) and measures it.
    static func measure<T>(_ body: () throws -> T) rethrows -> (T, BuildCost) {
        MemoryProbe.trim()
        let heapBefore = MemoryProbe.heapInUse()
        let residentBefore = MemoryProbe.residentBytes()
        let start = Clock.now()
        let result = try body()
        let seconds = Clock.seconds(since: start)
        let cost = BuildCost(seconds: seconds, heapBytes: MemoryProbe.heapInUse() - heapBefore,
                             residentBytes: MemoryProbe.residentBytes() - residentBefore)
        return (result, cost)
    }
}

/// Failure to build a router from a set: the route and the router's message.
struct BuildFailure: Error, CustomStringConvertible {
    var description: String
}
