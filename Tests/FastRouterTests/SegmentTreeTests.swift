@testable import FastRouter
import Testing

/// The segment tree's large nodes (docs/ARCHITECTURE.md, "The lookup tree"): literal children
/// beyond a node's index go to chunks that a path copy shares, so one add under a node with
/// 65 536 children copies a few blocks, not the fan-out, and lookups, removals and the dump see
/// every child.
@Suite struct SegmentTreeTests {
    /// A label of up to 16 bytes lives only in its node's header words; a longer one after the
    /// node's routes (``Node``). Labels of every length up to 40 match exactly, fold in a
    /// case-insensitive router (which reads them whole, ``Node/withLabel(_:)``), refuse a URL
    /// that differs in any one byte, and read back (the invariants compare them with the header).
    @Test func labelsOfEveryLengthMatchAndReadBack() throws {
        let exact = Router<Int>()
        let folded = Router<Int>(options: RouterOptions(caseInsensitivePaths: true))
        let alphabet = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMN".utf8)
        let labels = (1...40).map { String(decoding: alphabet.prefix($0), as: UTF8.self) }
        for (index, label) in labels.enumerated() {
            // A sibling of the same length but its last byte, so a compare of the head alone is not enough.
            try exact.add("/l/\(label)", id: UInt64(index), value: index)
            try exact.add("/l/\(label.dropLast())-", id: UInt64(100 + index), value: index)
            try folded.add("/l/\(label)", id: UInt64(index), value: index)
        }
        exact.core.checkInvariants()
        folded.core.checkInvariants()
        for (index, label) in labels.enumerated() {
            #expect(try exact.match("/l/\(label)")?.routeID == UInt64(index))
            #expect(try folded.match("/l/\(label.uppercased())")?.routeID == UInt64(index), "\(label)")
            for position in 0..<label.utf8.count {
                var bytes = Array(label.utf8)
                bytes[position] = UInt8(ascii: "~")
                let url = "/l/" + String(decoding: bytes, as: UTF8.self)
                #expect(try exact.match(url) == nil, "\(url)")
                #expect(try folded.match(url) == nil, "\(url)")
            }
        }
    }

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

    /// The literal segments every route of the global table begins with, up to 8 bytes with
    /// their slashes: where a walk starts (docs/ARCHITECTURE.md, "The lookup tree").
    @Test(arguments: [
        (["/1/users", "/1/login", "/1/users/:id"], "/1"),
        (["/api/v1/users", "/api/v1/teams/:id"], "/api/v1"),
        (["/api/v1/users", "/api/v2/users"], "/api"),
        (["/abcdefg/x", "/abcdefg/:y"], "/abcdefg"),
        (["/abcdefgh/x", "/abcdefgh/:y"], ""),
        (["/a/b/c/d/e", "/a/b/c/d/f"], "/a/b/c/d"),
        (["/1", "/1/users"], "/1"),
        (["/", "/1/users"], ""),
        (["/users", "/teams"], ""),
        (["/1/users", "/:version/users"], ""),
        (["/files/*path"], "/files"),
        (["/files/*path", "/*path"], ""),
    ])
    func theGlobalTableKnowsItsPrefix(_ patterns: [String], _ prefix: String) throws {
        let router = Router<Int>()
        for (index, pattern) in patterns.enumerated() { try router.add(pattern, id: UInt64(index + 1), value: index) }
        router.core.checkInvariants()
        let roots = router.core.tables.published
        #expect(roots.prefixLength == prefix.utf8.count)
        var word: UInt64 = 0
        for (index, byte) in prefix.utf8.enumerated() { word |= UInt64(byte) << UInt64(8 * index) }
        #expect(roots.prefixWord == word)
    }

