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
}
