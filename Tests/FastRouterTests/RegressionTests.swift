@testable import FastRouter
import Foundation
import Synchronization
import Testing

/// Inputs found by the fuzzers (Tests/Fuzz), the soak and the bad-input catalogue, minimised,
/// one test each. Problems not fixed yet are wrapped in `withKnownIssue`: the test passes while
/// the problem is there and fails once it is gone, so the wrapper is removed with the fix.
@Suite struct RegressionTests {
    /// A value that reports when the router releases it.
    final class Tracked: Sendable {
        private let flag: Flag

        /// Set when the value is released.
        final class Flag: Sendable {
            let value = Atomic<Bool>(false)
            /// True once the value is released.
            var isReleased: Bool { value.load(ordering: .sequentiallyConsistent) }
        }

        init(_ flag: Flag) {
            self.flag = flag
        }

        deinit { flag.value.store(true, ordering: .sequentiallyConsistent) }
    }

    /// fuzz-pattern: `ta://@nIn`. A custom-scheme host literal holding '@' (or ':') sits in the
    /// URL's authority, where the scanner reads "…@" as userinfo and drops it: reverse routing must
    /// escape it (%40) for the URL it builds to reach the route again.
    @Test func reverseRoutingEscapesAtSignInCustomHost() throws {
        let router = Router<Int>()
        try router.add("myapp://u@h/x", id: 1, value: 1)
        try router.add("ta://@nIn", id: 2, value: 2)
        try router.add("ta://a:b/:c", id: 3, value: 3)
        for (id, parameters) in [(UInt64(1), [(String, String)]()), (2, []), (3, [("c", "x@y:z")])] {
            let url = try router.core.url(for: id, parameters: parameters)
            #expect(try router.match(url)?.routeID == id, "built \(url)")
        }
        #expect(try router.match("myapp://u%40h/x")?.routeID == 1)
    }

    /// fuzz-differential: `x:` with only `/*rest` registered and global fallback off. The router
    /// read "name:" without "//" as a scheme (RFC 3986), the reference matcher as a path. Decided
    /// (README, choices): it is a scheme with an empty authority, and the rest is the path, as
    /// in `name:///rest`; for a custom scheme its first segment is what the route's host segment
    /// matches (compared as a path segment, there being no authority).
    @Test func schemeWithoutSlashesIsASchemeWithAnEmptyAuthority() throws {
        let options = RouterOptions(globalFallback: false)
        let router = Router<Int>(options: options)
        try router.add("/*rest", id: 1, value: 1)
        try router.add("mailto://:address", id: 2, value: 2)
        try router.add("x://y/:z", id: 3, value: 3)
        try router.add("https://*/p/:q", id: 4, value: 4)
        try router.add("https://example.com/p/:q", id: 5, value: 5)
        var reference = ReferenceMatcher(options: options)
        #expect(reference.add([("/*rest", 0, 1)]) == .added)
        #expect(reference.add([("mailto://:address", 0, 2)]) == .added)
        #expect(reference.add([("x://y/:z", 0, 3)]) == .added)
        #expect(reference.add([("https://*/p/:q", 0, 4)]) == .added)
        #expect(reference.add([("https://example.com/p/:q", 0, 5)]) == .added)
        let expected: [(String, [UInt64])] = [
            ("x:", []), ("mailto:a@b", [2]), ("x:/y", []), ("x:y/1", [3]), ("x:/y/1", [3]), ("x:///y/1", [3]),
            ("x:Y/1", []), ("https:p/1", [4]), ("https:/p/1", [4]), ("MAILTO:a@b?subject=hi", [2]),
        ]
        for (url, ids) in expected {
            let actual = try router.matches(url).map(\.routeID)
            let oracle = reference.matches(url)?.candidates.map(\.id)
            #expect(actual == ids, "\(url)")
            #expect(oracle == ids, "reference: \(url)")
        }
        #expect(try router.match("mailto:a@b")?.parameters["address"] == "a@b")
        #expect(try router.matches("x://y").isEmpty)
        #expect(reference.matches("x://y")?.candidates.isEmpty == true)
    }

