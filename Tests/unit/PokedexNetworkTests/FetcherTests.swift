import XCTest
import PokedexTestKit
import PokedexLocks
@testable import PokedexNetwork

final class FetcherTests: XCTestCase {
    let url = "https://pokeapi.test/api/v2/pokemon/25/"

    func make(_ client: FakeHTTPClient, _ clock: ManualClock, deadline: Double = 10) -> Fetcher {
        Fetcher(client: client, clock: clock, allowedHosts: ["pokeapi.test", "sprites.test"], deadline: deadline)
    }

    func testRetriesServerErrorsWithBackoffThenSucceeds() async throws {
        let client = FakeHTTPClient(), clock = ManualClock()
        let calls = Counter()
        client.route(url) { _ in
            calls.next() < 2 ? HTTPResponse(status: 503) : HTTPResponse(status: 200, headers: ["cache-control": "max-age=60", "etag": "\"x\""], body: [1])
        }
        let outcome = try await make(client, clock).fetch(url)
        XCTAssertEqual(outcome, .body([1], etag: "\"x\"", maxAge: 60))
        XCTAssertEqual(client.count(url), 3)
        XCTAssertEqual(clock.sleeps.count, 2)
        XCTAssertTrue(clock.sleeps[0] <= 0.1 && clock.sleeps[1] <= 0.2 && clock.sleeps[1] >= 0.1, "\(clock.sleeps)")
    }

    func testTooManyRequestsWaitsRetryAfter() async throws {
        let client = FakeHTTPClient(), clock = ManualClock()
        let calls = Counter()
        client.route(url) { _ in
            calls.next() == 0 ? HTTPResponse(status: 429, headers: ["retry-after": "3"]) : HTTPResponse(status: 200, body: [2])
        }
        _ = try await make(client, clock).fetch(url)
        XCTAssertEqual(clock.sleeps, [3])
    }

    func testGivesUpWithinTheDeadline() async throws {
        let client = FakeHTTPClient(), clock = ManualClock()
        client.route(url) { _ in HTTPResponse(status: 429, headers: ["retry-after": "30"]) }
        do {
            _ = try await make(client, clock, deadline: 10).fetch(url)
            XCTFail("expected failure")
        } catch {
            XCTAssertEqual(error, .http(status: 429, url: url))
        }
        XCTAssertTrue(clock.sleeps.isEmpty, "never sleeps past the deadline")
    }

    func testNotFoundIsNotRetried() async throws {
        let client = FakeHTTPClient(), clock = ManualClock()
        do {
            _ = try await make(client, clock).fetch(url)
            XCTFail("expected not found")
        } catch {
            XCTAssertEqual(error, .notFound(url: url))
        }
        XCTAssertEqual(client.requests.count, 1)
    }

    func testAnUntrustedCertificateIsNotRetriedAndTakesTheHostDown() async throws {
        let client = FakeHTTPClient(), clock = ManualClock()
        client.route(url) { _ in throw TransportFailure.untrusted("SSL certificate problem: self-signed certificate") }
        let f = make(client, clock)
        do {
            _ = try await f.fetch(url)
            XCTFail("expected failure")
        } catch {
            XCTAssertEqual(error, .transport(.untrusted("SSL certificate problem: self-signed certificate"), url: url))
        }
        XCTAssertEqual(client.count(url), 1, "a certificate that failed once fails again: one attempt")
        XCTAssertTrue(clock.sleeps.isEmpty)
        XCTAssertFalse(f.health.isUp("pokeapi.test"), "the host is down until a probe finds it trusted again")
    }

    func testHostAllowlistAndRedirects() async throws {
        let client = FakeHTTPClient(), clock = ManualClock()
        let f = make(client, clock)
        do {
            _ = try await f.fetch("https://evil.test/x.png")
            XCTFail("expected refusal")
        } catch {
            XCTAssertEqual(error, .hostNotAllowed("evil.test"))
        }
        XCTAssertTrue(client.requests.isEmpty, "nothing is sent to a host outside the allowlist")
        client.route(url) { _ in HTTPResponse(status: 302, headers: ["location": "https://sprites.test/25.png"]) }
        client.route("https://sprites.test/25.png") { _ in HTTPResponse(status: 200, body: [9]) }
        guard case .body(let body, _, _) = try await f.fetch(url) else { return XCTFail() }
        XCTAssertEqual(body, [9])
        client.route(url) { _ in HTTPResponse(status: 301, headers: ["location": "https://evil.test/25"]) }
        do {
            _ = try await f.fetch(url)
            XCTFail("expected refusal")
        } catch {
            XCTAssertEqual(error, .hostNotAllowed("evil.test"))
        }
    }

