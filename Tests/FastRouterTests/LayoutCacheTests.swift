@testable import FastRouter
import Testing

/// The writer's cache of parameter layouts gives what the name table gives, whatever it holds.
@Suite struct LayoutCacheTests {
    @Test func theCacheGivesTheStoresLayouts() throws {
        let store = NameTable.Store(capacity: 1000)
        var cache = LayoutCache()
        // More name lists than the cache has slots, each asked for twice: hits, misses and
        // lists that share a slot must all give the store's layout.
        var lists: [[(name: String, segment: Int32)]] = [[]]
        for index in 0..<200 {
            lists.append([("id", Int32(index % 7))])
            lists.append([("owner", 1), ("repo\(index % 40)", Int32(2 + index % 3))])
        }
        for round in 0..<2 {
            for names in lists {
                let cached = try cache.layout(of: names, in: store)
                let direct = names.isEmpty ? NameTable.emptyLayout : try store.internLayout(names)
                #expect(cached == direct, "round \(round): \(names)")
            }
        }
        // The same names at other segments are another layout.
        #expect(try cache.layout(of: [("id", 1)], in: store) != cache.layout(of: [("id", 2)], in: store))
    }

    /// The store's own cache of recent layouts (shared by every writer) gives each name list its
    /// layout, entry by entry, through more lists than it has slots, and one pointer per list.
    @Test func theStoresRecentLayoutsSpellTheirNames() throws {
        let store = NameTable.Store(capacity: 5000)
        let lists: [[(name: String, segment: Int32)]] = (0..<1500).map { [("n\($0 % 300)", Int32($0 % 5)), ("tail", 9)] }
        var first: [UnsafePointer<NameTable.LayoutEntry>] = []
        for round in 0..<2 {
            for (index, names) in lists.enumerated() {
                var cache = LayoutCache()
                let layout = try cache.layout(of: names, in: store)
                for (position, (name, segment)) in names.enumerated() {
                    let entry = layout[position]
                    #expect(String(decoding: UnsafeBufferPointer(start: entry.name, count: entry.nameLength), as: UTF8.self) == name)
                    #expect(entry.segment == segment)
                }
                if round == 0 { first.append(layout) } else { #expect(first[index] == layout, "one layout per list") }
            }
        }
    }

    @Test func aFullStoreStillFailsThroughTheCache() {
        let store = NameTable.Store(capacity: 2)
        var cache = LayoutCache()
        #expect(throws: RouterError.self) { try cache.layout(of: [("a", 1), ("b", 2), ("c", 3)], in: store) }
    }
}