    /// Bad-input catalogue: `/*.json`. docs/SEMANTICS.md §2 reports an error at the offending construct's first
    /// byte, and §3.6 names the construct: "a `*` anywhere but a whole last segment (`*.json`)".
    /// The parser reported the '.' after it (offset 2) instead of the '*' (offset 1).
    @Test func wildcardInsideASegmentIsReportedAtItsStar() {
        let router = Router<Int>()
        for (pattern, offset) in [("/*.json", 1), ("/a/*name.json", 3), ("/**", 1), ("/*1", 1), ("/a*b", 2),
                                  ("/*/x/{", 1), ("/*(/a)", 1), ("/a(/*)(/b)", 4)] {
            let error = #expect(throws: RouterError.self, "\(pattern)") { try router.add(pattern, value: 1) }
            #expect(error?.code == .invalidPattern && error?.offset == offset, "\(pattern): \(String(describing: error))")
        }
    }

    /// Soak and bad-input catalogue: while any reader (a Matcher or a thread that matched once)
    /// stays idle, values of removed routes are never released, and every remove(id:) rescans all
    /// of them: 20,000 add/remove pairs of 10 KB values grew resident memory by 200 MB and took
    /// 2 s for the first 5,000 and 41 s for the fourth 5,000. An idle reader holds only its own
    /// last result, not the removed route's value.
    @Test func removedValuesAreReleasedWhileAnotherReaderIsIdle() throws {
        let router = Router<Tracked>()
        let idle = Matcher(router: router)
        try router.add("/keep", id: 1, value: Tracked(Tracked.Flag()))
        #expect(try idle.match("/keep"))
        let released = Tracked.Flag()
        try router.add("/gone", id: 2, value: Tracked(released))
        #expect(router.remove(id: 2) == 1)
        // Later writes are the router's chances to reclaim.
        for index in 0..<4 {
            try router.add("/churn/\(index)", id: 10, value: Tracked(Tracked.Flag()))
            router.remove(id: 10)
        }
        #expect(released.isReleased)
        #expect(idle.value != nil && idle.routeID == 1)
        withExtendedLifetime(idle) {}
    }

    /// The other side of the rule above: the value an idle Matcher still holds is kept until the
    /// matcher moves on, while values removed around it are released.
    @Test func valueHeldByAnIdleMatcherOutlivesItsRouteUntilTheNextLookup() throws {
        let router = Router<Tracked>()
        let idle = Matcher(router: router)
        let held = Tracked.Flag()
        try router.add("/held", id: 1, value: Tracked(held))
        #expect(try idle.match("/held"))
        #expect(router.remove(id: 1) == 1)
        var others: [Tracked.Flag] = []
        for index in 0..<4 {
            let flag = Tracked.Flag()
            others.append(flag)
            try router.add("/churn/\(index)", id: 10, value: Tracked(flag))
            router.remove(id: 10)
        }
        try router.add("/last", id: 11, value: Tracked(Tracked.Flag()))
        #expect(!held.isReleased, "released while a matcher still returns it")
        #expect(idle.value != nil && idle.routeID == 1)
        #expect(others.allSatisfy { $0.isReleased })
        // Once the matcher moves on, the next writes release the held value.
        #expect(try !idle.match("/nothing"))
        router.remove(id: 11)
        try router.add("/again", id: 12, value: Tracked(Tracked.Flag()))
        #expect(held.isReleased)
    }

