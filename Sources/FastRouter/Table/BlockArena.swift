#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// Where a router's tree blocks (nodes and chunks) live once its tables are large: 2 MiB
/// regions the router maps itself, asked to be backed by huge pages, carved into slabs of one
/// size class each (docs/ARCHITECTURE.md, "Tree memory").
///
/// At a million routes a lookup's time is the lines it fetches, and on 4 KiB pages each one far
/// from the last also misses the TLB: its page walk can cost more than the line. Regions on
/// huge pages take that walk away, and blocks carry no allocator header. A small router never
/// maps a region: its first ``systemBytes`` bytes of blocks come from the system allocator, so
/// a router of a few routes costs what its blocks do.
///
/// Only the router's writer (under its lock), its initializer and its deinitializer use it:
/// blocks are freed after the grace period, when no reader can reach them, so a freed block's
/// first word may link it into its class's free list. Freed blocks are reused by later edits;
/// the regions go back to the system when the router does.
///
/// A small router's blocks come from ``SystemSlabs``: slabs of one class each that the system
/// allocator gives, handed out for a few instructions and given back when empty.
package final class BlockArena {
    /// A region: the huge page size on x86-64 and arm64 Linux.
    static let regionSize = 2 << 20
    /// A slab: the unit of a region given to one size class.
    static let slabSize = 64 << 10
    static let slabsPerRegion = regionSize / slabSize
    /// Size classes are multiples of a cache line (every region block starts one, ``Node/blockAlignment``).
    static let granule = 64
    /// The alignment of blocks from the system allocator: what `malloc` gives every allocation
    /// on the 64-bit platforms FastRouter supports.
    static let systemAlignment = 16
    /// The largest class: bigger blocks (a node of hundreds of terminals) come from the system.
    static let classCount = 32
    /// Bytes of blocks a router takes from the system allocator before it maps its first region
    /// (about 16 000 routes): below that its tree fits the caches and the TLB's reach anyway.
    static let systemBytes = 4 << 20

    /// Bytes of the blocks every router of the process holds in its regions, each counted at its
    /// size class: what the system allocator's figure of bytes in use (`mallinfo2`'s `uordblks`)
    /// does not show, counted the way it counts its own (free blocks and the unused rest of the
    /// regions left out). The benchmark and the memory tests add it.
    /// Each arena adds what it allocated and freed since the last time when its router publishes
    /// (``settleAccount()``), not at every block: an atomic add on a counter of the process costs
    /// as much as the rest of an allocation.
    package static var bytesInUse: Int { inUse.load(ordering: .relaxed) }
    private static let inUse = Atomic<Int>(0)

    /// The arena's state, behind a pointer: the writer's adds allocate and free blocks often,
    /// and a class's own stored properties would pay a dynamic exclusivity check on each access.
    private let state: UnsafeMutablePointer<State>

    private struct State {
        /// Per class, the first free block (each links to the next through its first word).
        var freeBlocks = [UnsafeMutableRawPointer?](repeating: nil, count: classCount + 1)
        /// Per class, the rest of its current slab.
        var next = [UnsafeMutableRawPointer?](repeating: nil, count: classCount + 1)
        var end = [UnsafeMutableRawPointer?](repeating: nil, count: classCount + 1)
        /// Every region, and each slab's class (0: not given out yet), region by region.
        var regions: [UnsafeMutableRawPointer] = []
        var regionNumbers: [UInt: Int] = [:]
        var slabClasses: [UInt8] = []
        /// Slabs of the last region not yet given to a class.
        var nextSlab = slabsPerRegion
        /// Blocks from the system allocator: a small router's, and those bigger than every class.
        /// What they took decides when regions start.
        var system = SystemSlabs(classCount: classCount)
        /// Bytes of region blocks allocated less those freed since the last ``settleAccount()``.
        var unsettledBytes = 0
    }

    init() {
        state = .allocate(capacity: 1)
        state.initialize(to: State())
    }

    /// Regions this arena has mapped.
    var regionCount: Int { state.pointee.regions.count }
    /// Bytes taken from the system allocator so far.
    var systemBytesTaken: Int { state.pointee.system.taken }

    deinit {
        settleAccount()
        for region in state.pointee.regions { Self.unmap(region) }
        state.deinitialize(count: 1)
        state.deallocate()
    }

    /// A block of `byteCount` bytes, its contents undefined: starting a cache line in a region,
    /// 16-byte aligned from the system allocator.
    func allocate(byteCount: Int) -> UnsafeMutableRawPointer {
        let sizeClass = (byteCount &+ Self.granule &- 1) / Self.granule
        guard sizeClass <= Self.classCount else {
            // A plain `malloc`, aligned as it aligns anything (16 bytes): asking for a cache line
            // would cost a memalign, several times a plain allocation.
            return state.pointee.system.ownBlock(byteCount: byteCount)
        }
        guard state.pointee.system.taken >= Self.systemBytes || !state.pointee.regions.isEmpty else {
            // A small router's tree fits the caches, so a header split across two lines costs
            // nothing measurable there; only region blocks start a line.
            return state.pointee.system.allocate(sizeClass: sizeClass, size: sizeClass &* Self.granule)
        }
        let size = sizeClass &* Self.granule
        state.pointee.unsettledBytes &+= size
        if let block = state.pointee.freeBlocks[sizeClass] {
            state.pointee.freeBlocks[sizeClass] = block.load(as: UnsafeMutableRawPointer?.self)
            return block
        }
        if let block = state.pointee.next[sizeClass], block + size <= state.pointee.end[sizeClass].unsafelyUnwrapped {
            state.pointee.next[sizeClass] = block + size
            return block
        }
        let slab = newSlab(for: sizeClass)
        state.pointee.next[sizeClass] = slab + size
        state.pointee.end[sizeClass] = slab + (Self.slabSize / size) * size
        return slab
    }

    /// Frees a block from ``allocate(byteCount:)``: into its class's free list, or back to the
    /// system allocator when it came from there.
    func deallocate(_ block: UnsafeMutableRawPointer) {
        // A router without regions has only system blocks: no lookup of the block's region.
        if !state.pointee.regions.isEmpty {
            let address = UInt(bitPattern: block)
            let regionBase = address & ~UInt(Self.regionSize - 1)
            if let region = state.pointee.regionNumbers[regionBase] {
                let slab = region &* Self.slabsPerRegion &+ Int((address &- regionBase) / UInt(Self.slabSize))
                let sizeClass = Int(state.pointee.slabClasses[slab])
                state.pointee.unsettledBytes &-= sizeClass &* Self.granule
                block.storeBytes(of: state.pointee.freeBlocks[sizeClass], as: UnsafeMutableRawPointer?.self)
                state.pointee.freeBlocks[sizeClass] = block
                return
            }
        }
        state.pointee.system.deallocate(block)
    }

    /// A block from the system allocator that no arena keeps for reuse (``StaticPaths``' blocks),
    /// yet any arena may free: ``deallocate(_:)`` gives it back to the system.
    static func allocateUnpooled(byteCount: Int) -> UnsafeMutableRawPointer { SystemSlabs.ownBlock(byteCount: byteCount) }

    /// Frees a block of ``allocateUnpooled(byteCount:)``.
    static func deallocateUnpooled(_ block: UnsafeMutableRawPointer) { SystemSlabs.freeOwnBlock(block) }

    /// Adds the bytes allocated and freed since the last call to ``bytesInUse``.
    func settleAccount() {
        guard state.pointee.unsettledBytes != 0 else { return }
        Self.inUse.add(state.pointee.unsettledBytes, ordering: .relaxed)
        state.pointee.unsettledBytes = 0
    }

    /// A slab given to `sizeClass`, from the last region or a new one.
    private func newSlab(for sizeClass: Int) -> UnsafeMutableRawPointer {
        if state.pointee.nextSlab == Self.slabsPerRegion {
            let region = Self.map()
            state.pointee.regionNumbers[UInt(bitPattern: region)] = state.pointee.regions.count
            state.pointee.regions.append(region)
            state.pointee.slabClasses += [UInt8](repeating: 0, count: Self.slabsPerRegion)
            state.pointee.nextSlab = 0
        }
        let region = state.pointee.regions.count - 1
        let slab = state.pointee.nextSlab
        state.pointee.slabClasses[region * Self.slabsPerRegion + slab] = UInt8(sizeClass)
        state.pointee.nextSlab += 1
        return state.pointee.regions[region] + slab * Self.slabSize
    }

    /// A new region, aligned to its size (so a block's region is its address rounded down),
    /// asked to be backed by huge pages. Stops the process when the system has no memory left,
    /// as every allocation of the Swift runtime does.
    private static func map() -> UnsafeMutableRawPointer {
        // Twice the size, then the unaligned head and tail given back.
        let span = 2 * regionSize
        guard let raw = mmap(nil, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
              raw != MAP_FAILED else {
            fatalError("FastRouter: out of memory mapping a region of the tree")
        }
        let start = UInt(bitPattern: raw)
        let aligned = (start + UInt(regionSize - 1)) & ~UInt(regionSize - 1)
        if aligned > start { munmap(raw, Int(aligned - start)) }
        let tail = start + UInt(span) - (aligned + UInt(regionSize))
        if tail > 0 { munmap(UnsafeMutableRawPointer(bitPattern: aligned + UInt(regionSize)), Int(tail)) }
        let region = UnsafeMutableRawPointer(bitPattern: aligned).unsafelyUnwrapped
        #if os(Linux)
        // Advice only: where transparent huge pages are off, the region stays on small pages.
        _ = madvise(region, regionSize, MADV_HUGEPAGE)
        #endif
        return region
    }

    private static func unmap(_ region: UnsafeMutableRawPointer) { munmap(region, regionSize) }
}
