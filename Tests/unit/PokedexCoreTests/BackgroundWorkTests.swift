import PokedexLocks
import XCTest
@testable import PokedexCore
import PokedexTestKit

/// The service's background work has one owner: every job is cancelled at exit, nothing new
/// starts after, and the owner knows when all have ended.
final class BackgroundWorkTests: XCTestCase {
    func testShutdownCancelsEveryJobAndWaitsForThem() async {
        let work = BackgroundWork()
        let ended = Mutex(0)
        for _ in 0..<20 {
            XCTAssertTrue(work.run(.utility) {
                // A job that would run for an hour unless cancelled.
                try? await Task.sleep(nanoseconds: 3_600_000_000_000)
                ended.withLock { $0 += 1 }
            })
        }
        XCTAssertEqual(work.running, 20)
        await work.shutdown()
        XCTAssertEqual(work.running, 0)
        XCTAssertEqual(ended.withLock { $0 }, 20, "every job ended before shutdown returned")
        XCTAssertFalse(work.run(.utility) { XCTFail("started after shutdown") }, "refused once stopping")
        XCTAssertFalse(work.runDetached(.utility) { XCTFail("started after shutdown") })
    }

    func testJobsThatStartJobsAreAllOwned() async {
        let work = BackgroundWork()
        let count = Mutex(0)
        @Sendable func chain(_ n: Int) {
            work.run(.utility) {
                count.withLock { $0 += 1 }
                if n > 0 { chain(n - 1) }
            }
        }
        chain(50)
        await work.idle()
        XCTAssertEqual(count.withLock { $0 }, 51)
        XCTAssertEqual(work.running, 0)
    }

    /// A resident job (a queue's consumer) is not waited for by idle(); at stop it is told to
    /// finish, not cancelled, so what it holds is still done. A durable job (a person's click)
    /// starts even while stopping and is never cancelled; exit waits for it.
    func testResidentJobsFinishTheirQueueAndDurableJobsAreNeverCancelled() async {
        let work = BackgroundWork()
        let (stream, queue) = AsyncStream<Int>.makeStream()
        let handled = Mutex([Int]())
        work.runResident(.utility, stop: { queue.finish() }) {
            for await n in stream { handled.withLock { $0.append(n) } }
        }
        await work.idle()  // returns although the consumer runs
        XCTAssertEqual(work.running, 1)
        for n in 1...3 { queue.yield(n) }
        let finished = Mutex(false)
        work.stop()
        work.runDurable(.utility) {
            try? await Task.sleep(nanoseconds: 20_000_000)
            finished.withLock { $0 = !Task.isCancelled }
        }
        XCTAssertEqual(work.wait(timeout: 5), 0)
        XCTAssertEqual(handled.withLock { $0 }, [1, 2, 3], "what was queued before the stop was handled")
        XCTAssertTrue(finished.withLock { $0 }, "the durable job ran to its end, uncancelled")
    }

    /// A thread that is not a task (pokedexd's main, after its loop) waits with a time-out.
    func testWaitFromAThreadGivesUpAfterItsTimeout() {
        let work = BackgroundWork()
        work.runDetached(.utility) { while !Task.isCancelled { await Task.yield() } }
        XCTAssertEqual(work.wait(timeout: 0.05), 1, "still running: not cancelled yet")
        work.stop()
        XCTAssertEqual(work.wait(timeout: 5), 0)
    }

    /// The service's own: the probe of a host that is down, the warm start and pre-warming all
    /// end at shutdown; a disk write refused by a stopping owner is made inline, not lost.
    func testTheServiceLeavesNothingRunningAtExit() async throws {
        let client = FakeHTTPClient(), clock = ManualClock(advancesOnSleep: false)
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let config = ServiceConfiguration(apiURL: "https://pokeapi.test/api/v2", spriteHosts: ["sprites.test"],
                                          cacheDirectory: dir + "/cache", dataDirectory: dir + "/data")
        client.route("https://pokeapi.test/") { _ in throw TransportFailure.connection("Connection refused") }
        let s = PokedexService(configuration: config, client: client, store: try FileCacheStore(directory: dir + "/cache", capacity: 1 << 20),
                               favorites: try FavoritesBook(persistence: MemoryFavoritesPersistence()), clock: clock)
        let offline = expectation(description: "the API host is down")
        s.observe { if case .online(false) = $0 { offline.fulfill() } }
        s.start()
        // The API host goes down on the warm-up's probe; its probe loop sleeps on the clock.
        await fulfillment(of: [offline], timeout: 10)
        XCTAssertFalse(s.isOnline)
        XCTAssertGreaterThan(s.background.running, 0)
        s.beginShutdown()
        XCTAssertEqual(s.finishShutdown(timeout: 5), 0, "a background job outlived the service")
    }
}