    /// A table whose routes share a prefix answers every URL as a walk from the root would: a
    /// path with the prefix goes on after it, one without it (or with it cut inside a segment, or
    /// ending inside it) matches nothing, and the walks that cannot use it (a path shorter than a
    /// word, case-insensitive paths, declines) still do.
    @Test func aPrefixedTableAnswersAsTheTreeDoes() throws {
        let router = Router<Int>()
        try router.add("/api/v1/users", id: 1, value: 1)
        try router.add("/api/v1/users/:id", id: 2, value: 2)
        try router.add("/api/v1/*rest", id: 3, value: 3)
        try router.add("/api/v1", id: 4, value: 4)
        router.core.checkInvariants()
        #expect(router.core.tables.published.prefixLength == 7)
        #expect(try router.match("/api/v1/users")?.value == 1)
        #expect(try router.match("/api/v1/users/")?.value == 1)
        #expect(try router.match("/api/v1/users?page=2")?.value == 1)
        #expect(try router.match("/api/v1/users/42")?.parameters["id"] == "42")
        #expect(try router.match("/api/v1/other/x")?.value == 3)
        #expect(try router.match("/api/v1")?.value == 4)
        #expect(try router.match("/api/v1/")?.value == 4)
        #expect(try router.match("/api/v1?x=1")?.value == 4)
        #expect(try router.match("https://example.com/api/v1/users/7")?.parameters["id"] == "7")
        // Empty segments are dropped (docs/SEMANTICS.md §3.2): the full scan's copy has the prefix.
        #expect(try router.match("/api//v1/users")?.value == 1)
        for miss in ["/api/v2/users", "/api/v1x/users", "/api/v", "/api", "/ap", "/", "/API/v1/users",
                     "/xapi/v1/users", "/api/v10"] {
            #expect(try router.match(miss) == nil, "\(miss)")
        }
        // Decoded paths are copied into the scratch: bytes past a short path's end are whatever
        // the last long one left there, and must not complete the prefix.
        #expect(try router.match("/api/v1/us%65rs")?.value == 1)
        #expect(try router.match("/ap%69") == nil)
        #expect(try router.match("/ap%69/v1/us%65rs/9")?.parameters["id"] == "9")
        // Declines walk from the root: every candidate, best first.
        #expect(try router.matches("/api/v1/users/5").map(\.value) == [2, 3])
    }

    /// The folded walk does not use the prefix: it compares bytes exactly.
    @Test func aPrefixedTableFoldsCaseFromTheRoot() throws {
        var options = RouterOptions()
        options.caseInsensitivePaths = true
        let router = Router<Int>(options: options)
        try router.add("/1/users", id: 1, value: 1)
        try router.add("/1/login", id: 2, value: 2)
        #expect(router.core.tables.published.prefixLength == 2)
        #expect(try router.match("/1/USERS")?.value == 1)
        #expect(try router.match("/1/Login/")?.value == 2)
        #expect(try router.match("/2/users") == nil)
    }

    /// Custom schemes read their host as the first segment; the global table's prefix applies
    /// to it as to any path's first segment.
    @Test func aPrefixedTableServesCustomSchemes() throws {
        let router = Router<Int>()
        try router.add("/1/users/:id", id: 1, value: 1)
        try router.add("/1/push", id: 2, value: 2)
        #expect(router.core.tables.published.prefixLength == 2)
        #expect(try router.match("myapp://1/users/42")?.parameters["id"] == "42")
        #expect(try router.match("myapp://1/push")?.value == 2)
        #expect(try router.match("/1/push")?.value == 2)
        #expect(try router.match("myapp://2/push") == nil)
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

    /// Sibling labels of 9 to 16 bytes that share their first word and length (one tag) differ
    /// only in the word a node keeps at the end of its header (``Node/labelTail``); longer ones
    /// may differ only in a middle word, read from the label's bytes. Each segment takes its own
    /// sibling, in a small node's index and in a large node's chunks, and a near miss none.
    @Test(arguments: [4, 100])
    func siblingsThatDifferOnlyInALaterWordAreToldApart(extraSiblings: Int) throws {
        let router = Router<Int>()
        let labels = ["abcdefgh-1", "abcdefgh-2", "abcdefgh12345678", "abcdefgh12345679",
                      "abcdefgh-middle1-tail-end", "abcdefgh-middle2-tail-end"]
        for (index, label) in labels.enumerated() { try router.add("/s/\(label)", id: UInt64(index), value: index) }
        for index in 0..<extraSiblings { try router.add("/s/x\(index)", id: UInt64(100 + index), value: 100 + index) }
        router.core.checkInvariants()
        for (index, label) in labels.enumerated() { #expect(try router.match("/s/\(label)")?.value == index) }
        for miss in ["abcdefgh-3", "abcdefgh12345670", "abcdefgh-middle3-tail-end", "abcdefgh-middle1-tail-enx"] {
            #expect(try router.match("/s/\(miss)") == nil)
        }
    }
}
