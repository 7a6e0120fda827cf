import Dispatch
import Foundation
import Glibc
import PokedexEventLoop
import PokedexLocks
import XCTest

/// The event loop's executor, where the daemon runs a sync: what prefers it runs on the loop's
/// thread, a continuation resumed elsewhere comes back there, jobs run in the order they came,
/// the loop's other work is taken between slices however much is queued, jobs queued before the
/// loop runs run once it does, and what is left when it ends runs on `runQueued`.
final class LoopTaskExecutorTests: XCTestCase {
    typealias Running = EventLoopTests.Running

    /// An executor of `r`'s loop, made on its thread.
    private func executor(of r: Running, slice: Duration = .milliseconds(2)) throws -> LoopTaskExecutor {
        let made = Mutex<LoopTaskExecutor?>(nil)
        r.loop.runAndWait { made.withLock { $0 = try? LoopTaskExecutor(loop: r.loop, slice: slice) } }
        return try XCTUnwrap(made.withLock { $0 })
    }

    func testWhatPrefersItRunsOnTheLoopsThreadAndComesBackThere() async throws {
        let r = try Running()
        defer { r.stop() }
        let executor = try executor(of: r)
        XCTAssertFalse(executor.isCurrent)
        let (inside, children, back) = await PreferredExecutor.prefer(executor) { () async -> (Bool, Bool, Bool) in
            let inside = r.loop.inLoop
            let children = await withTaskGroup(of: Bool.self) { g in
                for _ in 0..<16 { g.addTask { r.loop.inLoop } }
                return await g.reduce(true) { $0 && $1 }
            }
            var back = true
            for _ in 0..<50 {
                await withCheckedContinuation { (c: CheckedContinuation<Void, Never>) in
                    DispatchQueue.global().async { c.resume() }  // as a transfer's end on another thread would
                }
                back = back && r.loop.inLoop
            }
            return (inside, children, back)
        }
        XCTAssertTrue(inside)
        XCTAssertTrue(children, "a task group's children")
        XCTAssertTrue(back, "a continuation resumed on another thread")
        let outside = await Task.detached { r.loop.inLoop }.value
        XCTAssertFalse(outside)
    }

    func testJobsQueuedFromManyThreadsRunInEachThreadsOrder() async throws {
        let r = try Running()
        defer { r.stop() }
        let executor = try executor(of: r)
        let seen = Mutex<[Int: [Int]]>([:])
        await withTaskGroup(of: Void.self) { g in
            for thread in 0..<4 {
                g.addTask {
                    // Each thread's tasks are started in order from a task of its own; each runs
                    // at once on the loop, so their order there is the order they were queued.
                    var started: [Task<Void, Never>] = []
                    for i in 0..<300 {
                        started.append(Task(executorPreference: executor) {
                            XCTAssertTrue(r.loop.inLoop)
                            seen.withLock { $0[thread, default: []].append(i) }
                        })
                    }
                    for t in started { await t.value }
                }
            }
        }
        let all = seen.withLock { $0 }
        for thread in 0..<4 { XCTAssertEqual(all[thread], Array(0..<300), "thread \(thread)") }
    }

    /// However much a sync has queued, what the loop has to do for others (here work handed to
    /// it from another thread, as a bus message or a transfer's end would be) runs between two
    /// slices, not after the queue is empty.
    func testTheLoopsOtherWorkRunsBetweenSlices() async throws {
        let r = try Running()
        defer { r.stop() }
        let executor = try executor(of: r, slice: .milliseconds(2))
        let steps = 2_000
        let done = Mutex(0)
        let started = DispatchSemaphore(value: 0)
        let busy = Task(executorPreference: executor) { @Sendable () async -> Void in
            started.signal()
            for _ in 0..<steps {
                spin(microseconds: 100)  // a step's decoding
                done.withLock { $0 += 1 }
                await Task.yield()  // queued again behind whatever came meanwhile
            }
        }
        started.wait()
        let seenAt = Mutex<Int?>(nil)
        let ran = DispatchSemaphore(value: 0)
        r.loop.execute {
            seenAt.withLock { $0 = done.withLock { $0 } }
            ran.signal()
        }
        ran.wait()
        await busy.value
        let at = try XCTUnwrap(seenAt.withLock { $0 })
        XCTAssertLessThan(at, steps, "the loop's work waited for the whole queue (\(steps) steps of 0.1 ms)")
        XCTAssertEqual(done.withLock { $0 }, steps)
    }

    func testJobsQueuedBeforeTheLoopRunsRunOnceItDoes() throws {
        let loop = try EventLoop(clock: ManualLoopClock())
        let executor = try LoopTaskExecutor(loop: loop)
        let ranOn = Mutex<[Bool]>([])
        let ended = DispatchSemaphore(value: 0)
        for _ in 0..<3 {
            Task(executorPreference: executor) {
                ranOn.withLock { $0.append(loop.inLoop) }
                if ranOn.withLock({ $0.count }) == 3 { loop.exit() }
            }
        }
        let thread = Thread {
            _ = loop.run()
            ended.signal()
        }
        thread.start()
        XCTAssertEqual(ended.wait(timeout: .now() + 30), .success, "the jobs ran and ended the loop")
        XCTAssertEqual(ranOn.withLock { $0 }, [true, true, true])
    }

    /// At exit the daemon pumps the loop's queue and this executor's until its background work
    /// ended (a cancelled sync's steps among it).
    func testWhatIsLeftWhenTheLoopEndsRunsOnRunQueued() throws {
        let loop = try EventLoop(clock: ManualLoopClock())
        let executor = try LoopTaskExecutor(loop: loop)
        let count = Mutex(0)
        let queued = DispatchSemaphore(value: 0)
        let after = Mutex<[Task<Void, Never>]>([])
        let left = Mutex<(Int, Bool)?>(nil)
        let thread = Thread {
            loop.execute {
                // Queued from another thread while the loop ends: its source is never turned on
                // by the loop, which has stopped.
                DispatchQueue.global().async {
                    after.withLock { $0 = (0..<5).map { _ in Task(executorPreference: executor) { count.withLock { $0 += 1 } } } }
                    queued.signal()
                }
                queued.wait()
                loop.exit()
            }
            _ = loop.run()
            let before = count.withLock { $0 }
            executor.runQueued()
            left.withLock { $0 = (before, loop.hasEnded) }
        }
        thread.start()
        let deadline = Date() + 30
        while left.withLock({ $0 }) == nil && Date() < deadline { usleep(1000) }
        let (before, ended) = try XCTUnwrap(left.withLock { $0 })
        XCTAssertTrue(ended)
        XCTAssertEqual(count.withLock { $0 }, 5, "runQueued ran what was left (\(before) had run before)")
    }
}

/// Busy for `microseconds`, as a step's decoding is.
private func spin(microseconds: UInt64) {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    let end = UInt64(ts.tv_sec) * 1_000_000 + UInt64(ts.tv_nsec) / 1000 + microseconds
    repeat { clock_gettime(CLOCK_MONOTONIC, &ts) } while UInt64(ts.tv_sec) * 1_000_000 + UInt64(ts.tv_nsec) / 1000 < end
}
