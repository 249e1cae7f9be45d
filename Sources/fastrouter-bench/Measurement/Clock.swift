#if canImport(Glibc)
import Glibc
#endif

/// The monotonic clock, read through clock_gettime (a vDSO call, no system call).
enum Clock {
    /// Nanoseconds since an arbitrary fixed point.
    @inline(__always)
    static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
    }

    /// CPU time the calling thread has run, in nanoseconds: unlike the wall clock it does not
    /// advance while the scheduler runs other processes, so a shared machine skews it far less.
    /// A system call (not vDSO): read it around a repetition, never around one lookup.
    @inline(__always)
    static func threadCPUTime() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
    }

    static func seconds(since start: UInt64) -> Double {
        Double(now() &- start) / 1e9
    }

    /// The median cost of one `now()` call, in nanoseconds: subtracted from single-lookup
    /// latencies so they report the lookup, not the clock.
    static let readCost: UInt64 = {
        var samples: [UInt64] = []
        samples.reserveCapacity(20_001)
        for _ in 0..<20_001 {
            let start = now()
            let end = now()
            samples.append(end &- start)
        }
        samples.sort()
        return samples[samples.count / 2]
    }()

    /// Sleeps until the monotonic clock reaches `deadline` (nanoseconds from `now()`).
    static func sleep(until deadline: UInt64) {
        var time = timespec(tv_sec: Int(deadline / 1_000_000_000), tv_nsec: Int(deadline % 1_000_000_000))
        while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &time, nil) == EINTR {}
    }
}
