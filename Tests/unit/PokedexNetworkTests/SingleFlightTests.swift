import XCTest
import PokedexTestKit
import PokedexLocks
@testable import PokedexNetwork

/// Merged loads: a cancelled waiter leaves at once; the work stops only when nobody waits.
final class SingleFlightTests: XCTestCase {
    /// Work that runs until cancelled, recording whether it saw the cancellation.
    final class Probe: Sendable {
        let started = Mutex(0)
        let cancelled = Mutex(false)
        func work() async throws -> Int {
            started.withLock { $0 += 1 }
            do {
                try await Task.sleep(nanoseconds: 5_000_000_000)
            } catch {
                cancelled.withLock { $0 = true }
                throw error
            }
            return 1
        }
    }

    /// Work that ends only when the test opens its gate, cancelled or not (as a transfer that
    /// takes its time to notice), recording when it saw the cancellation.
    final class Stubborn: Sendable {
        let started = Mutex(0)
        let sawCancellation = Mutex(false)
        let open = Mutex(false)
        func work() async throws -> Int {
            started.withLock { $0 += 1 }
            while !open.withLock({ $0 }) {
                if Task.isCancelled { sawCancellation.withLock { $0 = true } }
                await Task.yield()
                usleep(1000)
            }
            try Task.checkCancellation()
            return 1
        }
    }

    /// Polls `condition` for something that happens at once; the 10 s only end a failed test.
    func waitUntil(_ what: String, _ condition: () -> Bool) async throws {
        for _ in 0..<5000 where !condition() { try await Task.sleep(nanoseconds: 2_000_000) }
        XCTAssertTrue(condition(), what)
    }

    func testTheLastWaiterLeavingCancelsTheWork() async throws {
        let flight = SingleFlight<Int, Int>()
        let work = Stubborn()
        let caller = Task { try await flight.run(1) { try await work.work() } }
        try await waitUntil("the work started") { work.started.withLock { $0 } == 1 }
        caller.cancel()
        // The work cannot end before its gate opens: a caller that waited for it would never
        // return (the gate opens after 10 s only to end a test that failed).
        let backstop = Task {
            try await Task.sleep(nanoseconds: 10_000_000_000)
            work.open.withLock { $0 = true }
        }
        do {
            _ = try await caller.value
            XCTFail("a cancelled caller gets no value")
        } catch {
            XCTAssertTrue(error is CancellationError, "\(error)")
        }
        XCTAssertFalse(work.open.withLock { $0 }, "the caller left while the work was still under way")
        backstop.cancel()
        try await waitUntil("the work was cancelled") { work.sawCancellation.withLock { $0 } }
        work.open.withLock { $0 = true }
        try await waitUntil("the flight to end") { flight.count == 0 }
    }

    func testWorkGoesOnWhileAnotherWaiterStays() async throws {
        let flight = SingleFlight<Int, Int>()
        let gate = Mutex(false)
        let runs = Mutex(0)
        let work: @Sendable () async throws -> Int = {
            runs.withLock { $0 += 1 }
            while !gate.withLock({ $0 }) { try await Task.sleep(nanoseconds: 1_000_000) }
            return 42
        }
        let leaving = Task { try await flight.run(7, work) }
        let staying = Task { try await flight.run(7, work) }
        try await waitUntil("the work started") { runs.withLock { $0 } == 1 }
        try await waitUntil("both callers wait for it") { flight.waiters(for: 7) == 2 }
        leaving.cancel()
        do { _ = try await leaving.value; XCTFail() } catch { XCTAssertTrue(error is CancellationError) }
        gate.withLock { $0 = true }
        let value = try await staying.value
        XCTAssertEqual(value, 42, "the remaining waiter gets the shared result")
        XCTAssertEqual(runs.withLock { $0 }, 1, "one run for both")
    }

