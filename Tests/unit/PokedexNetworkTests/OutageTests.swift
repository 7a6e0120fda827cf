import PokedexLocks
import XCTest
@testable import PokedexNetwork
import PokedexTestKit

/// A host that is down costs at most one request per probe interval, however many callers ask
/// (issue 28: 5,676 list requests in 5 s with the API offline).
final class OutageTests: XCTestCase {
    let host = "https://pokeapi.test/api/v2"

    func make(_ client: FakeHTTPClient, _ clock: ManualClock) -> Fetcher {
        Fetcher(client: client, clock: clock, allowedHosts: ["pokeapi.test"], apiHost: "pokeapi.test")
    }

    /// Requests to the host, each with the clock's time when it was sent.
    final class Log: Sendable {
        let times = Mutex<[Double]>([])
        func note(_ t: Date) { times.withLock { $0.append(t.timeIntervalSince1970) } }
    }

    func testManyCallersOverAMinuteCostOneRequestPerProbeInterval() async throws {
        let client = FakeHTTPClient(), clock = ManualClock(advancesOnSleep: false)
        let log = Log()
        for i in 0..<50 {
            client.route("\(host)/pokemon/\(i)/") { _ in
                log.note(clock.now())
                throw TransportFailure.connection("Connection refused")
            }
        }
        let f = make(client, clock)
        let start = clock.now().timeIntervalSince1970
        // 50 required callers every 100 ms for 60 s: 30,000 calls.
        var failures = 0
        for _ in 0..<600 {
            for i in 0..<50 {
                do { _ = try await f.fetch("\(host)/pokemon/\(i)/") } catch { failures += 1 }
            }
            clock.advance(0.1)
        }
        XCTAssertEqual(failures, 30_000)
        let sent = log.times.withLock { $0 }.map { $0 - start }
        // The schedule: the first failure, then after 1, 2, 4, 8, 16, 30 s: 0, 1, 3, 7, 15, 31.
        XCTAssertLessThanOrEqual(sent.count, 7, "\(sent)")
        XCTAssertGreaterThanOrEqual(sent.count, 6, "a caller's request is the probe: \(sent)")
        for (a, b) in zip(sent, sent.dropFirst()) {
            XCTAssertGreaterThanOrEqual(b - a, 1 - 1e-6, "never two requests within a probe interval: \(sent)")
        }
    }

    /// The schedule a test's daemon runs on (`--test-schedule-scale`): the same shape, each
    /// pause a hundredth, and a server's Retry-After with it; deadlines are not scaled.
    func testAScaledScheduleKeepsItsShapeAtAFractionOfTheTime() async throws {
        let client = FakeHTTPClient(), clock = ManualClock(advancesOnSleep: false)
        let log = Log()
        client.route("\(host)/pokemon/1/") { _ in
            log.note(clock.now())
            throw TransportFailure.connection("Connection refused")
        }
        let f = Fetcher(client: client, clock: clock, allowedHosts: ["pokeapi.test"], apiHost: "pokeapi.test",
                        schedule: NetworkSchedule(scale: 0.01))
        let start = clock.now().timeIntervalSince1970
        for _ in 0..<600 {
            _ = try? await f.fetch("\(host)/pokemon/1/")
            clock.advance(0.001)
        }
        let sent = log.times.withLock { $0 }.map { $0 - start }
        // 0, then after 0.01, 0.02, 0.04, 0.08, 0.16, 0.3 s (each stretched by up to a quarter).
        XCTAssertGreaterThanOrEqual(sent.count, 6, "\(sent)")
        XCTAssertLessThanOrEqual(sent.count, 7, "\(sent)")
        for (i, (a, b)) in zip(sent, sent.dropFirst()).enumerated() {
            let pause = min(0.01 * Double(1 << i), 0.3)
            XCTAssertGreaterThanOrEqual(b - a, pause - 1e-6, "pause \(i): \(sent)")
            XCTAssertLessThanOrEqual(b - a, pause * 1.25 + 0.0011, "pause \(i): \(sent)")
        }

        let limited = FakeHTTPClient(), sleeper = ManualClock()
        let tries = Counter()
        limited.route("\(host)/pokemon/2/") { _ in
            tries.next() == 0 ? HTTPResponse(status: 429, headers: ["retry-after": "30"]) : HTTPResponse(status: 200, body: [1])
        }
        let g = Fetcher(client: limited, clock: sleeper, allowedHosts: ["pokeapi.test"], apiHost: "pokeapi.test",
                        deadline: 10, schedule: NetworkSchedule(scale: 0.01))
        _ = try await g.fetch("\(host)/pokemon/2/")
        XCTAssertEqual(sleeper.sleeps.count, 1)
        XCTAssertEqual(sleeper.sleeps.first ?? 0, 0.3, accuracy: 1e-9, "Retry-After: 30 waits 0.3 s; the 10 s deadline is not scaled")
    }

