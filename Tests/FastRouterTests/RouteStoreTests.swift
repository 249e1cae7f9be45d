import Testing
@testable import FastRouter

/// The writer's route records: ids shared by several routes, the id index under heavy churn,
/// and pattern text surviving compaction of the shared text buffer.
@Suite struct RouteStoreTests {
    @Test func routesKeepTheirPatternsIdsAndOrderThroughChurn() throws {
        let router = Router<Int>()
        var expected: [(id: UInt64, pattern: String)] = []
        for index in 0..<6000 {
            // Ids repeat every 1500 routes, so each id has four routes, in registration order.
            let id = UInt64(index % 1500) &* 0x9E37_79B9 + 1
            let pattern = "/store-test/section-\(index)/items/:item"
            try router.add(pattern, id: id, value: index)
            expected.append((id, pattern))
        }
        // Removing three ids in four frees most of the text buffer, which is then compacted.
        for number in 0..<1500 where number % 4 != 0 {
            #expect(router.remove(id: UInt64(number) &* 0x9E37_79B9 + 1) == 4)
        }
        expected.removeAll { ($0.id - 1) / 0x9E37_79B9 % 4 != 0 }
        #expect(router.count == expected.count)
        let routes = router.routes
        #expect(routes.map(\.pattern) == expected.map(\.pattern))
        #expect(routes.map(\.id) == expected.map(\.id))
        #expect(router.core.routes(withID: 1).map(\.pattern) == (0..<4).map { "/store-test/section-\($0 * 1500)/items/:item" })
        #expect(try router.match("/store-test/section-3000/items/x")?.value == 3000)
        // Freed records and id slots are reused.
        try router.add("myapp://Store/:x", id: 5, value: -1)
        #expect(router.core.routes(withID: 5).map(\.scheme) == ["myapp"])
        #expect(router.remove(id: 5) == 1)
        #expect(router.remove(id: 5) == 0)
    }

    @Test func idIndexFindsEveryIdAcrossReservationsAndGrowth() {
        // Record i has id ids[i]; the index must find each one whatever way it reached its size.
        var ids: [UInt64] = []
        var index = RouteIDIndex()
        func insert(_ id: UInt64) {
            ids.append(id)
            index.insert(UInt32(ids.count - 1), id: id) { ids[Int($0)] }
        }
        for number in 0..<100 { insert(UInt64(number) &* 0x9E37_79B9_7F4A_7C15) }
        // A reservation on a non-empty index rehashes what it holds; later inserts need no growth.
        index.reserve(5000) { ids[Int($0)] }
        for number in 100..<5100 { insert(UInt64(number) &* 0x9E37_79B9_7F4A_7C15) }
        // Then growth one step at a time, past the reservation.
        for number in 5100..<9000 { insert(UInt64(number) * 3) }
        for (record, id) in ids.enumerated() {
            #expect(index.find(id) { ids[Int($0)] } == UInt32(record))
        }
        #expect(index.find(1) { ids[Int($0)] } == nil)
        // A reservation smaller than the room left changes nothing.
        index.reserve(1) { ids[Int($0)] }
        #expect(index.find(ids[42]) { ids[Int($0)] } == 42)
    }

    /// Record indexes past what the slots first give them widen the index (and shorten the
    /// ids' fingerprints); every id stays found, and removals keep the others reachable.
    @Test func idIndexWidensItsRecordIndexesAndKeepsFindingEveryId() {
        var ids: [UInt64] = []
        var index = RouteIDIndex(indexBits: 4)
        for number in 0..<3000 {
            // Sequential and clustered ids, as batches give them.
            ids.append(number % 3 == 0 ? UInt64(number) : UInt64(number) << 40 | 7)
            index.insert(UInt32(ids.count - 1), id: ids[ids.count - 1]) { ids[Int($0)] }
        }
        for (record, id) in ids.enumerated() {
            #expect(index.find(id) { ids[Int($0)] } == UInt32(record))
        }
        #expect(index.find(UInt64.max - 1) { ids[Int($0)] } == nil)
        for record in stride(from: 0, to: 3000, by: 2) { index.remove(ids[record]) { ids[Int($0)] } }
        index.shrinkIfSparse { ids[Int($0)] }
        for (record, id) in ids.enumerated() {
            #expect(index.find(id) { ids[Int($0)] } == (record % 2 == 0 ? nil : UInt32(record)))
        }
    }

    @Test func batchesAddedToALargeRouterKeepEveryIdReachable() throws {
        let router = Router<Int>()
        try router.add(contentsOf: (0..<3000).map { Route("/first/\($0)/:x", id: UInt64($0), value: $0) })
        // The second batch shares ids with the first (ids 2000..<3000) and brings new ones.
        try router.add(contentsOf: (0..<3000).map { Route("/second/\($0)/:x", id: UInt64(2000 + $0), value: -$0) })
        #expect(router.core.routes(withID: 2500).map(\.pattern) == ["/first/2500/:x", "/second/500/:x"])
        #expect(router.core.routes(withID: 4999).map(\.pattern) == ["/second/2999/:x"])
        #expect(router.remove(id: 2500) == 2)
        #expect(router.remove(id: 1) == 1)
        #expect(router.count == 6000 - 3)
        #expect(try router.match("/second/2999/y")?.value == -2999)
    }

    /// A route's regexes and partial templates, counted once per route when it is added, are
    /// counted down again from its pattern when it is removed: the shared ones stay while any
    /// route uses them, and go with the last. A route with an optional group has two expansions
    /// that both use them, which must still count once.
    @Test func sharedRegexesAndTemplatesLeaveWithTheirLastRoute() throws {
        let router = Router<Int>()
        try router.add("/a/{slug:[a-z]+}(/{v:[0-9]+})/f-{name}.json", id: 1, value: 1)
        try router.add("/b/{slug:[a-z]+}/f-{name}.json", id: 2, value: 2)
        func uses() -> (regexes: [String: Int], templates: [Int]) {
            router.core.writer.withLock { state in
                (state.regexes.mapValues(\.uses), state.templates.values.map(\.uses))
            }
        }
        #expect(uses().regexes == ["[a-z]+": 2, "[0-9]+": 1])
        #expect(uses().templates == [2])
        #expect(router.remove(id: 1) == 1)
        #expect(uses().regexes == ["[a-z]+": 1])
        #expect(uses().templates == [1])
        #expect(try router.match("/b/abc/f-x.json")?.parameters["name"] == "x")
        #expect(try router.match("/a/abc/f-x.json") == nil)
        #expect(router.remove(id: 2) == 1)
        #expect(uses().regexes.isEmpty && uses().templates.isEmpty)
    }
}
