@testable import FastRouter
import Testing

/// Patched copies (docs/ARCHITECTURE.md, "Updates"): a node or chunk an edit only passes
/// through is copied as its block with new child addresses and key, and thawed whole only when
/// its own structure changes or a removal below lowers its key. The invariants (checked after
/// every change here) hold each copy to the block a whole thaw would write.
@Suite struct PatchedCopyTests {
    /// A router with a chunked node (`/wide`, 1 000 children) and an indexed one (`/narrow`),
    /// each child with a route below it.
    private static func router() throws -> Router<Int> {
        let router = Router<Int>()
        var routes = (0..<1_000).map { Route("/wide/w\($0)/x", id: UInt64($0 + 1), value: $0) }
        routes += (0..<8).map { Route("/narrow/n\($0)/x", id: UInt64(2_000 + $0), value: 2_000 + $0) }
        try router.add(contentsOf: routes)
        router.core.checkInvariants()
        return router
    }

    @Test func aHigherPriorityRouteBelowRaisesEveryAncestorsKeyAndItsRemovalLowersThem() throws {
        let router = try Self.router()
        for (prefix, id) in [("/wide/w500", 10_000), ("/narrow/n3", 10_001)] {
            // Below an existing path: every node on the way is a patched copy but the last.
            try router.add("\(prefix)/x/:rest", priority: 7, id: UInt64(id), value: id)
            router.core.checkInvariants()
            #expect(router.core.tables.blocksWrittenByLastPublication <= 8,
                    "an add through copies writes the nodes and chunks on its path only")
            #expect(try router.match("\(prefix)/x/tail")?.value == id)
            // The removal lowers the keys of the copies on the way again.
            router.remove(id: UInt64(id))
            router.core.checkInvariants()
            #expect(try router.match("\(prefix)/x/tail") == nil)
            #expect(try router.match("\(prefix)/x") != nil)
        }
    }

    @Test func aBatchPatchesOneCopyManyTimesThenThawsItWhole() throws {
        let router = try Self.router()
        // Routes below many children of the same chunked node in one batch: its chunks collect
        // patches past the limit and are thawed whole; the result is the same tree.
        let count = TreeEditor.patchLimit * 3
        try router.add(contentsOf: (0..<count).map { Route("/wide/w\($0 * 7)/x/y", id: UInt64(20_000 + $0), value: $0) })
        router.core.checkInvariants()
        for index in 0..<count { #expect(try router.match("/wide/w\(index * 7)/x/y")?.value == index) }
        let fresh = Router<Int>()
        try fresh.add(contentsOf: (0..<1_000).map { Route("/wide/w\($0)/x", id: UInt64($0 + 1), value: $0) }
            + (0..<8).map { Route("/narrow/n\($0)/x", id: UInt64(2_000 + $0), value: 2_000 + $0) }
            + (0..<count).map { Route("/wide/w\($0 * 7)/x/y", id: UInt64(20_000 + $0), value: $0) })
        func tree(_ router: Router<Int>) -> Substring { router.core.dump().split(separator: "  tree:\n").last ?? "" }
        #expect(tree(router) == tree(fresh), "patched copies give the tree a whole rebuild gives")
        // Removing them one at a time, each removal's copies checked.
        for index in 0..<count {
            router.remove(id: UInt64(20_000 + index))
            router.core.checkInvariants()
        }
        #expect(try router.match("/wide/w7/x/y") == nil)
        #expect(try router.match("/wide/w7/x")?.value == 7)
    }

    // MARK: A copy that gains a literal child

    /// The tree below the routes' block, as ``RouterCore/dump()`` prints it.
    private static func tree(_ router: Router<Int>) -> Substring { router.core.dump().split(separator: "  tree:\n").last ?? "" }

    /// A router with `routes` (id: position + 1) added one by one, each add's tree checked and
    /// compared with a router made of the same routes in one batch.
    private static func addOneByOne(_ patterns: [String]) throws -> Router<Int> {
        let router = Router<Int>()
        for (position, pattern) in patterns.enumerated() {
            try router.add(pattern, id: UInt64(position + 1), value: position + 1)
            router.core.checkInvariants()
            let fresh = Router<Int>()
            try fresh.add(contentsOf: patterns[...position].enumerated().map { Route($1, id: UInt64($0 + 1), value: $0 + 1) })
            #expect(tree(router) == tree(fresh), "after \(pattern): the copy with an insertion is the block a rebuild writes")
        }
        return router
    }

    @Test func aNodeGainingALiteralChildIsItsCopyWithTheChildInsertedInOrder() throws {
        // `/a` has a route, a placeholder child, an edge and literal children; new literals land
        // first, between and last in its index, and `/leaf` gains its first child.
        let patterns = ["/a", "/a/:id", "/a/{n:int}/e", "/a/m", "/a/z", "/a/b", "/a/zz", "/a/0", "/a/mm",
                        "/leaf", "/leaf/x", "/a/:id/deep", "/a/{n:int}/e/f"]
        let router = try Self.addOneByOne(patterns)
        for (position, pattern) in patterns.enumerated() where !pattern.contains(":") && !pattern.contains("{") {
            #expect(try router.match(pattern)?.value == position + 1, "\(pattern)")
        }
        #expect(try router.match("/a/q")?.value == 2, "a segment no literal takes goes to the placeholder")
        #expect(try router.match("/a/7/e")?.value == 3)
        // One add writes its path only: the new leaf, `/a`'s copy and the root.
        try router.add("/a/c", id: 100, value: 100)
        #expect(router.core.tables.blocksWrittenByLastPublication == 3)
        #expect(try router.match("/a/c")?.value == 100)
    }

    @Test func anIndexGrowsPastATagBlockAndIntoChunks() throws {
        // 15 → 17 children crosses the first block of 16 tags; 63 → 65 fills the index, then
        // moves the children into chunks (a copy takes no insertion past the limit).
        let limit = LiteralChildren.inlineLimit
        let router = try Self.addOneByOne(["/p/:id"] + (0...(limit + 1)).map { "/p/c\(($0 * 37) % 101)" })
        #expect(try router.match("/p/c37")?.value == 3)
        #expect(try router.match("/p/other")?.value == 1)
    }

    @Test func aBatchInsertsOnceIntoACopyThenThawsItWhole() throws {
        let base = ["/a/:id", "/a/m", "/a/:id/x"]
        let router = Router<Int>()
        try router.add(contentsOf: base.enumerated().map { Route($1, id: UInt64($0 + 1), value: $0 + 1) })
        // One batch: a patch below the placeholder, then an insertion, then a second insertion
        // into the same copy (it is then thawed whole), then an add ending at the copy itself.
        let batch = ["/a/:id/x/y", "/a/b", "/a/n", "/a"]
        try router.add(contentsOf: batch.enumerated().map { Route($1, id: UInt64(10 + $0), value: 10 + $0) })
        router.core.checkInvariants()
        let fresh = Router<Int>()
        try fresh.add(contentsOf: base.enumerated().map { Route($1, id: UInt64($0 + 1), value: $0 + 1) }
            + batch.enumerated().map { Route($1, id: UInt64(10 + $0), value: 10 + $0) })
        #expect(Self.tree(router) == Self.tree(fresh))
        #expect(try router.match("/a/b")?.value == 11)
        #expect(try router.match("/a/n")?.value == 12)
        #expect(try router.match("/a")?.value == 13)
        #expect(try router.match("/a/q/x/y")?.value == 10)
        // A batch whose only insertion is into a copy that also gains a route at the end.
        try router.add(contentsOf: [Route("/a/m/k", id: 20, value: 20), Route("/a/m", priority: 1, id: 21, value: 21)])
        router.core.checkInvariants()
        #expect(try router.match("/a/m")?.value == 21)
        #expect(try router.match("/a/m/k")?.value == 20)
    }
}
