// fastrouter-soak: matching threads and a writer that keeps adding and removing routes, for a
// given time, checking docs/SEMANTICS.md §3.5 on every answer: each lookup sees the table as some published
// version left it, never a mix of two, and resident memory stays flat.
//
//   fastrouter-soak [--seconds N] [--readers N] [--slots N] [--max-growth-mib N] [--unique-names] [--idle-reader]
//
// Exits 0 when every answer was consistent and memory stayed within the growth bound, 1 otherwise.

import FastRouter
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Command-line settings.
struct SoakOptions {
    var seconds = 60.0
    var readers = 3
    var slots = 64
    /// Resident growth allowed between the end of warm-up and the end of the run.
    var maxGrowthMiB = 16.0
    /// Give every churned route its own parameter name (see ``Soak``).
    var uniqueNames = false
    /// Keep one more reader that matches once and then stays idle, as a server thread may.
    var idleReader = false

    static func parse(_ arguments: [String]) -> SoakOptions? {
        var options = SoakOptions()
        var index = 0
        while index < arguments.count {
            let flag = arguments[index]
            if flag == "--unique-names" || flag == "--idle-reader" {
                if flag == "--unique-names" { options.uniqueNames = true } else { options.idleReader = true }
                index += 1
                continue
            }
            guard index + 1 < arguments.count, let value = Double(arguments[index + 1]), value > 0 else { return nil }
            switch flag {
            case "--seconds": options.seconds = value
            case "--readers": options.readers = Int(value)
            case "--slots": options.slots = Int(value)
            case "--max-growth-mib": options.maxGrowthMiB = value
            default: return nil
            }
            index += 2
        }
        return options
    }
}

@main
enum SoakCommand {
    static func main() {
        guard let options = SoakOptions.parse(Array(CommandLine.arguments.dropFirst())) else {
            printError("usage: fastrouter-soak [--seconds N] [--readers N] [--slots N] [--max-growth-mib N] [--unique-names] [--idle-reader]")
            exit(2)
        }
        let soak: Soak
        do {
            soak = try Soak(options)
        } catch {
            printError("fastrouter-soak: the fixed routes do not register: \(error)")
            exit(1)
        }
        exit(soak.run() ? 0 : 1)
    }
}
