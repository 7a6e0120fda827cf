import Dispatch
import Glibc
import PokedexLocks
import PokedexTestKit
@testable import PokedexNetwork
import XCTest

/// The thread a sync runs on: what prefers it runs there (child tasks and single flights
/// included), a continuation resumed on another thread comes back to it, and jobs queued from
/// many threads at once all run, each thread's in the order it queued them.
final class ThreadExecutorTests: XCTestCase {
    func testWhatPrefersItRunsOnItsThreadAndNothingElseDoes() async {
        let executor = ThreadExecutor()
        XCTAssertFalse(executor.isCurrent)
        let (inside, group, flight) = await PreferredExecutor.prefer(executor) { () async -> (Bool, Bool, Bool) in
            let inside = executor.isCurrent
            async let child = executor.isCurrent
            let group = await withTaskGroup(of: Bool.self) { g in
                for _ in 0..<8 { g.addTask { executor.isCurrent } }
                return await g.reduce(true) { $0 && $1 }
            }
            // A single flight's work runs in a task of its own, given the preference.
            let flight = (try? await SingleFlight<Int, Bool>().run(1) { executor.isCurrent }) ?? false
            return (inside, await child && group, flight)
        }
        XCTAssertTrue(inside)
        XCTAssertTrue(group, "an async let and a task group's children")
        XCTAssertTrue(flight, "a single flight started under the preference")
        let outside = await Task.detached { executor.isCurrent }.value
        XCTAssertFalse(outside)
    }

    func testAContinuationResumedOnAnotherThreadComesBack() async {
        let executor = ThreadExecutor()
        let back = await PreferredExecutor.prefer(executor) { () async -> Bool in
            for _ in 0..<50 {
                await withCheckedContinuation { (c: CheckedContinuation<Void, Never>) in
                    DispatchQueue.global().async { c.resume() }  // as the event loop's thread does
                }
                if !executor.isCurrent { return false }
            }
            return true
        }
        XCTAssertTrue(back)
    }

    /// The heavy lane's shape: several threads, each at the nice it was given, running jobs at
    /// the same time (two jobs that each wait for the other both end).
    func testSeveralThreadsAtTheirNiceRunJobsAtOnce() async {
        let executor = ThreadExecutor(threads: 2, nice: 7)
        let base = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
        let (first, second) = (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
        async let a = Task(executorPreference: executor) { () -> (Int32, Bool) in
            first.signal()
            return (getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0), second.wait(timeout: .now() + 10) == .success)
        }.value
        async let b = Task(executorPreference: executor) { () -> (Int32, Bool) in
            second.signal()
            return (getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0), first.wait(timeout: .now() + 10) == .success)
        }.value
        let (ra, rb) = await (a, b)
        XCTAssertTrue(ra.1 && rb.1, "both ran at once")
        // A nice value, not a step down: a process already nicer keeps its own unless root.
        let expected: Int32 = geteuid() == 0 ? 7 : max(base, 7)
        XCTAssertEqual(ra.0, expected)
        XCTAssertEqual(rb.0, expected)
        XCTAssertEqual(getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0), base, "the test's own thread as it was")
    }

    /// 16 threads queue 500 tasks each at once; every task runs, and each thread's run in the
    /// order that thread queued them.
    func testJobsQueuedFromManyThreadsAllRunInTheirOrder() async {
        let executor = ThreadExecutor()
        let threads = 16, each = 500  // one thread runs them: each thread's order is kept
        let ran = Mutex([[Int]](repeating: [], count: threads))
        let done = DispatchGroup()
        DispatchQueue.concurrentPerform(iterations: threads) { t in
            for i in 0..<each {
                done.enter()
                Task(executorPreference: executor) {
                    precondition(executor.isCurrent)
                    ran.withLock { $0[t].append(i) }
                    done.leave()
                }
            }
        }
        await withCheckedContinuation { (c: CheckedContinuation<Void, Never>) in done.notify(queue: .global()) { c.resume() } }
        let order = ran.withLock { $0 }
        for t in 0..<threads { XCTAssertEqual(order[t], Array(0..<each), "thread \(t)") }
    }

    /// A body longer than any PokeAPI sends is decoded on the global pool, not on the executor
    /// a sync prefers (the daemon's event loop, which serves the bus); the rest where the task
    /// runs; and a task preferring no executor decodes any body where it is.
    func testOnlyABodyBeyondPokeAPIsIsDecodedAsideFromThePreferredExecutor() async throws {
        let executor = ThreadExecutor()
        let client = FakeHTTPClient()
        let short = "https://pokeapi.test/api/v2/pokemon/151/", long = "https://pokeapi.test/api/v2/pokemon/152/"
        client.route(short) { _ in HTTPResponse(status: 200, body: [UInt8](repeating: 32, count: Fetcher.decodedAsideAbove)) }
        client.route(long) { _ in HTTPResponse(status: 200, body: [UInt8](repeating: 32, count: Fetcher.decodedAsideAbove + 1)) }
        let fetcher = Fetcher(client: client, clock: ManualClock(), allowedHosts: ["pokeapi.test"])
        func decodedOnExecutor(_ url: String) async throws -> Bool {
            guard case .body(let here, _, _) = try await fetcher.fetch(url, as: .pokemonJSON, decode: { _ in executor.isCurrent })
            else { XCTFail("no body from \(url)"); return true }
            return here
        }
        let (shortHere, longHere, after) = try await PreferredExecutor.prefer(executor) { () async -> (Bool, Bool, Bool)? in
            guard let s = try? await decodedOnExecutor(short), let l = try? await decodedOnExecutor(long) else { return nil }
            return (s, l, executor.isCurrent)
        }.unwrapped()
        XCTAssertTrue(shortHere, "a body of PokeAPI's sizes is decoded where the sync runs")
        XCTAssertFalse(longHere, "a longer one is decoded on the pool")
        XCTAssertTrue(after, "and the task comes back to its executor")
        let elsewhere = try await Task.detached { try await decodedOnExecutor(long) }.value
        XCTAssertFalse(elsewhere)
    }
}

private extension Optional {
    func unwrapped(file: StaticString = #filePath, line: UInt = #line) throws -> Wrapped { try XCTUnwrap(self, file: file, line: line) }
}
