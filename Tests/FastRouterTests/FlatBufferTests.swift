import Testing
@testable import FastRouter

/// The flat buffers behind every table: small ones grow by copying, buffers of several megabytes
/// by remapping their pages (realloc). Both must keep every element.
@Suite struct FlatBufferTests {
    /// Appends one at a time across both growth paths (the remapping starts at 4 MiB).
    @Test func growthKeepsEveryElement() {
        var buffer = FlatBuffer<UInt64>(capacity: 1)
        let count = 1_500_000  // 12 MB: several remapping steps
        for value in 0..<count { buffer.append(UInt64(value) &* 0x9E37_79B9_7F4A_7C15) }
        #expect(buffer.count == count)
        #expect(buffer.allocatedBytes >= count * 8)
        var wrong = 0
        for index in 0..<count where buffer[index] != UInt64(index) &* 0x9E37_79B9_7F4A_7C15 { wrong += 1 }
        #expect(wrong == 0)
        buffer.deallocate()
    }

    /// Bulk appends, reservations and clones of a large buffer keep contents and independence.
    @Test func bulkAppendReserveAndClone() {
        var buffer = FlatBuffer<UInt32>(capacity: 8)
        let chunk = (0..<100_000).map { UInt32($0) }
        for _ in 0..<20 { chunk.withUnsafeBufferPointer { _ = buffer.append(contentsOf: $0) } }
        buffer.reserve(buffer.count * 3)
        #expect(buffer.count == 2_000_000)
        let copy = buffer.clone()
        buffer[5] = 99
        #expect(copy[5] == 5, "a clone has its own storage")
        var wrong = 0
        for index in 0..<copy.count where copy[index] != UInt32(index % 100_000) { wrong += 1 }
        #expect(wrong == 0)
        buffer.deallocate()
        copy.deallocate()
    }

    @Test func shrinkToFitGivesBackOnlyALargeBuffersRoom() {
        var small = FlatBuffer<UInt64>(capacity: 1000)
        for value in 0..<10 { small.append(UInt64(value)) }
        small.shrinkToFit()
        #expect(small.capacity == 1000)

        var large = FlatBuffer<UInt64>(capacity: 1)
        for value in 0..<700_000 { large.append(UInt64(value) &* 3) }  // 5.6 MB in 8 MB of room
        #expect(large.capacity > large.count)
        large.shrinkToFit()
        #expect(large.capacity == 700_000)
        // It grows again from full, keeping every element.
        for value in 700_000..<700_100 { large.append(UInt64(value) &* 3) }
        #expect(large.capacity >= 700_100)
        var wrong = 0
        for index in 0..<large.count where large[index] != UInt64(index) &* 3 { wrong += 1 }
        #expect(wrong == 0)
        // Room past the end can be kept, for a buffer read a word past its last element.
        var padded = FlatBuffer<UInt8>(capacity: 1)
        for value in 0..<5_000_000 { padded.append(UInt8(truncatingIfNeeded: value)) }
        padded.shrinkToFit(keepingSpare: 8)
        #expect(padded.capacity == 5_000_008)
        padded.shrinkToFit(keepingSpare: 8)
        #expect(padded.capacity == 5_000_008)
        small.deallocate()
        large.deallocate()
        padded.deallocate()
    }
}
