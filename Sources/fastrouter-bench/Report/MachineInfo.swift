import Foundation

/// The machine a run measured, so a table is never read without its context.
struct MachineInfo: Sendable, Codable {
    var cpu: String
    var logicalCores: Int
    var memoryGiB: Double
    var os: String
    var kernel: String
    /// 1-minute load average when the run started and when it ended: other work on the machine
    /// takes cores from the measurement, and the thread figures suffer first.
    var loadAtStart: Double
    var loadAtEnd: Double?

    static func loadAverage() -> Double {
        let text = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)) ?? ""
        return text.split(separator: " ").first.flatMap { Double($0) } ?? 0
    }

    static func current() -> MachineInfo {
        let cpuinfo = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
        let cpu = cpuinfo.split(separator: "\n").first { $0.hasPrefix("model name") }
            .map { $0.split(separator: ":", maxSplits: 1).last.map { $0.trimmingCharacters(in: .whitespaces) } ?? "" } ?? "unknown"
        let release = (try? String(contentsOfFile: "/etc/os-release", encoding: .utf8)) ?? ""
        let os = release.split(separator: "\n").first { $0.hasPrefix("PRETTY_NAME=") }
            .map { String($0.dropFirst("PRETTY_NAME=".count)).trimmingCharacters(in: CharacterSet(charactersIn: "\"")) }
            ?? ProcessInfo.processInfo.operatingSystemVersionString
        let kernel = ((try? String(contentsOfFile: "/proc/sys/kernel/osrelease", encoding: .utf8)) ?? "")
            .trimmingCharacters(in: .whitespacesAndNewlines)
        return MachineInfo(cpu: cpu, logicalCores: ProcessInfo.processInfo.activeProcessorCount,
                           memoryGiB: (Double(ProcessInfo.processInfo.physicalMemory) / 1_073_741_824 * 10).rounded() / 10,
                           os: os, kernel: kernel, loadAtStart: loadAverage(), loadAtEnd: nil)
    }

    var summary: String {
        "\(cpu), \(logicalCores) logical cores, \(memoryGiB) GiB, \(os), Linux \(kernel)"
    }

    /// The load averages, with a warning when other work competed for the cores.
    var loadSummary: String {
        let end = loadAtEnd.map { String(format: "%.2f", $0) } ?? "?"
        let busy = max(loadAtStart, loadAtEnd ?? 0) > Double(logicalCores) * 0.5
        return String(format: "load average %.2f at start, %@ at end", loadAtStart, end)
            + (busy ? " — other work shared the cores, figures (threads above all) are pessimistic" : "")
    }
}