    func testConnectionFailureMarksOfflineAndAnswerMarksOnline() async throws {
        let client = FakeHTTPClient(), clock = ManualClock()
        let down = Counter()
        client.route(url) { _ in
            // Every attempt of the first fetch: the first, then one more once the host is known down.
            if down.next() < 2 { throw TransportFailure.connection("Could not connect to server") }
            return HTTPResponse(status: 200, body: [1])
        }
        let f = make(client, clock)
        do {
            _ = try await f.fetch(url)
            XCTFail("expected failure")
        } catch {
            guard case .transport(.connection, _) = error else { return XCTFail("\(error)") }
            XCTAssertTrue(error.asPokedexError(context: "x").message.contains("cannot reach pokeapi.test"))
        }
        XCTAssertFalse(f.isOnline)
        XCTAssertEqual(client.count(url), 1, "no retry against a host found unreachable")
        // Its next try is a second away: a caller waits for it (sends nothing before) and makes it.
        do { _ = try await f.fetch(url); XCTFail("expected failure") } catch {
            guard case .transport(.connection, _) = error else { return XCTFail("\(error)") }
        }
        XCTAssertEqual(client.count(url), 2)
        XCTAssertEqual(clock.sleeps.last ?? 0, 1.125, accuracy: 0.126, "waited for the try, 1 s after the failure")
        _ = try await f.fetch(url)  // the next, 2 s later, is answered
        XCTAssertEqual(clock.sleeps.last ?? 0, 2.25, accuracy: 0.251)
        XCTAssertTrue(f.isOnline)
    }

    func testNotModifiedKeepsEtag() async throws {
        let client = FakeHTTPClient(), clock = ManualClock()
        client.route(url, json: "{}", etag: "\"v7\"", maxAge: 120)
        let outcome = try await make(client, clock).fetch(url, etag: "\"v7\"")
        XCTAssertEqual(outcome, .notModified(etag: "\"v7\"", maxAge: 120))
        XCTAssertEqual(client.requests.first?.ifNoneMatch, "\"v7\"")
    }
}

final class FetcherLoggingTests: XCTestCase {
    func testLogsOnceWhenTheNetworkGoesAndOnceWhenItReturns() async throws {
        let client = FakeHTTPClient(), clock = ManualClock()
        let url = "https://pokeapi.test/api/v2/pokemon/1/"
        let down = Mutex(true)
        client.route(url) { _ in
            if down.withLock({ $0 }) { throw TransportFailure.connection("Could not connect to server") }
            return HTTPResponse(status: 200, body: [1])
        }
        let lines = Mutex<[String]>([])
        let f = Fetcher(client: client, clock: clock, allowedHosts: ["pokeapi.test"], log: { level, m in if level != .debug { lines.withLock { $0.append(m) } } })
        for _ in 0..<5 { _ = try? await f.fetch(url) }
        down.withLock { $0 = false }
        clock.advance(5)  // the next try is due (tries after 1 and 2 s were waited for and failed)
        for _ in 0..<5 { _ = try await f.fetch(url) }
        _ = try? await f.fetch("https://evil.test/a.png")
        _ = try? await f.fetch("https://evil.test/b.png")
        let logged = lines.withLock { $0 }
        XCTAssertEqual(logged.count, 3, "\(logged)")
        XCTAssertTrue(logged[0].hasPrefix("cannot reach pokeapi.test"))
        XCTAssertTrue(logged[1].contains("back online"))
        XCTAssertTrue(logged[2].contains("evil.test is not an allowed host"))
    }
}

