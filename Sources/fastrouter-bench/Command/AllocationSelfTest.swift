import CAllocCounter
#if canImport(Glibc)
import Glibc
#endif

/// Proves the allocation counter sees allocations before any allocation figure is reported:
/// a known malloc through the dynamic symbol, a Swift heap object, and an allocation made
/// inside another shared library (libc's strdup) must each be counted, and a loop that does
/// not allocate must count zero.
enum AllocationSelfTest {
    nonisolated(unsafe) private static var kept: [UInt8] = []

    static func run() -> String? {
        guard alloc_counter_self_test() == 1 else {
            return "malloc does not resolve to the counting definition (is the executable statically linked?)"
        }
        let size = 64 + Int(Clock.now() % 64)
        alloc_counter_begin()
        kept = [UInt8](repeating: 1, count: size)
        let swiftAllocations = alloc_counter_end()
        guard swiftAllocations >= 1 else { return "a Swift array allocation was not counted" }

        let source = Array("fastrouter-bench".utf8CString)
        // A first call binds the symbol lazily (ld.so may allocate then); count the second.
        free(source.withUnsafeBufferPointer { strdup($0.baseAddress!) })
        alloc_counter_begin()
        let copy = source.withUnsafeBufferPointer { strdup($0.baseAddress!) }
        let libraryAllocations = alloc_counter_end()
        // The pointer escapes, so the optimizer cannot fold strdup + free away.
        Sink.consume(UInt64(UInt(bitPattern: copy)))
        free(copy)
        guard libraryAllocations == 1 else { return "strdup inside libc counted \(libraryAllocations) allocations, not 1" }

        var total: UInt64 = 0
        var value = UInt64(size)
        alloc_counter_begin()
        while value < 5000 {
            total &+= value &* value
            value += 1
        }
        let idle = alloc_counter_end()
        Sink.consume(total)
        guard idle == 0 else { return "a loop without allocation counted \(idle)" }
        return nil
    }
}
