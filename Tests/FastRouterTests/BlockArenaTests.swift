@testable import FastRouter
import Testing

/// The tree's block arena (docs/ARCHITECTURE.md, "Tree memory"): system blocks first, then
/// regions carved into size classes, freed blocks reused, every region block starting a cache line.
@Suite struct BlockArenaTests {
    /// Allocates from `arena` until it has mapped a region.
    private static func fillSystemShare(_ arena: BlockArena) -> [UnsafeMutableRawPointer] {
        var blocks: [UnsafeMutableRawPointer] = []
        while arena.regionCount == 0 { blocks.append(arena.allocate(byteCount: 2048)) }
        return blocks
    }

    @Test func aSmallRouterTakesItsBlocksFromTheSystem() {
        let arena = BlockArena()
        var blocks: [UnsafeMutableRawPointer] = []
        for size in [40, 64, 80, 200, 1000, 2048] { blocks.append(arena.allocate(byteCount: size)) }
        #expect(arena.regionCount == 0)
        for block in blocks {
            #expect(UInt(bitPattern: block) % UInt(BlockArena.systemAlignment) == 0, "a system block is aligned as malloc aligns")
            arena.deallocate(block)
        }
    }

    @Test func aSmallRoutersBlocksComeFromSlabs() {
        let arena = BlockArena()
        let live = arena.allocate(byteCount: 100)
        let freed = arena.allocate(byteCount: 120)
        arena.deallocate(freed)
        #expect(arena.allocate(byteCount: 128) == freed, "a freed block is the next one of its class")
        // Blocks of every class: disjoint and writable end to end. (That emptied slabs go back is
        // RemovalMemoryTests': the heap's figure needs a process of its own.)
        var blocks: [(UnsafeMutableRawPointer, Int)] = []
        for round in 0..<3000 {
            let size = 16 + (round * 53) % (64 * BlockArena.classCount)
            let block = arena.allocate(byteCount: size)
            #expect(UInt(bitPattern: block) % UInt(BlockArena.systemAlignment) == 0)
            block.initializeMemory(as: UInt8.self, repeating: UInt8(truncatingIfNeeded: round), count: size)
            blocks.append((block, size))
        }
        do {
            let sorted = blocks.sorted { UInt(bitPattern: $0.0) < UInt(bitPattern: $1.0) }
            for (first, second) in zip(sorted, sorted.dropFirst()) { #expect(first.0 + first.1 <= second.0, "blocks do not overlap") }
        }
        for (index, (block, size)) in blocks.enumerated() {
            #expect(block.load(fromByteOffset: size - 1, as: UInt8.self) == UInt8(truncatingIfNeeded: index))
        }
        #expect(arena.regionCount == 0)
        for (block, _) in blocks { arena.deallocate(block) }
        arena.deallocate(live)
        arena.deallocate(freed)
    }

    @Test func pastItsSystemShareAnArenaMapsRegionsAndReusesFreedBlocks() {
        let arena = BlockArena()
        let system = Self.fillSystemShare(arena)
        #expect(arena.systemBytesTaken >= BlockArena.systemBytes && system.count * 2048 * 2 >= BlockArena.systemBytes)
        // Blocks of the region classes: aligned, disjoint, writable end to end.
        var blocks: [(UnsafeMutableRawPointer, Int)] = []
        for round in 0..<2000 {
            let size = 40 + (round * 37) % 2000
            let block = arena.allocate(byteCount: size)
            #expect(UInt(bitPattern: block) % 64 == 0)
            block.initializeMemory(as: UInt8.self, repeating: UInt8(truncatingIfNeeded: round), count: size)
            blocks.append((block, size))
        }
        #expect(arena.regionCount >= 1)
        let sorted = blocks.sorted { UInt(bitPattern: $0.0) < UInt(bitPattern: $1.0) }
        for (first, second) in zip(sorted, sorted.dropFirst()) {
            #expect(first.0 + first.1 <= second.0, "blocks do not overlap")
        }
        for (index, (block, size)) in blocks.enumerated() {
            #expect(block.load(fromByteOffset: size - 1, as: UInt8.self) == UInt8(truncatingIfNeeded: index))
        }
        // A freed block is the next one of its class.
        let (freed, size) = blocks[100]
        arena.deallocate(freed)
        #expect(arena.allocate(byteCount: size) == freed)
        #expect(arena.allocate(byteCount: size) != freed)
        // Bigger than the largest class: from the system, told apart when freed.
        let large = arena.allocate(byteCount: 64 * BlockArena.classCount + 1)
        large.initializeMemory(as: UInt8.self, repeating: 1, count: 64 * BlockArena.classCount + 1)
        arena.deallocate(large)
        for (block, _) in blocks where block != freed { arena.deallocate(block) }
        for block in system { arena.deallocate(block) }
    }

    /// A router large enough to use regions answers as the reference matcher does through adds
    /// and removals, its tree checked after every change.
    @Test func aRouterPastItsSystemShareStaysCorrect() throws {
        let router = Router<Int>()
        let count = 20_000
        for index in 0..<count {
            try router.add("/svc-\(index % 300)/res-\(index)/:id", id: UInt64(index), value: index)
        }
        for index in stride(from: 0, to: count, by: 7) {
            let match = try router.match("/svc-\(index % 300)/res-\(index)/x\(index)")
            #expect(match?.value == index && match?.parameters["id"] == "x\(index)")
        }
        for index in stride(from: 0, to: count, by: 2) { #expect(router.remove(id: UInt64(index)) == 1) }
        for index in stride(from: 0, to: count, by: 3) {
            let match = try router.match("/svc-\(index % 300)/res-\(index)/y")
            #expect((match?.value) == (index % 2 == 0 ? nil : index))
        }
    }
}