    func testAnAlreadyCancelledCallerNeverStartsWork() async throws {
        let flight = SingleFlight<Int, Int>()
        let probe = Probe()
        let caller = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await flight.run(3) { try await probe.work() }
        }
        do { _ = try await caller.value; XCTFail() } catch { XCTAssertTrue(error is CancellationError) }
        XCTAssertEqual(probe.started.withLock { $0 }, 0)
    }

    // MARK: - lead: the work in the caller's own task

    func testALeaderRunsTheWorkInItsOwnTaskAndOthersJoinIt() async throws {
        let flight = SingleFlight<Int, Int>()
        let gate = Mutex(false)
        let runs = Mutex(0)
        let sameTask = Mutex<Bool?>(nil)
        let leader = Task { () async throws -> Int in
            let caller = withUnsafeCurrentTask { $0?.hashValue }
            return try await flight.lead(5) {
                sameTask.withLock { $0 = withUnsafeCurrentTask { $0?.hashValue } == caller }
                runs.withLock { $0 += 1 }
                while !gate.withLock({ $0 }) { try await Task.sleep(nanoseconds: 1_000_000) }
                return 42
            }
        }
        try await waitUntil("the work started") { runs.withLock { $0 } == 1 }
        let joining = Task { try await flight.run(5) { runs.withLock { $0 += 1 }; return 0 } }
        let leading = Task { try await flight.lead(5) { runs.withLock { $0 += 1 }; return 0 } }
        try await waitUntil("both wait for the leader's run") { flight.waiters(for: 5) == 2 }
        gate.withLock { $0 = true }
        let values = try await [leader.value, joining.value, leading.value]
        XCTAssertEqual(values, [42, 42, 42])
        XCTAssertEqual(runs.withLock { $0 }, 1, "one run for the three")
        XCTAssertEqual(sameTask.withLock { $0 }, true, "the work ran in the leader's task")
        XCTAssertEqual(flight.count, 0)
    }

    func testALeaderCancelledHandsTheWorkToThoseWhoJoined() async throws {
        let flight = SingleFlight<Int, Int>()
        let runs = Mutex(0)
        let work: @Sendable () async throws -> Int = {
            let run = runs.withLock { r -> Int in r += 1; return r }
            try await Task.sleep(nanoseconds: run == 1 ? 10_000_000_000 : 1_000_000)
            return 7
        }
        let leader = Task { try await flight.lead(9, work) }
        try await waitUntil("the work started") { runs.withLock { $0 } == 1 }
        let joined = Task { try await flight.run(9, work) }
        try await waitUntil("another waits for it") { flight.waiters(for: 9) == 1 }
        leader.cancel()
        do { _ = try await leader.value; XCTFail("a cancelled leader gets no value") } catch { XCTAssertTrue(error is CancellationError, "\(error)") }
        let value = try await joined.value
        XCTAssertEqual(value, 7, "the one who joined is answered by a run of its own, not with the leader's cancellation")
        XCTAssertEqual(runs.withLock { $0 }, 2)
        try await waitUntil("the flight to end") { flight.count == 0 }
    }

    func testAJoinerLeavingALedRunLeavesTheLeaderItsWork() async throws {
        let flight = SingleFlight<Int, Int>()
        let gate = Mutex(false)
        let runs = Mutex(0)
        let leader = Task {
            try await flight.lead(4) {
                runs.withLock { $0 += 1 }
                while !gate.withLock({ $0 }) { try await Task.sleep(nanoseconds: 1_000_000) }
                return 3
            }
        }
        try await waitUntil("the work started") { runs.withLock { $0 } == 1 }
        let leaving = Task { try await flight.run(4) { runs.withLock { $0 += 1 }; return 0 } }
        try await waitUntil("another waits for it") { flight.waiters(for: 4) == 1 }
        leaving.cancel()
        do { _ = try await leaving.value; XCTFail() } catch { XCTAssertTrue(error is CancellationError) }
        XCTAssertEqual(flight.count, 1, "the leader's run is still the key's")
        gate.withLock { $0 = true }
        let value = try await leader.value
        XCTAssertEqual(value, 3)
        XCTAssertEqual(runs.withLock { $0 }, 1)
        XCTAssertEqual(flight.count, 0)
    }

    func testALeaderCancelledAloneEndsTheRunAndOneAlreadyCancelledNeverStartsIt() async throws {
        let flight = SingleFlight<Int, Int>()
        let probe = Probe()
        let leader = Task { try await flight.lead(2) { try await probe.work() } }
        try await waitUntil("the work started") { probe.started.withLock { $0 } == 1 }
        leader.cancel()
        do { _ = try await leader.value; XCTFail() } catch { XCTAssertTrue(error is CancellationError) }
        XCTAssertTrue(probe.cancelled.withLock { $0 }, "the work was cancelled with its leader")
        XCTAssertEqual(flight.count, 0)
        let cancelled = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await flight.lead(2) { try await probe.work() }
        }
        do { _ = try await cancelled.value; XCTFail() } catch { XCTAssertTrue(error is CancellationError) }
        XCTAssertEqual(probe.started.withLock { $0 }, 1)
        XCTAssertEqual(flight.count, 0)
    }
}