/// `Cache-Control` from a server is data like any other: only a plain lifetime counts.
final class MaxAgeTests: XCTestCase {
    func testOnlyNonNegativeIntegersCountAndAreClamped() {
        XCTAssertEqual(CacheControl.maxAge("public, max-age=86400"), 86400)
        XCTAssertEqual(CacheControl.maxAge("max-age=\"60\""), 60)
        XCTAssertEqual(CacheControl.maxAge("MAX-AGE=0"), 0)
        XCTAssertEqual(CacheControl.maxAge("max-age=99999999999999999999"), CacheControl.maxAgeCap)
        XCTAssertEqual(CacheControl.maxAge("no-store"), 0)
        XCTAssertEqual(CacheControl.maxAge("no-cache, max-age=60"), 0)
        for bad in ["max-age=inf", "max-age=nan", "max-age=-1", "max-age=1e9", "max-age=", "max-age=12abc",
                    "max-age=0x10", "max-age=+5", "max-age=Infinity", "max-age= ", "private", ""] {
            XCTAssertNil(CacheControl.maxAge(bad), bad)
        }
        XCTAssertNil(CacheControl.maxAge(nil))
    }

    /// An ASCII header is read on its bytes: the same lifetime as read by Characters, for
    /// random headers made of the pieces that matter (names in any case, `=`, quotes, white
    /// space, digits, commas). A failure prints the seed and the header.
    func testTheBytesReadTheSameAsTheCharacters() {
        let pieces = ["max-age", "MAX-Age", "no-store", "No-Cache", "public", "=", "=", ",", ",", " ", "\t", "\r\n", "\"",
                      "0", "7", "60", "99999999999999", "-", "e", "+", "x", "no", "-cache", "max", "-age"]
        let seed = UInt64.random(in: 0...UInt64.max)
        var state = seed
        func next() -> Int {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return Int(truncatingIfNeeded: (z ^ (z >> 31)) >> 1)
        }
        for _ in 0..<20_000 {
            let header = (0..<(next() % 9)).map { _ in pieces[next() % pieces.count] }.joined()
            var bytes = header
            let fast = bytes.withUTF8 { CacheControl.maxAge(ascii: $0) }
            guard fast == .some(CacheControl.maxAge(characters: header)) else {
                return XCTFail("seed \(seed): \(String(reflecting: header)): bytes \(String(describing: fast)), characters \(String(describing: CacheControl.maxAge(characters: header)))")
            }
        }
        XCTAssertNil("max-age=\u{3000}60".utf8.withContiguousStorageIfAvailable { CacheControl.maxAge(ascii: $0) } ?? nil, "not ASCII: read as Characters")
    }

    func testABadMaxAgeIsTheDefaultLifetimeNotARefetchLoop() async throws {
        let client = FakeHTTPClient(), clock = ManualClock()
        let url = "https://pokeapi.test/api/v2/pokemon/25/"
        for value in ["inf", "nan", "-1"] {
            client.route(url) { _ in HTTPResponse(status: 200, headers: ["cache-control": "max-age=\(value)"], body: [1]) }
            let fetcher = Fetcher(client: client, clock: clock, allowedHosts: ["pokeapi.test"], defaultMaxAge: 86400)
            let outcome = try await fetcher.fetch(url)
            XCTAssertEqual(outcome, .body([1], etag: nil, maxAge: 86400), value)
        }
    }

    /// `--verbose`: one debug line per request that went out, with its status and size, or why it failed.
    func testEveryRequestIsLoggedAtDebugLevel() async throws {
        let client = FakeHTTPClient(), clock = ManualClock()
        client.route("https://pokeapi.test/a") { _ in HTTPResponse(status: 200, body: [1, 2, 3]) }
        client.route("https://pokeapi.test/b") { _ in throw TransportFailure.connection("Connection refused") }
        let lines = Mutex<[String]>([])
        let f = Fetcher(client: client, clock: clock, allowedHosts: ["pokeapi.test"], maxAttempts: 1,
                        log: { level, m in if level == .debug { lines.withLock { $0.append(m) } } })
        _ = try await f.fetch("https://pokeapi.test/a")
        _ = try? await f.fetch("https://pokeapi.test/b")
        _ = try? await f.fetch("https://elsewhere.test/c")
        XCTAssertEqual(lines.withLock { $0 }, ["GET https://pokeapi.test/a: 200, 3 bytes in 0 ms",
                                               "GET https://pokeapi.test/b: Connection refused after 0 ms"])
    }
}
