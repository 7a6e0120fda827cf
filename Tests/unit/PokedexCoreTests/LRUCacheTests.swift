import XCTest
import PokedexTestKit
@testable import PokedexCore

final class LRUCacheTests: XCTestCase {
    func testEvictsLeastRecentlyUsedByCost() {
        var c = LRUCache<String, Int>(capacity: 100)
        c.set(1, for: "a", cost: 40)
        c.set(2, for: "b", cost: 40)
        XCTAssertEqual(c.value(for: "a"), 1)  // a is now most recent
        c.set(3, for: "c", cost: 40)          // over 100: b goes
        XCTAssertNil(c.peek("b"))
        XCTAssertEqual(c.peek("a"), 1)
        XCTAssertEqual(c.peek("c"), 3)
        XCTAssertEqual(c.totalCost, 80)
        XCTAssertEqual(c.keysByRecency, ["c", "a"])
    }

    func testReplaceUpdatesCostAndOversizeIsNotKept() {
        var c = LRUCache<String, Int>(capacity: 100)
        c.set(1, for: "a", cost: 10)
        c.set(2, for: "a", cost: 30)
        XCTAssertEqual(c.totalCost, 30)
        XCTAssertEqual(c.count, 1)
        c.set(9, for: "huge", cost: 101)
        XCTAssertNil(c.peek("huge"))
        XCTAssertEqual(c.peek("a"), 2)
    }

    func testStaysWithinCapUnderChurn() {
        var c = LRUCache<Int, Int>(capacity: 1000)
        for i in 0..<10_000 {
            c.set(i, for: i % 377, cost: 1 + i % 50)
            XCTAssertLessThanOrEqual(c.totalCost, 1000)
            if i % 7 == 0 { _ = c.value(for: (i / 2) % 377) }
        }
        XCTAssertEqual(c.keysByRecency.count, c.count)
    }

    /// An evicted or removed value is released at once, not when its slot is next reused: the
    /// memory tier's records would otherwise outlive their budget.
    func testWhatLeavesIsReleased() {
        final class Box {}
        var c = LRUCache<Int, Box>(capacity: 3)
        weak var first: Box?, second: Box?
        do {
            let a = Box(), b = Box()
            first = a
            second = b
            c.set(a, for: 1, cost: 1)
            c.set(b, for: 2, cost: 1)
        }
        c.set(Box(), for: 3, cost: 3)  // evicts 1 and 2, reuses no slot
        XCTAssertNil(first)
        XCTAssertNil(second)
        weak var third: Box?
        do {
            let x = Box()
            third = x
            c.set(x, for: 4, cost: 1)
        }
        c.removeValue(for: 4)
        XCTAssertNil(third)
    }
}
