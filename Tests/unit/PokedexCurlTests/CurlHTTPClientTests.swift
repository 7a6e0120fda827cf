import Dispatch
import Foundation
import Glibc
@testable import PokedexCurl
import PokedexEventLoop
import PokedexNetwork
import XCTest

/// The network's client over the curl multi handle on the service's loop, against a server in
/// the test's own process: a body and its headers, `If-None-Match`, a compressed body left for
/// the caller to inflate, the body caps, a time-out, a refused connection, a body cut off, a
/// cancelled caller's transfer and no other, connections kept and shared.
final class CurlHTTPClientTests: XCTestCase {
    /// The service's loop on a thread of its own, with the client on it.
    final class Running: @unchecked Sendable {
        let loop: EventLoop
        let client: CurlHTTPClient
        private let ended = DispatchSemaphore(value: 0)

        init(options: CurlHTTPClient.Options = .init()) throws {
            try CurlHTTPClient.globalInit()
            loop = try EventLoop()
            client = try CurlHTTPClient(loop: loop, options: options)
            let loop = loop, ended = ended
            Thread {
                _ = loop.run()
                ended.signal()
            }.start()
            while !loop.isRunning { usleep(1000) }
        }

        func stop() {
            loop.exit()
            _ = ended.wait(timeout: .now() + 10)
        }
    }

    var running: Running!
    override func setUpWithError() throws { running = try Running() }
    override func tearDown() { running.stop() }

    func get(_ url: String, timeout: Double = 10, maxBytes: Int = 1 << 20, ifNoneMatch: String? = nil) async throws -> HTTPResponse {
        try await running.client.get(HTTPRequest(url: url, ifNoneMatch: ifNoneMatch, timeout: timeout, maxBytes: maxBytes))
    }

    /// What a failed get threw, as the transport says it.
    func failure(_ url: String, timeout: Double = 10, maxBytes: Int = 1 << 20) async -> TransportFailure? {
        do {
            _ = try await get(url, timeout: timeout, maxBytes: maxBytes)
            return nil
        } catch {
            return error as? TransportFailure
        }
    }

