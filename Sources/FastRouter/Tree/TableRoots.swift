#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One published version of a router's tables: the global table's root, each scheme table's
/// root, what a reader must size before a walk, the global table's ``StaticPaths`` when it
/// has no dynamic route, and its ``prefix``. One immutable block, replaced (never
/// changed) by every update, so a reader that loaded it sees one version of every table.
struct TableRoots {
    let base: UnsafeMutableRawPointer

    @inline(__always) init(_ base: UnsafeMutableRawPointer) { self.base = base }

    @inline(__always) var global: Node { Node(base.load(as: UnsafeMutableRawPointer.self)) }
    @inline(__always) var schemeCount: Int { base.load(fromByteOffset: 8, as: Int.self) }
    /// Most parameters any route of this version has: the captures a walk may record.
    @inline(__always) var maxCaptures: Int { base.load(fromByteOffset: 16, as: Int.self) }
    /// Counts publications: equal versions are the same tables.
    @inline(__always) var version: UInt64 { base.load(fromByteOffset: 24, as: UInt64.self) }
    /// Routes (expansions) of the global table with a dynamic segment or a wildcard: while there
    /// is none, ``staticPaths`` holds every route of the table.
    @inline(__always) var dynamicRoutes: Int { base.load(fromByteOffset: 40, as: Int.self) }
    /// The global table's routes by path; valid (and used) only when ``dynamicRoutes`` is 0.
    @inline(__always) var staticPaths: StaticPaths {
        StaticPaths(root: UnsafeMutableRawPointer(bitPattern: base.load(fromByteOffset: 32, as: UInt.self)))
    }

    /// The literal segments every route of the global table begins with, as the bytes a path
    /// starts with (`/1` for `/1/users`, `/1/login`…; `/api/v1` for `/api/v1/…`), up to 8 of
    /// them, and the node after them. A walk compares them as one word and starts at that node,
    /// instead of a step per segment through nodes that offer nothing else (no route ends there,
    /// no dynamic segment, one literal child): what a radix tree's root label gives matchit and
    /// httprouter. `length` is 0 when the root offers more than one way (most tables).
    @inline(__always) var prefixLength: Int { base.load(fromByteOffset: 48, as: Int.self) }
    /// ``prefixLength`` bytes of the prefix, little-endian, the rest zero.
    @inline(__always) var prefixWord: UInt64 { base.load(fromByteOffset: 56, as: UInt64.self) }
    /// The node the prefix leads to; the global root when there is no prefix.
    @inline(__always) var prefixNode: Node { Node(base.load(fromByteOffset: 64, as: UnsafeMutableRawPointer.self)) }
    /// The bits of a word that ``prefixWord`` covers: its first ``prefixLength`` bytes.
    @inline(__always) var prefixMask: UInt64 { base.load(fromByteOffset: 72, as: UInt64.self) }

    private static let headerSize = 80
    private static let entrySize = 24

    /// Scheme table `index`: its lower-cased name and root.
    @inline(__always)
    func scheme(at index: Int) -> (name: UnsafePointer<UInt8>, nameLength: Int, root: Node) {
        let entry = base + (Self.headerSize &+ Self.entrySize &* index)
        return (UnsafePointer(entry.load(fromByteOffset: 8, as: UnsafeMutableRawPointer.self).assumingMemoryBound(to: UInt8.self)),
                entry.load(fromByteOffset: 16, as: Int.self),
                Node(entry.load(as: UnsafeMutableRawPointer.self)))
    }

    /// The root of the table for `scheme` (any case), or `nil` when no route uses that scheme.
    @inline(__always)
    func root(forScheme scheme: UnsafePointer<UInt8>, count: Int) -> Node? {
        for index in 0..<schemeCount {
            let entry = self.scheme(at: index)
            if entry.nameLength == count, ByteComparison.equal(entry.name, scheme, count, folded: true) { return entry.root }
        }
        return nil
    }

