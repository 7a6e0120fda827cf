import PokedexLocks
import XCTest
@testable import PokedexCore
import PokedexTestKit

/// The wall clock steps (NTP, a person setting the time) while fetches wait: deadlines,
/// backoff, probes and remembered answers keep their real lengths, because they are measured
/// on the monotonic clock. Only what is persisted (fetched-at, max-age) follows the wall.
final class ClockStepTests: XCTestCase {
    let api = "https://pokeapi.test/api/v2/pokemon/6/"
    static let hour = 3600.0, day = 86400.0
    var hour: Double { Self.hour }
    var day: Double { Self.day }

    func make(_ client: FakeHTTPClient, _ clock: ManualClock, deadline: Double = 10) -> Fetcher {
        Fetcher(client: client, clock: clock, allowedHosts: ["pokeapi.test"], apiHost: "pokeapi.test", deadline: deadline)
    }

    /// Each attempt takes 4 s of real time and the wall clock goes back an hour meanwhile: the
    /// 10 s deadline still ends the fetch after its real 10 s, not an hour later.
    func testADeadlineIsNotStretchedByTheWallClockGoingBack() async {
        let client = FakeHTTPClient(), clock = ManualClock()
        client.route(api) { _ in
            clock.advance(4)
            clock.stepWall(-Self.hour)
            return HTTPResponse(status: 503)
        }
        let f = make(client, clock)
        do { _ = try await f.fetch(api); XCTFail("answered") } catch {
            XCTAssertEqual(error, .http(status: 503, url: api), "the last failure stands at the deadline")
        }
        XCTAssertLessThanOrEqual(client.count(api), 3, "three 4 s attempts fit in 10 s, not eight")
    }

    /// The wall clock jumps a day forward between attempts: the fetch does not think its
    /// deadline passed, and makes every attempt its backoff allows.
    func testADeadlineIsNotCutShortByTheWallClockJumpingForward() async {
        let client = FakeHTTPClient(), clock = ManualClock()
        client.route(api) { _ in
            clock.stepWall(Self.day)
            return HTTPResponse(status: 503)
        }
        let f = make(client, clock)
        do { _ = try await f.fetch(api); XCTFail("answered") } catch {
            XCTAssertEqual(error, .http(status: 503, url: api))
        }
        XCTAssertEqual(client.count(api), 8, "every attempt, as without the jump")
        let slept = clock.sleeps.reduce(0, +)
        XCTAssertGreaterThan(slept, 0.5, "backoff between attempts kept its length")
        XCTAssertLessThan(slept, 10)
    }

    /// A host that went down is tried again after its real backoff, whichever way the wall
    /// clock moves: a day forward does not make the try due, an hour back does not delay it.
    func testBackoffKeepsItsLengthAcrossWallClockSteps() {
        let clock = ManualClock()
        let health = HostHealth(apiHost: "pokeapi.test", clock: clock)
        guard case .go(let outage) = health.admit("pokeapi.test", .required) else { return XCTFail() }
        health.failed("pokeapi.test", .connection("Connection refused"), url: api, sentDuring: outage)
        XCTAssertFalse(health.isUp("pokeapi.test"))
        clock.stepWall(day)
        guard case .waitUntil = health.admit("pokeapi.test", .required) else { return XCTFail("due after a wall-clock jump") }
        XCTAssertTrue(health.downMessage("pokeapi.test")?.hasSuffix("next try in 2 s") ?? false, health.downMessage("pokeapi.test") ?? "up")
        clock.stepWall(-day - hour)
        clock.advance(1.25)
        guard case .once = health.admit("pokeapi.test", .required) else { return XCTFail("not due after its real 1.25 s") }
    }

    /// The probe loop sleeps for the real backoff, not for the distance to a wall-clock time.
    func testTheProbeWaitsTheRealBackoffAfterAStep() async throws {
        let client = FakeHTTPClient(), clock = ManualClock(advancesOnSleep: true)
        let calls = Mutex(0)
        client.route(api) { _ in
            let n = calls.withLock { $0 += 1; return $0 }
            if n == 1 { clock.stepWall(-Self.hour) }
            if n >= 3 { return HTTPResponse(status: 200, body: Array("{}".utf8)) }
            throw TransportFailure.connection("Connection refused")
        }
        let f = make(client, clock)
        let health = NetworkHealth(fetcher: f, clock: clock, background: BackgroundWork())
        let back = expectation(description: "back up")
        health.follow { change in if change.up { back.fulfill() } }
        _ = try? await f.fetch(api, as: .json)
        await fulfillment(of: [back], timeout: 10)
        // Two probes: after 1–1.25 s and after 2–2.5 s, never an hour.
        let probes = clock.sleeps.filter { $0 >= 0.9 }
        XCTAssertEqual(probes.count, 2, "\(clock.sleeps)")
        XCTAssertTrue(probes.allSatisfy { $0 <= 2.5 }, "\(probes)")
    }

    /// A 404 is remembered for its real hour: a wall-clock jump of a day does not forget it,
    /// and an hour of real time does, whatever the wall clock says.
    func testARemembered404LastsItsRealHour() async {
        let client = FakeHTTPClient(), clock = ManualClock()
        let missing = "https://pokeapi.test/api/v2/pokemon/missingno/"
        let f = make(client, clock)
        for _ in 0..<2 { _ = try? await f.fetch(missing) }
        XCTAssertEqual(client.count(missing), 1)
        clock.stepWall(day)
        _ = try? await f.fetch(missing)
        XCTAssertEqual(client.count(missing), 1, "a wall-clock jump forgot the 404")
        clock.stepWall(-2 * day)
        clock.advance(f.notFoundTTL + 1)
        _ = try? await f.fetch(missing)
        XCTAssertEqual(client.count(missing), 2, "the 404 outlived its hour")
    }

    /// What is persisted follows the wall clock: a body fetched now is stale a day after the
    /// wall clock says so, as it would be after a day of suspend.
    func testFreshnessFollowsTheWallClock() {
        let clock = ManualClock()
        let fresh = Freshness(etag: nil, fetchedAt: clock.now(), maxAge: 3600)
        XCTAssertTrue(fresh.isFresh(at: clock.now()))
        clock.stepWall(day)
        XCTAssertFalse(fresh.isFresh(at: clock.now()))
    }
}
