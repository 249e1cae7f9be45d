import Foundation

/// The sets a run measures, built only when they are reached (a million routes take a while).
struct SuiteEntry: Sendable {
    var name: String
    var make: @Sendable () throws -> RouteSet
}

enum Suite {
    /// Every set of the default suite, in running order: small real sets first, then scale.
    static func defaultEntries(quick: Bool) -> [SuiteEntry] {
        var entries: [SuiteEntry] = EmbeddedPathSet.all.map { embedded in
            SuiteEntry(name: embedded.name) {
                var set = embedded.routeSet()
                // A quick run proves the rows with methods work on GitHub, the list the target
                // reads: each list's rows with methods add about a second to make bench-quick.
                if quick && embedded.name != EmbeddedPathSet.github.name { set.methodVariant = nil }
                return set
            }
        }
        entries.append(SuiteEntry(name: "github-constrained") {
            ConstrainedVariant.make(from: EmbeddedPathSet.github.routeSet())
        })
        entries.append(SuiteEntry(name: "deep-links") { try DeepLinkSet.make() })
        let sizes = quick ? [1000, 10_000] : [1000, 10_000, 100_000, 1_000_000]
        for size in sizes {
            entries.append(SuiteEntry(name: "scale-\(ScaleSet.label(size))") {
                ScaleSet.make(count: size, requestLimit: quick ? 1000 : 10_000)
            })
        }
        return entries
    }

    struct UnknownSet: Error, CustomStringConvertible {
        var description: String
    }

    /// Keeps the entries named by `filter`: comma-separated names, each an exact set name or,
    /// failing that, a prefix of set names (`scale` selects every scale set).
    static func select(_ entries: [SuiteEntry], filter: String?) throws(UnknownSet) -> [SuiteEntry] {
        guard let filter, !filter.isEmpty else { return entries }
        var chosen = Set<String>()
        for token in filter.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces).lowercased() }) {
            let exact = entries.filter { $0.name.lowercased() == token }
            let matches = exact.isEmpty ? entries.filter { $0.name.lowercased().hasPrefix(token) } : exact
            guard !matches.isEmpty else {
                throw UnknownSet(description: "no set named '\(token)'; sets: \(entries.map(\.name).joined(separator: ", "))")
            }
            chosen.formUnion(matches.map(\.name))
        }
        return entries.filter { chosen.contains($0.name) }
    }
}
