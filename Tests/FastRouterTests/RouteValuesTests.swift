import Testing
@testable import FastRouter

/// A ``Router``'s values (``RouteValues``): each route's id and value in a slot; a removed
/// route's value is released once no reader holds it and its slot reused; every value is
/// released when the router goes.
@Suite struct RouteValuesTests {
    /// A value that counts the instances alive.
    final class Counted: Sendable {
        nonisolated(unsafe) static var alive = 0
        let number: Int
        init(_ number: Int) {
            self.number = number
            Self.alive += 1
        }
        deinit { Self.alive -= 1 }
    }

    @Test func slotsHoldIdAndValueAndAreReused() {
        let values = RouteValues<String>()
        let first = values.store("first", routeID: 7)
        let second = values.store("second", routeID: 8)
        #expect(first.load(as: UInt64.self) == 7 && second.load(as: UInt64.self) == 8)
        #expect(RouteValues<String>.value(at: first) == "first")
        values.release(first)
        // A freed slot serves the next value.
        let third = values.store("third", routeID: 9)
        #expect(third == first)
        #expect(RouteValues<String>.value(at: third) == "third" && RouteValues<String>.value(at: second) == "second")
        // The last release gives the chunks back.
        values.release(second)
        values.release(third)
        #expect(values.byteCount == 0)
    }

    @Test func valuesOfAnyAlignmentAndSizeReadBack() throws {
        // A 16-byte-aligned value starts 16 bytes into its slot; a large one makes large slots.
        let vectors = Router<SIMD4<Float>>()
        let strings = Router<[String]>()
        for index in 0..<40 {
            try vectors.add("/v/\(index)", id: UInt64(index), value: SIMD4(Float(index), 1, 2, 3))
            try strings.add("/s/\(index)", id: UInt64(index), value: [String(index), "x"])
        }
        for index in 0..<40 {
            let vector = try vectors.match("/v/\(index)")
            #expect(vector?.value == SIMD4(Float(index), 1, 2, 3) && vector?.routeID == UInt64(index))
            #expect(try strings.match("/s/\(index)")?.value == [String(index), "x"])
        }
        #expect(RouteValues<SIMD4<Float>>.valueOffset == 16 && RouteValues<SIMD4<Float>>.slotStride == 32)
        #expect(RouteValues<Int>.valueOffset == 8 && RouteValues<Int>.slotStride == 16)
    }

    @Test(.serialized) func valuesAreReleasedWithTheirRoutesAndTheRouter() throws {
        let before = Counted.alive
        do {
            let router = Router<Counted>()
            try router.add(contentsOf: (0..<100).map { Route("/counted/\($0)", id: UInt64($0), value: Counted($0)) })
            #expect(Counted.alive == before + 100)
            #expect(try router.match("/counted/42")?.value.number == 42)
            for id in 0..<50 { router.remove(id: UInt64(id)) }
            // This thread's last match let go of its route: nothing holds the removed values.
            #expect(Counted.alive == before + 50)
            // A failed batch gives its values back too.
            #expect(throws: RouterError.self) {
                try router.add(contentsOf: [Route("/counted/new", value: Counted(-1)), Route("/counted/60", value: Counted(-2))])
            }
            #expect(Counted.alive == before + 50)
            try router.add("/counted/again", id: 1000, value: Counted(1000))
            #expect(try router.match("/counted/again")?.routeID == 1000)
        }
        // The router is gone, and with it every value it held.
        #expect(Counted.alive == before)
    }
}
