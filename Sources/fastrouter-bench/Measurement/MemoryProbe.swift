import CAllocCounter
import FastRouter
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Heap figures from the allocator, resident size from the kernel.
enum MemoryProbe {
    /// Live bytes the allocator hands out (mallinfo2: arena in use plus mmapped blocks), plus the
    /// blocks routers keep in the regions they map for their trees themselves (``BlockArena``),
    /// which mallinfo2 does not see, counted as it counts its own.
    static func heapInUse() -> Int64 { Int64(alloc_counter_heap_in_use()) + Int64(BlockArena.bytesInUse) }

    /// Gives free pages back first, so a before/after pair compares live data only.
    static func trim() { alloc_counter_trim() }

    /// Resident set size from /proc/self/statm, or 0 where it cannot be read.
    static func residentBytes() -> Int64 {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int64(fields[1]) else { return 0 }
        return pages * Int64(sysconf(Int32(_SC_PAGESIZE)))
    }
}