    func testCallersThatArriveTogetherShareOneAttempt() async throws {
        let client = FakeHTTPClient(), clock = ManualClock(advancesOnSleep: false)
        let answers = Mutex(false)
        let log = Log()
        for i in 0..<20 {
            client.route("\(host)/pokemon/\(i)/") { _ in
                log.note(clock.now())
                try await Task.sleep(nanoseconds: 30_000_000)  // the attempt is under way meanwhile
                if answers.withLock({ $0 }) { return HTTPResponse(status: 200, body: [1]) }
                throw TransportFailure.connection("Connection refused")
            }
        }
        let f = make(client, clock)
        _ = try? await f.fetch("\(host)/pokemon/0/")
        XCTAssertFalse(f.isOnline)
        clock.advance(1.25)
        // Twenty callers at once, when the probe is due: one attempt, which fails for them all.
        let failed = await withTaskGroup(of: Bool.self) { group in
            for i in 0..<20 { let url = "\(host)/pokemon/\(i)/"; group.addTask { (try? await f.fetch(url)) == nil } }
            return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        XCTAssertEqual(failed, 20)
        XCTAssertEqual(log.times.withLock { $0.count }, 2, "the first failure and one shared attempt")
        // The next try is 2 s later; when it answers, those who waited for it go on at once.
        answers.withLock { $0 = true }
        clock.advance(2.5)
        let ok = await withTaskGroup(of: Bool.self) { group in
            for i in 0..<20 { let url = "\(host)/pokemon/\(i)/"; group.addTask { (try? await f.fetch(url)) != nil } }
            return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        XCTAssertEqual(ok, 20)
        XCTAssertTrue(f.isOnline)
    }

    func testAProbeAndACallerDueTogetherSendOneRequest() async throws {
        let client = FakeHTTPClient(), clock = ManualClock(advancesOnSleep: false)
        let log = Log()
        let url = "\(host)/pokemon/1/"
        client.route(url) { _ in
            log.note(clock.now())
            try await Task.sleep(nanoseconds: 30_000_000)
            throw TransportFailure.connection("Connection refused")
        }
        let f = make(client, clock)
        _ = try? await f.fetch(url)
        clock.advance(1.25)
        async let caller: Void = { _ = try? await f.fetch(url) }()
        async let probe = f.probe(url)
        _ = await (caller, probe)
        XCTAssertEqual(log.times.withLock { $0.count }, 2, "one attempt for the caller and the probe together")
        let next = f.hosts.first!.nextAttempt! - clock.now().timeIntervalSince1970
        XCTAssertEqual(next, 2.25, accuracy: 0.251, "and it counted once: the next try in 2 s (and up to a quarter)")
    }

    func testTheMessageSaysSinceWhenAndWhenNext() async throws {
        let client = FakeHTTPClient(), clock = ManualClock(advancesOnSleep: false)
        client.route("\(host)/pokemon/1/") { _ in throw TransportFailure.connection("Connection refused") }
        let f = make(client, clock)
        _ = try? await f.fetch("\(host)/pokemon/1/")
        clock.advance(0.4)
        do { _ = try await f.fetch("\(host)/pokemon/1/"); XCTFail() } catch {
            let message = error.asPokedexError(context: "list is not available").message
            XCTAssertTrue(message.hasPrefix("list is not available: cannot reach pokeapi.test since "), message)
            XCTAssertTrue(message.contains("(Connection refused); next try in 1 s, and nothing is cached"), message)
        }
    }

    func testADroppedConnectionCostsCallersASecondNotTheirAnswer() async throws {
        let client = FakeHTTPClient(), clock = ManualClock()
        let drops = Counter()
        for i in 0..<5 {
            client.route("\(host)/pokemon/\(i)/") { _ in
                if drops.next() == 0 { throw TransportFailure.connection("Empty reply from server") }
                return HTTPResponse(status: 200, body: [1])
            }
        }
        let f = make(client, clock)
        _ = try? await f.fetch("\(host)/pokemon/0/")
        XCTAssertFalse(f.isOnline)
        // The next try is a second away: the next callers wait for it and get their data.
        for i in 0..<5 { _ = try await f.fetch("\(host)/pokemon/\(i)/") }
        XCTAssertTrue(f.isOnline)
        XCTAssertEqual(client.requests.count, 6)
        // Once tries have failed for a while (the next over 2 s away), callers are answered at once.
        let g = make(client, clock)
        client.route("\(host)/pokemon/9/") { _ in throw TransportFailure.connection("Connection refused") }
        for _ in 0..<3 { _ = try? await g.fetch("\(host)/pokemon/9/") }  // fails, then the tries after 1 and 2 s
        let before = clock.sleeps.count
        do { _ = try await g.fetch("\(host)/pokemon/9/"); XCTFail() } catch {
            guard case .hostDown(_, let message) = error else { return XCTFail("\(error)") }
            XCTAssertTrue(message.contains("next try in 4 s") || message.contains("next try in 5 s"), message)
        }
        XCTAssertEqual(clock.sleeps.count, before, "no wait")
        XCTAssertEqual(client.count("\(host)/pokemon/9/"), 3)
    }

}
