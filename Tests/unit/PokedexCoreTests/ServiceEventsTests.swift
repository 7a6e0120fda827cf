import Foundation
@testable import PokedexCore
import PokedexModels
import XCTest

/// The observer is called at the same depth however many events went before: a handler kept
/// as the lock's generic value was wrapped in one more reabstraction thunk by every emit, so
/// the 60,000th favorites change or sync step overflowed the calling thread's stack.
final class ServiceEventsTests: XCTestCase {
    func testTheObserverIsCalledAtTheSameDepthAfterManyEvents() {
        let events = ServiceEvents()
        let depth = CallDepth()
        events.observe { _ in depth.record() }
        var first = 0
        for n in 0..<10_000 {
            events.emit(.cacheCleared)
            if n == 0 { first = depth.last }
        }
        // Two thunks a level: 10,000 events would be 20,000 frames deeper.
        XCTAssertEqual(depth.last, first, "the 10,000th event reached its observer \(depth.last - first) frames deeper than the first (Foundation counts up to 128)")
    }
}

/// How many frames deep a call is: the same under the sanitizers, where a local's address lies
/// on a stack of their own.
private final class CallDepth: @unchecked Sendable {
    var last = 0
    @inline(never) func record() { last = Thread.callStackReturnAddresses.count }
}
