import Foundation
import Testing
@testable import FastRouter
@testable import FastRouterLint

/// Random tables with method sets, checked against lookups with methods: whatever the linter
/// says a route loses, no URL gives it back (docs/SEMANTICS.md §3.7).
@Suite struct MethodSoundnessTests {
    /// Method sets the random routes take: single methods, pairs, HEAD alone and with GET, any.
    static let methodSets: [[HTTPMethod]] = [[.get], [.post], [.get, .post], [.get, .head], [.head], [], []]
    /// Methods every claim is checked with when a route is hidden for every method.
    static let probes: [HTTPMethod?] = [nil, .get, .head, .post, .put, HTTPMethod(rawValue: "BREW")]

    @Test func methodFindingsHoldForEveryURL() throws {
        var checked: [LintFinding.Kind: Int] = [:]
        for seed in 0..<80 {
            for headFallback in [true, false] {
                try checkRandomTable(seed: seed, options: RouterOptions(headFallback: headFallback), &checked)
            }
        }
        // The tables are small and dense: each kind of finding must have come up. A GET route
        // loses HEAD to another GET route only at a tie of shape (docs/SEMANTICS.md §3.7): rare.
        #expect(checked[.shadowedRoute, default: 0] >= 100)
        #expect(checked[.partlyShadowedRoute, default: 0] >= 50)
        #expect(checked[.unreachableMethods, default: 0] >= 5)
        #expect(checked[.ambiguousRoutes, default: 0] >= 20)
        #expect(checked[.headServedElsewhere, default: 0] >= 3)
    }

    private func checkRandomTable(seed: Int, options: RouterOptions, _ checked: inout [LintFinding.Kind: Int]) throws {
        var random = SplitMix64(UInt64(seed) &+ 5)
        let shapes = ["a", "b", ":P", "{P:int}", "{P:hex}", "{P:alpha}", "{P}.{Q}"]
        let pool = ["a", "b", "1", "22", "x.y", "ab1", "-3"]
        let router = Router<Int>(options: options)
        var depths: [UInt64: Int] = [:]
        for index in 0..<10 {
            let depth = 1 + Int(random.next() % 2)
            var segments = (0..<depth).map { _ in shapes[Int(random.next() % UInt64(shapes.count))] }
            if random.next() % 6 == 0 { segments[depth - 1] = "*w" }
            var used = 0
            let pattern = "/" + segments.map { segment -> String in
                used += 1
                return segment.replacingOccurrences(of: "P", with: "p\(used)").replacingOccurrences(of: "Q", with: "q\(used)")
            }.joined(separator: "/")
            let methods = Self.methodSets[Int(random.next() % UInt64(Self.methodSets.count))]
            do {
                try router.add(pattern, methods: methods, priority: Int32(random.next() % 2), id: UInt64(index), value: index)
                depths[UInt64(index)] = depth
            } catch {
                continue
            }
        }
        for finding in router.lint() {
            let route = try #require(finding.route)
            checked[finding.kind, default: 0] += 1
            switch finding.kind {
            case .ambiguousRoutes:
                let example = try #require(finding.exampleURL)
                let ids = try router.matches(example, methods: finding.methods.first).map(\.routeID)
                #expect(ids.contains(route.id) && ids.contains(finding.relatedRoute!.id), "\(finding.message)")
            case .headServedElsewhere:
                let example = try #require(finding.exampleURL)
                #expect(try router.match(example, method: .get).match?.routeID == route.id, "\(finding.message)")
                #expect(try router.match(example, method: .head).match?.routeID == finding.relatedRoute?.id, "\(finding.message)")
            case .shadowedRoute, .unreachableMethods, .partlyShadowedRoute:
                // A route for any method hidden wholly is checked with every probe.
                let methods: [HTTPMethod?] = finding.methods.isEmpty ? Self.probes : finding.methods
                var urls: [String] = [""]
                for _ in 0..<(depths[route.id]! + 1) { urls = urls.flatMap { prefix in pool.map { prefix + "/" + $0 } } + urls }
                for url in Set(urls) where !url.isEmpty {
                    for method in methods {
                        let ids = try router.matches(url, methods: method).map(\.routeID)
                        guard ids.contains(route.id) else { continue }
                        #expect(ids.first != route.id, "\(route.pattern) is first for \(method?.rawValue ?? "no method") \(url): \(finding.message)")
                    }
                }
            default:
                Issue.record("unexpected finding: \(finding.message)")
            }
        }
    }
}

extension Router {
    /// Every candidate for `url`, best first: for a request with `method`, or without a method when `nil`.
    fileprivate func matches(_ url: String, methods method: HTTPMethod?) throws -> [Match<Value>] {
        guard let method else { return try matches(url) }
        return try matches(url, method: method)
    }
}
