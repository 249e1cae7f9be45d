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
}
