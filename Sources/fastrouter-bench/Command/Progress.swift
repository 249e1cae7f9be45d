import Foundation

/// Progress lines on stderr, so stdout carries only the report.
enum Progress {
    nonisolated(unsafe) static var start = Clock.now()

    static func say(_ message: String) {
        let elapsed = Clock.seconds(since: start)
        FileHandle.standardError.write(Data((String(format: "[%6.1fs] ", elapsed) + message + "\n").utf8))
    }
}
