import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Counters and the first few problems, shared by all threads.
final class SoakReport: @unchecked Sendable {
    private let state = Mutex<(problems: [String], count: Int)>(([], 0))
    let lookups = Atomic<Int>(0)
    let writes = Atomic<Int>(0)
    let invalidURLs = Atomic<Int>(0)

    func problem(_ text: String) {
        state.withLock { state in
            state.count += 1
            if state.problems.count < 20 { state.problems.append(text) }
        }
    }

    var problems: (count: Int, first: [String]) { state.withLock { ($0.count, $0.problems) } }
}

/// Resident set size from /proc/self/statm, in bytes (0 where unavailable).
func residentBytes() -> Int {
    guard let file = fopen("/proc/self/statm", "r") else { return 0 }
    defer { fclose(file) }
    var size = 0
    var resident = 0
    guard fscanf_statm(file, &size, &resident) else { return 0 }
    return resident * Int(sysconf(Int32(_SC_PAGESIZE)))
}

/// Reads the first two numbers of a statm line without Foundation.
private func fscanf_statm(_ file: UnsafeMutablePointer<FILE>, _ size: inout Int, _ resident: inout Int) -> Bool {
    var buffer = [CChar](repeating: 0, count: 128)
    guard fgets(&buffer, Int32(buffer.count), file) != nil else { return false }
    let fields = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        .split(separator: " ")
    guard fields.count > 1, let first = Int(fields[0]), let second = Int(fields[1]) else { return false }
    size = first
    resident = second
    return true
}

func monotonicSeconds() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
}

/// A small fast PRNG per thread (xorshift64*), so threads never share random state.
struct ThreadRandom {
    var state: UInt64

    init(seed: UInt64) { state = seed == 0 ? 0x9E37_79B9_7F4A_7C15 : seed }

    mutating func next() -> UInt64 {
        state ^= state >> 12
        state ^= state << 25
        state ^= state >> 27
        return state &* 0x2545_F491_4F6C_DD1D
    }

    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
}

/// Bytes as MiB.
func mib(_ bytes: Int) -> Double { Double(bytes) / 1_048_576 }

/// `value` with `places` decimals, without Foundation's formatter.
func decimal(_ value: Double, _ places: Int = 1) -> String {
    var scale = 1.0
    for _ in 0..<places { scale *= 10 }
    let scaled = (abs(value) * scale).rounded()
    let whole = Int(scaled / scale)
    let fraction = Int(scaled) - whole * Int(scale)
    var text = (value < 0 && scaled > 0 ? "-" : "") + String(whole)
    if places > 0 {
        let digits = String(fraction)
        text += "." + String(repeating: "0", count: places - digits.count) + digits
    }
    return text
}

/// Writes a line to standard error (the C `stderr` global is not concurrency-safe to name in Swift 6).
func printError(_ line: String) {
    var text = line + "\n"
    text.withUTF8 { bytes in _ = write(2, bytes.baseAddress, bytes.count) }
}