    /// A new block for `roots` (the global table's first).
    static func make(_ roots: [(scheme: [UInt8]?, root: Node)], maxCaptures: Int, version: UInt64,
                     staticPaths: StaticPaths = StaticPaths(root: nil), dynamicRoutes: Int = 0,
                     in arena: BlockArena) -> TableRoots {
        let schemes = roots.dropFirst()
        let nameBytes = schemes.reduce(0) { $0 + ($1.scheme?.count ?? 0) }
        let size = headerSize + entrySize * schemes.count + max(nameBytes, 1)
        // From the tree's arena, as a node is: one is made for every publication, and a system
        // allocation and its free cost several times a slab's.
        let base = arena.allocate(byteCount: size)
        base.storeBytes(of: roots[0].root.base, as: UnsafeMutableRawPointer.self)
        base.storeBytes(of: schemes.count, toByteOffset: 8, as: Int.self)
        base.storeBytes(of: maxCaptures, toByteOffset: 16, as: Int.self)
        base.storeBytes(of: version, toByteOffset: 24, as: UInt64.self)
        base.storeBytes(of: UInt(bitPattern: staticPaths.root), toByteOffset: 32, as: UInt.self)
        base.storeBytes(of: dynamicRoutes, toByteOffset: 40, as: Int.self)
        let prefix = commonPrefix(of: roots[0].root)
        base.storeBytes(of: prefix.length, toByteOffset: 48, as: Int.self)
        base.storeBytes(of: prefix.word, toByteOffset: 56, as: UInt64.self)
        base.storeBytes(of: prefix.node.base, toByteOffset: 64, as: UnsafeMutableRawPointer.self)
        base.storeBytes(of: prefix.mask, toByteOffset: 72, as: UInt64.self)
        var nameOffset = headerSize + entrySize * schemes.count
        for (index, entry) in schemes.enumerated() {
            let slot = base + headerSize + entrySize * index
            let name = entry.scheme ?? []
            slot.storeBytes(of: entry.root.base, as: UnsafeMutableRawPointer.self)
            slot.storeBytes(of: base + nameOffset, toByteOffset: 8, as: UnsafeMutableRawPointer.self)
            slot.storeBytes(of: name.count, toByteOffset: 16, as: Int.self)
            for byte in name {
                base.storeBytes(of: byte, toByteOffset: nameOffset, as: UInt8.self)
                nameOffset += 1
            }
        }
        return TableRoots(base)
    }

    /// Frees the block into `arena`, which it came from.
    func deallocate(in arena: BlockArena) { arena.deallocate(base) }

    /// The ``prefix`` of a table with `root`: from the root down, while a node has no route
    /// ending at it, nothing dynamic and exactly one literal child, `/` and that child's label,
    /// as long as the whole fits in one word. A path whose first bytes are not these matches no
    /// route of the table, and one that has them goes on from the last child exactly as a walk
    /// through those nodes would. `mask` covers the prefix's bytes of a word.
    static func commonPrefix(of root: Node) -> (length: Int, word: UInt64, mask: UInt64, node: Node) {
        var length = 0, word: UInt64 = 0, node = root
        while node.terminalCount == 0 && node.flags & (Node.singleLiteralFlag | Node.dynamicFlag) == Node.singleLiteralFlag {
            let child = node.indexedChild(at: 0)
            let count = child.labelLength
            guard length + 1 + count <= 8 else { break }
            word |= 0x2F << UInt64(8 * length)
            for index in 0..<count { word |= UInt64(child.storedLabel[index]) << UInt64(8 * (length + 1 + index)) }
            length += 1 + count
            node = child
        }
        return (length, word, length == 0 ? 0 : UInt64.max >> UInt64(64 - 8 * length), node)
    }

    /// Every table's root, the global table's first.
    var all: [(scheme: [UInt8]?, root: Node)] {
        [(nil, global)] + (0..<schemeCount).map { index in
            let entry = scheme(at: index)
            return (Array(UnsafeBufferPointer(start: entry.name, count: entry.nameLength)), entry.root)
        }
    }
}
