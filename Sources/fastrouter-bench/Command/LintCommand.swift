import ArgumentParser
import FastRouter
import FastRouterLint
import Foundation

/// `fastrouter-bench lint FILE`: checks a routes file before it is loaded or measured.
struct Lint: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lint",
        abstract: "Check a routes file: invalid methods and patterns, duplicates, shadowed and ambiguous routes.",
        discussion: """
            FILE holds one route per line, '[METHOD,...] pattern [priority]' (the --routes format; \
            'GET,HEAD /users/:id', no method field for any method); blank lines and lines starting \
            with '#' are skipped. Every line is registered as the router would register it, for \
            its methods, then the table is checked for routes that can never be the first candidate \
            (another route matches every URL they match, accepts their methods and comes first), \
            routes shadowed for some of their methods only, pairs of routes that only registration \
            order tells apart, methods that differ from a standard one only by case ('get'), and \
            GET routes whose HEAD requests another route takes. Each finding names its line; \
            shadowed and ambiguous routes come with an example URL checked by a real lookup. \
            Exit status: 0 when the file is clean, 1 when it has errors (or warnings, with --strict), \
            2 when it cannot be read.
            """)

    @Argument(help: ArgumentHelp("The routes file to check.", valueName: "file"))
    var file: String

    @Flag(help: "Check for a router that compares path literals ASCII case-insensitively.")
    var caseInsensitive = false

    @Option(name: .customLong("web-scheme"),
            help: ArgumentHelp("Treat this scheme as a web scheme too (repeatable; http and https always are).",
                               valueName: "scheme"))
    var webSchemes: [String] = []

    @Flag(help: "Check for a router whose GET routes do not serve HEAD requests (no HEAD fallback).")
    var noHeadFallback = false

    @Flag(help: "Exit with status 1 on warnings too.")
    var strict = false

    func run() throws {
        let contents: String
        do {
            contents = try RouteFile.text(of: file)
        } catch {
            FileHandle.standardError.write(Data("error: \(error.description)\n".utf8))
            throw ExitCode(2)
        }
        let options = RouterOptions(caseInsensitivePaths: caseInsensitive, headFallback: !noHeadFallback,
                                    webSchemes: Set(["http", "https"] + webSchemes.map { $0.lowercased() }))
        let findings = RouteLinter.lint(routesFileContents: contents, options: options)
        print(RouteLinter.format(findings, fileName: file), terminator: "")
        let failing = findings.contains { $0.severity == .error || (strict && $0.severity == .warning) }
        if failing { throw ExitCode.failure }
    }
}
