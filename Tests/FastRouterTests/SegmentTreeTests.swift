@testable import FastRouter
import Testing

/// The segment tree's large nodes (docs/ARCHITECTURE.md, "The lookup tree"): literal children
/// beyond a node's index go to chunks that a path copy shares, so one add under a node with
/// 65 536 children copies a few blocks, not the fan-out, and lookups, removals and the dump see
/// every child.
@Suite struct SegmentTreeTests {
    /// One add or removal under a node with 65 536 literal children writes and replaces the
    /// blocks on its path: the root, the node, one chunk per level of the node's chunks (four or
    /// five at this size) and the new route's nodes. (The invariants hold the node to chunks.) The old byte tree and the first segment tree copied every
    /// child of a changed node; this fails if a copy becomes O(fan-out) again.
    @Test func oneAddUnderAWideNodeCopiesAFewChunks() throws {
        let router = Router<Int>()
        let count = 65_536
        try router.add(contentsOf: (0..<count).map { index in
            Route("/wide/w\(index)", id: UInt64(index + 1), value: index)
        })
        router.core.checkInvariants()
        var most = 0
        for index in 0..<64 {
            try router.add("/wide/added\(index)/x", id: UInt64(count + 1 + index), value: index)
            most = max(most, router.core.tables.blocksReplacedByLastPublication,
                       router.core.tables.blocksWrittenByLastPublication)
        }
        #expect(most <= 12, "one add replaced \(most) blocks")
        router.remove(id: UInt64(count + 1))
        #expect(router.core.tables.blocksReplacedByLastPublication <= 12)
        #expect(router.core.tables.blocksWrittenByLastPublication <= 12)
        router.core.checkInvariants()
        for index in stride(from: 0, to: count, by: 997) {
            #expect(try router.match("/wide/w\(index)")?.value == index)
        }
        #expect(try router.match("/wide/added5/x")?.value == 5)
        #expect(try router.match("/wide/w\(count)") == nil)
    }

    /// A node's children move between its index and chunks as their count crosses the limit,
    /// in either direction, and the tree stays the same whatever the order of the adds.
    @Test func childrenMoveBetweenIndexAndChunks() throws {
        let total = LiteralChildren.inlineLimit + 36
        let patterns = (0..<total).map { "/n/child-\($0)" } + ["/n/:id", "/n/child-3/:sub"]
        let forwards = Router<Int>()
        let backwards = Router<Int>()
        for (index, pattern) in patterns.enumerated() { try forwards.add(pattern, id: UInt64(index + 1), value: index) }
        for (index, pattern) in patterns.enumerated().reversed() { try backwards.add(pattern, id: UInt64(index + 1), value: index) }
        forwards.core.checkInvariants()
        func tree(_ router: Router<Int>) -> Substring { router.core.dump().split(separator: "  tree:\n").last ?? "" }
        #expect(tree(forwards) == tree(backwards), "the tree's shape depends on its routes only")
        for index in 0..<total { #expect(try forwards.match("/n/child-\(index)")?.value == index) }
        #expect(try forwards.match("/n/other")?.value == total)
        // Down to the index again, one removal at a time.
        for index in 0..<(total - 10) {
            forwards.remove(id: UInt64(index + 1))
            forwards.core.checkInvariants()
        }
        for index in (total - 10)..<total { #expect(try forwards.match("/n/child-\(index)")?.value == index) }
        #expect(try forwards.match("/n/child-3")?.value == total)
        #expect(try forwards.match("/n/child-3/x")?.value == total + 1)
    }

    /// A node's index holds its tags in blocks of 16: every child is found at every size up to
    /// the limit, and a segment that shares a child's first word and length, or its tag, is not
    /// taken for it.
    @Test func everyIndexSizeFindsEachChild() throws {
        for size in 1...LiteralChildren.inlineLimit {
            let router = Router<Int>()
            // Long labels that share their first eight bytes, and short ones.
            let labels = (0..<size).map { $0 % 2 == 0 ? "prefix-0\($0)-tail" : "s\($0)" }
            for (index, label) in labels.enumerated() { try router.add("/i/\(label)", id: UInt64(index + 1), value: index) }
            router.core.checkInvariants()
            for (index, label) in labels.enumerated() {
                #expect(try router.match("/i/\(label)")?.value == index, "size \(size), child \(index)")
                #expect(try router.match("/i/\(label)x") == nil)
            }
            #expect(try router.match("/i/prefix-0\(size + 1)-tai") == nil)
            #expect(try router.match("/i/prefix-0x-tail") == nil)
        }
    }

    /// A node with one literal child compares the segment with its label directly (no tag): the
    /// label is taken only when the whole segment equals it, whether it lies in a path's first
    /// 8 bytes or later, and anything else goes to the placeholder beside it.
    @Test func aLoneLiteralChildIsComparedWhole() throws {
        let router = Router<Int>()
        try router.add("/1/users", id: 1, value: 1)
        try router.add("/1/:name", id: 2, value: 2)
        try router.add("/deeper/path/users", id: 3, value: 3)
        try router.add("/deeper/path/:name", id: 4, value: 4)
        router.core.checkInvariants()
        for prefix in ["/1/", "/deeper/path/"] {
            let literal = prefix == "/1/" ? 1 : 3
            #expect(try router.match(prefix + "users")?.value == literal)
            for other in ["user", "usersx", "Users", "u", "usera", "12345678", "users123"] {
                #expect(try router.match(prefix + other)?.value == literal + 1, "\(prefix)\(other)")
            }
        }
        #expect(try router.match("/2/users") == nil)
        #expect(try router.match("/1") == nil)
    }

    /// A case-insensitive lookup finds every child that equals the segment folded, in an index
    /// and in chunks alike.
    @Test func foldedLookupsScanChunks() throws {
        var options = RouterOptions()
        options.caseInsensitivePaths = true
        let router = Router<Int>(options: options)
        for index in 0..<(LiteralChildren.inlineLimit + 10) {
            try router.add("/c/Item\(index)", id: UInt64(index + 1), value: index)
        }
        try router.add("/c/ITEM7", id: 100, value: 100)
        router.core.checkInvariants()
        #expect(try router.match("/c/item12")?.value == 12)
        // Two routes match: the earlier registered wins (docs/SEMANTICS.md §3.1).
        #expect(try router.match("/C/item7")?.value == 7)
        #expect(try router.match("/c/item\(LiteralChildren.inlineLimit + 10)") == nil)
    }
}
