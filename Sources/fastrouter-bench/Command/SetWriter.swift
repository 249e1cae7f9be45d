import ArgumentParser
import Foundation

/// `--write-sets DIR`: the selected sets as text files, for programs outside the benchmark
/// (`make perf-cache` reads scale-1M with Tests/perf/lookup_loop.c).
enum SetWriter {
    /// Writes NAME.routes (one pattern per line, then its priority when it has one, as
    /// `--routes` reads it) and NAME.urls (one request URL per line, as the request lists of
    /// Tests/perf/routesets/) for each entry, each headed by `#` lines saying what it is.
    static func write(_ entries: [SuiteEntry], to directory: String) throws {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) || createDirectory(directory),
              FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw ValidationError("cannot write sets into \(directory): not a directory")
        }
        for entry in entries {
            Progress.say("\(entry.name): preparing")
            let set = try entry.make()
            let header = "# \(set.name), \(set.summary): written by fastrouter-bench --write-sets (\(set.origin))\n"
            var routes = header + "# One pattern per line (route id = its position), then its priority when not 0.\n"
            for spec in set.routes {
                routes += spec.priority == 0 ? "\(spec.pattern)\n" : "\(spec.pattern) \(spec.priority)\n"
            }
            var urls = header + "# One request URL per line; each matches a pattern of \(set.name).routes.\n"
            for request in set.requests { urls += request.url + "\n" }
            for (name, text) in [("\(set.name).routes", routes), ("\(set.name).urls", urls)] {
                let path = URL(fileURLWithPath: directory).appendingPathComponent(name).path
                guard FileManager.default.createFile(atPath: path, contents: Data(text.utf8)) else {
                    throw ValidationError("cannot write \(path)")
                }
                Progress.say("wrote \(path)")
            }
        }
    }

    private static func createDirectory(_ path: String) -> Bool {
        (try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)) != nil
    }
}
