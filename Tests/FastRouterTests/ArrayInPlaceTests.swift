@testable import FastRouter
import Testing

/// The writer's in-place array helpers (Support/Array+InPlace.swift) give what the standard
/// library's `removeAll(keepingCapacity:)` and `insert(_:at:)` give.
@Suite struct ArrayInPlaceTests {
    @Test(arguments: [0, 1, 3, 8, 9, 40])
    func clearingKeepsTheRoomAndEmpties(count: Int) {
        var array = Array(0..<count)
        array.reserveCapacity(64)
        let capacity = array.capacity
        array.clearKeepingCapacity()
        #expect(array.isEmpty && array.capacity == capacity)
    }

    @Test func insertingInPlaceMatchesInsert() {
        var reference: [(UInt64, Int)] = []
        var inPlace: [(UInt64, Int)] = []
        for step in 0..<200 {
            let position = (step * 37) % (reference.count + 1)
            reference.insert((UInt64(step), step), at: position)
            inPlace.insertTrivially((UInt64(step), step), at: position)
            #expect(reference.elementsEqual(inPlace, by: ==), "after inserting \(step) at \(position)")
        }
    }
}