    /// A matcher whose lookup passed over other candidates keeps that version of the tables for
    /// its declines: it holds back every value removed meanwhile (a decline may return any of
    /// them) until it moves on; then all are released. Declines follow the lookup's version.
    @Test func matcherWithManyCandidatesHoldsBackRemovalsUntilItMovesOn() throws {
        let router = Router<Tracked>()
        let idle = Matcher(router: router)
        let patterns = ["/a/b", "/a/:x", "/:y/b", "/:y/:x", "/a/*", "/*"]
        for (index, pattern) in patterns.enumerated() {
            try router.add(pattern, id: UInt64(index), value: Tracked(Tracked.Flag()))
        }
        #expect(try idle.match("/a/b"))
        let removed = Tracked.Flag()
        try router.add("/gone", id: 20, value: Tracked(removed))
        router.remove(id: 20)
        router.remove(id: 1)
        for _ in 0..<3 {
            try router.add("/churn", id: 21, value: Tracked(Tracked.Flag()))
            router.remove(id: 21)
        }
        #expect(!removed.isReleased)
        // The lookup's version still has "/a/:x", removed since: its order is kept whole.
        var order: [UInt64] = [idle.routeID]
        while idle.next() { order.append(idle.routeID) }
        #expect(order == [0, 1, 4, 2, 3, 5])
        #expect(idle.value == nil)
        idle.clear()
        for _ in 0..<3 {
            try router.add("/churn", id: 21, value: Tracked(Tracked.Flag()))
            router.remove(id: 21)
        }
        #expect(removed.isReleased)
    }

    /// fuzz-pattern: `/{x:(*LIMIT_MATCH=1}`. PCRE2 reported this unfinished verb past the regex's
    /// end; the error's offset must still name a byte of the pattern (at most the constraint's
    /// closing brace), not the end of the pattern.
    @Test func regexErrorPastItsEndPointsIntoThePattern() {
        for pattern in ["/{x:(*LIMIT_MATCH=1}", "/a/{x:(ab}", "/{x:[a-}"] {
            let router = Router<Int>()
            do {
                try router.add(pattern, value: 1)
                Issue.record("\(pattern) registered")
            } catch {
                #expect(error.code == .invalidRegex, "\(pattern): \(error)")
                #expect(error.offset >= 0 && error.offset < pattern.utf8.count, "\(pattern): offset \(error.offset)")
            }
        }
    }

    /// fuzz-pattern: `http://ekp%2Ftki&oco/m/maam`. A host escape decoding to a delimiter
    /// ('/', '@', ':', '?', '#') registers, but no URL can carry that host (URL hosts compare as
    /// written), so the route is unreachable and reverse routing refuses it. Any escape in a
    /// pattern host is now an error at its '%' (README, choices).
    @Test func hostEscapeOfADelimiterIsRejected() {
        for (pattern, offset) in [("http://a%2Fb/x", 8), ("https://a%40b/", 9), ("https://a%3A8/", 9), ("http://a%3Fb/", 8)] {
            let router = Router<Int>()
            var caught: RouterError?
            do {
                try router.add(pattern, value: 1)
            } catch {
                caught = error
            }
            #expect(caught?.code == .invalidPattern && caught?.offset == offset, "\(pattern)")
        }
    }

    /// fuzz-match: `https://u\x08\0\0\0\0\0\0\0:p@example.com/`. docs/SEMANTICS.md §3.4 rejects a URL holding a raw
    /// NUL, including in the parts matching drops (userinfo, port).
    @Test func nulInUserinfoOrPortIsInvalid() throws {
        let router = Router<Int>()
        try router.add("/", id: 1, value: 1)
        try router.add("myapp://h/x", id: 2, value: 2)
        #expect(throws: RouterError.self) { try router.match("https://exa\u{0}mple.com/") }
        #expect(throws: RouterError.self) { try router.match("myapp://h\u{0}/x") }
        for url in ["https://u\u{0}:p@example.com/", "https://example.com:8\u{0}/", "myapp://u\u{0}@h/x"] {
            let error = #expect(throws: RouterError.self, "\(url.debugDescription)") { try router.match(url) }
            #expect(error?.code == .invalidURL)
        }
    }

    // MARK: Found in review