    func testABodyAndItsHeadersComeBack() async throws {
        let body = Array(#"{"id": 25, "name": "pikachu"}"#.utf8)
        let server = try TestHTTPServer { _ in .respond(status: 200, headers: ["ETag": "\"v1\"", "Cache-Control": "max-age=60", "X-Served-By": "cache-ams"], body: body) }
        defer { server.stop() }
        let r = try await get(server.url + "/api/v2/pokemon/25/")
        XCTAssertEqual(r.status, 200)
        XCTAssertEqual(r.body, body)
        XCTAssertEqual(r.headers["etag"], "\"v1\"", "header names lower-cased")
        XCTAssertEqual(r.headers["cache-control"], "max-age=60")
        XCTAssertNil(r.headers["x-served-by"], "a field the service does not read is not kept")
        XCTAssertEqual(server.requests.first?.path, "/api/v2/pokemon/25/")
        XCTAssertNotNil(server.requests.first?.headers["user-agent"].map { $0.hasPrefix("pokedexd/") }, "the service says who it is")
        XCTAssertTrue(server.requests.first?.headers["accept-encoding"]?.contains("gzip") == true, "compressed bodies asked for")
    }

    func testIfNoneMatchIsSentAndANotModifiedHasNoBody() async throws {
        let server = try TestHTTPServer { r in
            r.headers["if-none-match"] == "\"v1\"" ? .respond(status: 304, headers: [:], body: []) : .respond(status: 200, headers: [:], body: [1])
        }
        defer { server.stop() }
        let r = try await get(server.url + "/x", ifNoneMatch: "\"v1\"")
        XCTAssertEqual(r.status, 304)
        XCTAssertEqual(r.body, [])
    }

    /// The loop only moves compressed bytes; the caller inflates them within the same cap.
    func testACompressedBodyIsLeftForTheCallerToInflate() async throws {
        let text = Array(String(repeating: "pikachu ", count: 2000).utf8)
        let gzip = try Self.gzip(text)
        let server = try TestHTTPServer { _ in .respond(status: 200, headers: ["Content-Encoding": "gzip"], body: gzip) }
        defer { server.stop() }
        let r = try await get(server.url + "/x")
        XCTAssertEqual(r.body, gzip, "as it came")
        XCTAssertEqual(try running.client.content(of: r, maxBytes: 1 << 20), text)
        XCTAssertThrowsError(try running.client.content(of: r, maxBytes: 1000), "inflating past the cap is refused")
    }

    func testABodyOverItsCapIsRefusedFromItsLength() async throws {
        let server = try TestHTTPServer { _ in .respond(status: 200, headers: [:], body: [UInt8](repeating: 0x61, count: 10_000)) }
        defer { server.stop() }
        guard case .tooLarge? = await failure(server.url + "/big", maxBytes: 4096) else { return XCTFail("not refused as too large") }
        let fits = try await get(server.url + "/big", maxBytes: 10_000)
        XCTAssertEqual(fits.body.count, 10_000, "a body at its cap is whole")
    }

    func testAnAttemptEndsAtItsTimeOut() async throws {
        let server = try TestHTTPServer { _ in .hang }
        defer { server.stop() }
        guard case .timedOut? = await failure(server.url + "/slow", timeout: 0.2) else { return XCTFail("not a time-out") }
    }

    func testARefusedConnectionIsAConnectionFailure() async throws {
        let server = try TestHTTPServer { _ in .hang }
        let url = server.url
        server.stop()
        guard case .connection? = await failure(url + "/gone") else { return XCTFail("not a connection failure") }
    }

    func testABodyCutOffIsTruncated() async throws {
        let server = try TestHTTPServer { _ in .cut(length: 1000, sent: 10) }
        defer { server.stop() }
        guard case .truncated? = await failure(server.url + "/cut") else { return XCTFail("not truncated") }
    }

    /// A reply whose chunked body is malformed fails that request, and as the body's fault (a
    /// cut, one of which is a hiccup), not as the host's: it answered.
    func testAMalformedChunkedReplyIsTheBodysFaultNotTheHosts() async throws {
        let head = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Type: application/json\r\n\r\n"
        for body in ["5\r\n{\"a\":\r\nzz-not-hex\r\n\r\n", "4\r\n{\"a\":1}\r\n0\r\n\r\n", "5\r\n{\"a\":"] {
            let server = try TestHTTPServer { _ in .raw(Array((head + body).utf8)) }
            defer { server.stop() }
            let outcome = await failure(server.url + "/malformed")
            switch outcome {
            case .truncated?, .other?: break
            default: XCTFail("\(body.debugDescription): \(String(describing: outcome)), not the body's fault")
            }
        }
    }

    /// A caller that gives up takes its transfer off the multi handle at once: the server sees
    /// the connection go, long before the attempt's own time-out.
    func testACancelledCallerTakesItsTransferAway() async throws {
        let server = try TestHTTPServer { _ in .hang }
        defer { server.stop() }
        let client = running.client, url = server.url + "/slow"
        let task = Task { try await client.get(HTTPRequest(url: url, timeout: 600, maxBytes: 1 << 20)) }
        while server.requests.isEmpty { try await Task.sleep(nanoseconds: 5_000_000) }
        task.cancel()
        do {
            _ = try await task.value
            XCTFail("answered")
        } catch {
            XCTAssertTrue(error is CancellationError, "\(error)")
        }
    }

    /// A caller whose task is cancelled after its transfer ended, before the task resumed (a
    /// busy pool, a shutdown cancelling background work), cancels nothing else: not the
    /// transfer curl's next easy handle, most often at the same address, now belongs to.
    func testACallerCancelledAfterItsTransferEndedCancelsNoOtherTransfer() async throws {
        let held = DispatchSemaphore(value: 0)
        let server = try TestHTTPServer { r in
            if r.path == "/held" { held.wait() }
            return .respond(status: 200, headers: [:], body: Array(r.path.utf8))
        }
        defer { server.stop() }
        let client = running.client, loop = running.loop, base = server.url
        for round in 1...10 {
            let ended = CurlHTTPClient.Ticket(loop: loop)
            _ = try await client.get(HTTPRequest(url: base + "/ended", timeout: 10, maxBytes: 1 << 20), ticket: ended)
            let waiting = Task { try await client.get(HTTPRequest(url: base + "/held", timeout: 10, maxBytes: 1 << 20)) }
            while server.requests.filter({ $0.path == "/held" }).count < round { try await Task.sleep(nanoseconds: 2_000_000) }
            // What the first caller's cancellation handler does when its task is cancelled now.
            loop.execute { client.cancel(ended) }
            held.signal()
            do {
                let r = try await waiting.value
                XCTAssertEqual(String(decoding: r.body, as: UTF8.self), "/held", "round \(round)")
            } catch {
                XCTFail("round \(round): the transfer under way was cancelled by another caller's late cancellation: \(error)")
            }
        }
    }

    /// Over HTTP/1.1, requests to one host reuse their connections, at most the cap at once.
    func testConnectionsAreKeptAndCapped() async throws {
        running.stop()
        var options = CurlHTTPClient.Options()
        options.maxHostConnections = 2
        running = try Running(options: options)
        let server = try TestHTTPServer { r in .respond(status: 200, headers: [:], body: Array(r.path.utf8)) }
        defer { server.stop() }
        let client = running.client, base = server.url
        try await withThrowingTaskGroup(of: Void.self) { group in
            for i in 0..<12 { group.addTask { _ = try await client.get(HTTPRequest(url: base + "/\(i)", timeout: 10, maxBytes: 1 << 20)) } }
            try await group.waitForAll()
        }
        for i in 12..<16 { _ = try await get(server.url + "/\(i)") }
        XCTAssertEqual(server.requests.count, 16)
        XCTAssertLessThanOrEqual(server.connections, 2, "at most two connections, each used again")
    }

    /// `gzip -c` of `bytes`.
    static func gzip(_ bytes: [UInt8]) throws -> [UInt8] {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/gzip")
        p.arguments = ["-c"]
        let input = Pipe(), output = Pipe()
        p.standardInput = input
        p.standardOutput = output
        try p.run()
        input.fileHandleForWriting.write(Data(bytes))
        try input.fileHandleForWriting.close()
        let out = output.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return Array(out)
    }
}
