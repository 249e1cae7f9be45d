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

    /// The store's shape table gives one shape per distinct shape, through its growth: each
    /// asked for again (after the table grew) is the one it made first, and differing in any
    /// field makes another.
    @Test func theStoreInternsEachShapeOnce() throws {
        let store = NameTable.Store(capacity: 100)
        let layout = try store.internLayout([("id", 1)])
        func shape(_ index: Int) -> UnsafePointer<TerminalShape> {
            let ranks: [UInt8] = [3, UInt8(index % 5), 0]
            let host = index % 3 == 0 ? [] : Array("h\(index % 7).example".utf8)
            return ranks.withUnsafeBufferPointer { ranks in
                host.withUnsafeBufferPointer { host in
                    store.internShape(layout: layout, nameCount: 1, ranks: ranks, host: host, hostRank: UInt8(index % 3),
                                      priority: Int32(index / 15), expansion: 0, endsWithWildcard: false, methods: .any)
                }
            }
        }
        let first = (0..<500).map(shape)
        // Ranks (index mod 5), host rank (mod 3) and priority (index / 15) tell every index apart.
        #expect(Set(first.map(UInt.init(bitPattern:))).count == 500)
        for index in 0..<500 { #expect(shape(index) == first[index], "shape \(index) interned once") }
        #expect(first[0].pointee.priority == 0 && first[499].pointee.priority == 33)
    }

    @Test func aFullStoreStillFailsThroughTheCache() {
        let store = NameTable.Store(capacity: 2)
        var cache = LayoutCache()
        #expect(throws: RouterError.self) { try cache.layout(of: [("a", 1), ("b", 2), ("c", 3)], in: store) }
    }
}