    /// Review: the name table stopped the process with a precondition at 16M distinct parameter
    /// names. Past its capacity an add now fails with `.outOfMemory` (FR_ENOMEM) and changes
    /// nothing; names already known still register.
    @Test func parameterNamesPastTheTableCapacityAreAnError() throws {
        let names = NameTable.Store(capacity: 3)
        let core = RouterCore(options: RouterOptions(), names: names)
        func add(_ pattern: String, _ id: UInt64) throws(RouterError) {
            try Array(pattern.utf8).withUnsafeBufferPointer { (bytes) throws(RouterError) in
                try core.add(pattern: bytes, priority: 0, id: id, payload: nil)
            }
        }
        try add("/a/:one/:two", 1)
        let error = #expect(throws: RouterError.self) { try add("/b/:one/:three/:four", 2) }
        #expect(error?.code == .outOfMemory)
        #expect(error?.message.contains("never freed") == true)
        #expect(core.count == 1 && names.count == 2)
        // One more name fits exactly; known names always do, in any order and place.
        try add("/c/:three(/:one)", 3)
        try add("/d/:two/:three/*one", 4)
        #expect(names.count == 3)
        #expect(throws: RouterError(.outOfMemory, offset: 0, error?.message ?? "")) { try add("/e/:four", 5) }
        // Removing routes frees no names: the table stays full.
        #expect(core.remove(id: 1) == 1)
        #expect(throws: RouterError.self) { try add("/e/:four", 5) }
        #expect(core.count == 2)
        let scratch = MatchScratch()
        let status = Array("/d/x/y/z".utf8).withUnsafeBufferPointer { core.match(url: $0, into: scratch) }
        #expect(status == .found && scratch.routeID == 4)
        #expect(NameTable.shared.capacity == 1 << 24)
    }

    /// Review: dump() read the route list and the trie under two holds of the writer lock, so a
    /// write in between gave a listing whose route list and trie disagree. Both now come from
    /// one hold: while a writer keeps adding routes, every dump lists exactly the ids its trie holds.
    @Test func dumpIsOneSnapshotWhileAWriterAdds() throws {
        let router = Router<Int>()
        try router.add(contentsOf: (0..<1000).map { Route("/static/r\($0)", id: UInt64($0 + 1), value: $0) })
        let done = Atomic<Bool>(false)
        let log = ConcurrencyProblemLog()
        runOnOwnThreads([
            {
                var index = 0
                while !done.load(ordering: .relaxed) {
                    _ = try? router.add("/churn/c\(index)", id: UInt64(10_000 + index), value: index)
                    index += 1
                }
            },
            {
                let deadline = ContinuousClock.now + .seconds(2)
                var count = 0
                while ContinuousClock.now < deadline && count < 300 {
                    let (listed, inTrie) = Self.idsInDump(router.dump())
                    if listed != inTrie {
                        log.record("dump \(count): \(listed.subtracting(inTrie).count) ids only listed, "
                                   + "\(inTrie.subtracting(listed).count) only in the trie")
                    }
                    count += 1
                }
                log.count("dumps", count)
                done.store(true, ordering: .relaxed)
            },
        ])
        let snapshot = log.snapshot
        #expect(snapshot.total == 0, "\(snapshot.total) torn dumps of \(snapshot.counters["dumps"] ?? 0): \(snapshot.first)")
    }

    /// The ids of a dump's route lists ("  PATTERN  priority P  id N") and of its trie ("-> id N  …").
    private static func idsInDump(_ dump: String) -> (listed: Set<Substring>, inTrie: Set<Substring>) {
        var listed = Set<Substring>()
        var inTrie = Set<Substring>()
        for line in dump.split(separator: "\n") {
            if let arrow = line.range(of: "-> id ") {
                inTrie.insert(line[arrow.upperBound...].prefix { $0 != " " })
            } else if line.hasPrefix("  "), !line.hasPrefix("   "), let id = line.range(of: "  id ", options: .backwards) {
                listed.insert(line[id.upperBound...])
            }
        }
        return (listed, inTrie)
    }
}
