#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The tree blocks of a small router (``BlockArena``'s first ``BlockArena/systemBytes``): carved
/// from small slabs that the system allocator gives, one size class a slab (docs/ARCHITECTURE.md,
/// "Tree memory").
///
/// An add writes a few blocks, and `malloc` costs a couple of hundred instructions for each (a
/// growing node's new block rarely finds a freed one of its size in the allocator's caches); a
/// slab hands one out for a few. Each block follows a 16-byte header that names its slab (0 for a
/// block of its own, bigger than every class), so it keeps `malloc`'s 16-byte alignment and a
/// freed block finds its slab without a search. A slab goes back to the system when its last
/// block is freed, so a router whose routes are removed gives back what they took.
///
/// A class's first slab holds a few blocks and each next one twice as many (up to about 8 KiB):
/// a router of a few routes costs little more than its blocks.
struct SystemSlabs {
    /// A slab's header, at its start.
    private struct Slab {
        var sizeClass: Int
        /// Blocks given out and not freed.
        var live: Int
        /// Freed blocks (each links to the next through its first word).
        var free: UnsafeMutableRawPointer?
        /// Where the next never-used block's header goes, and the end of the slab.
        var next: UnsafeMutableRawPointer
        var end: UnsafeMutableRawPointer
        /// The class's slabs with room, linked both ways.
        var previous: UnsafeMutablePointer<Slab>?
        var following: UnsafeMutablePointer<Slab>?
        var hasRoom: Bool
    }

    static let headerSize = 16
    private static let slabHeaderSize = (MemoryLayout<Slab>.size + 15) & ~15
    private static let largestSlab = 8 << 10

    /// Per class: the first slab with room, and how many blocks its next new slab holds.
    private var withRoom: [UnsafeMutablePointer<Slab>?]
    private var nextSlabBlocks: [Int]
    /// Bytes of slabs and own blocks taken from the system so far.
    private(set) var taken = 0

    init(classCount: Int) {
        withRoom = Array(repeating: nil, count: classCount + 1)
        nextSlabBlocks = Array(repeating: 4, count: classCount + 1)
    }

    /// A block of class `sizeClass` (`size` bytes), from a slab with room or a new one.
    @inline(__always)
    mutating func allocate(sizeClass: Int, size: Int) -> UnsafeMutableRawPointer {
        let slab = withRoom[sizeClass] ?? newSlab(sizeClass: sizeClass, size: size)
        let block: UnsafeMutableRawPointer
        if let free = slab.pointee.free {
            slab.pointee.free = free.load(as: UnsafeMutableRawPointer?.self)
            block = free
        } else {
            let header = slab.pointee.next
            header.storeBytes(of: UnsafeMutableRawPointer(slab), as: UnsafeMutableRawPointer.self)
            block = header + Self.headerSize
            slab.pointee.next = block + size
        }
        slab.pointee.live += 1
        if slab.pointee.free == nil && slab.pointee.next >= slab.pointee.end { unlink(slab) }
        return block
    }

    /// Frees a block of ``allocate(sizeClass:size:)`` or ``ownBlock(byteCount:)``.
    mutating func deallocate(_ block: UnsafeMutableRawPointer) {
        guard let raw = (block - Self.headerSize).load(as: UnsafeMutableRawPointer?.self) else {
            Self.freeOwnBlock(block)
            return
        }
        let slab = raw.assumingMemoryBound(to: Slab.self)
        slab.pointee.live -= 1
        if slab.pointee.live == 0 {
            if slab.pointee.hasRoom { unlink(slab) }
            free(raw)
            return
        }
        block.storeBytes(of: slab.pointee.free, as: UnsafeMutableRawPointer?.self)
        slab.pointee.free = block
        if !slab.pointee.hasRoom { link(slab) }
    }

    /// A block of `byteCount` bytes with a header of its own, given back to the system when freed.
    mutating func ownBlock(byteCount: Int) -> UnsafeMutableRawPointer {
        taken &+= byteCount
        return Self.ownBlock(byteCount: byteCount)
    }

    static func ownBlock(byteCount: Int) -> UnsafeMutableRawPointer {
        guard let base = malloc(byteCount &+ headerSize) else { fatalError("FastRouter: out of memory allocating a tree block") }
        base.storeBytes(of: nil, as: UnsafeMutableRawPointer?.self)
        return base + headerSize
    }

    static func freeOwnBlock(_ block: UnsafeMutableRawPointer) { free(block - headerSize) }

    private mutating func newSlab(sizeClass: Int, size: Int) -> UnsafeMutablePointer<Slab> {
        let stride = Self.headerSize + size
        let blocks = nextSlabBlocks[sizeClass]
        if stride * blocks * 2 <= Self.largestSlab { nextSlabBlocks[sizeClass] = blocks * 2 }
        let bytes = Self.slabHeaderSize + stride * blocks
        taken &+= bytes
        guard let raw = malloc(bytes) else { fatalError("FastRouter: out of memory allocating a tree block") }
        let slab = raw.bindMemory(to: Slab.self, capacity: 1)
        slab.initialize(to: Slab(sizeClass: sizeClass, live: 0, free: nil, next: raw + Self.slabHeaderSize,
                                 end: raw + bytes, previous: nil, following: nil, hasRoom: false))
        link(slab)
        return slab
    }

    private mutating func link(_ slab: UnsafeMutablePointer<Slab>) {
        let first = withRoom[slab.pointee.sizeClass]
        slab.pointee.previous = nil
        slab.pointee.following = first
        first?.pointee.previous = slab
        withRoom[slab.pointee.sizeClass] = slab
        slab.pointee.hasRoom = true
    }

    private mutating func unlink(_ slab: UnsafeMutablePointer<Slab>) {
        if let previous = slab.pointee.previous {
            previous.pointee.following = slab.pointee.following
        } else {
            withRoom[slab.pointee.sizeClass] = slab.pointee.following
        }
        slab.pointee.following?.pointee.previous = slab.pointee.previous
        slab.pointee.hasRoom = false
    }
}
