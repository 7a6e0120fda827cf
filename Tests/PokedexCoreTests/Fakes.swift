import Foundation
import Synchronization
@testable import PokedexCore

/// A clock moved by hand. `sleep` returns at once and advances time, recording how long.
final class ManualClock: PokedexClock {
    private let state = Mutex((now: Date(timeIntervalSince1970: 1_800_000_000), sleeps: [Double]()))
    func now() -> Date { state.withLock { $0.now } }
    func advance(_ seconds: Double) { state.withLock { $0.now += seconds } }
    var sleeps: [Double] { state.withLock { $0.sleeps } }
    func sleep(seconds: Double) async throws {
        state.withLock { $0.sleeps.append(seconds); $0.now += seconds }
    }
}

/// An HTTP client answering from a table of routes, recording every request.
final class FakeHTTPClient: HTTPClient {
    typealias Route = @Sendable (HTTPRequest) async throws -> HTTPResponse
    private let state = Mutex((routes: [String: Route](), requests: [HTTPRequest]()))

    func route(_ url: String, _ handler: @escaping Route) { state.withLock { $0.routes[url] = handler } }
    func route(_ url: String, json: String, etag: String = "\"v1\"", maxAge: Int = 86400) {
        route(url) { req in
            if req.ifNoneMatch == etag { return HTTPResponse(status: 304, headers: ["etag": etag, "cache-control": "max-age=\(maxAge)"]) }
            return HTTPResponse(status: 200, headers: ["etag": etag, "cache-control": "public, max-age=\(maxAge)"], body: Array(json.utf8))
        }
    }
    var requests: [HTTPRequest] { state.withLock { $0.requests } }
    func count(_ url: String) -> Int { requests.filter { $0.url == url }.count }

    func get(_ request: HTTPRequest) async throws -> HTTPResponse {
        let route = state.withLock { s -> Route? in
            s.requests.append(request)
            return s.routes[request.url]
        }
        guard let route else { return HTTPResponse(status: 404, body: Array("Not Found".utf8)) }
        return try await route(request)
    }
}

/// Favorites kept in memory; can be told to fail.
final class MemoryFavoritesPersistence: FavoritesPersistence {
    private let state = Mutex((saved: [Favorite](), failing: false, saves: 0))
    var saved: [Favorite] { state.withLock { $0.saved } }
    var saves: Int { state.withLock { $0.saves } }
    func fail(_ on: Bool) { state.withLock { $0.failing = on } }
    func load() throws -> [Favorite] { saved }
    func save(_ favorites: [Favorite]) throws {
        try state.withLock { s in
            if s.failing { throw PokedexError.storage("No space left on device") }
            s.saved = favorites
            s.saves += 1
        }
    }
}

/// A fresh temporary directory.
func temporaryDirectory() -> String {
    let path = NSTemporaryDirectory() + "pokedex-test-" + UUID().uuidString
    try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}

/// A small valid PNG with a solid colour (stored, uncompressed deflate: no zlib needed).
func makePNG(_ rgb: (UInt8, UInt8, UInt8), size: Int = 4) -> [UInt8] {
    func be32(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
    func chunk(_ kind: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(kind.utf8) + data
        return be32(UInt32(data.count)) + body + be32(CRC32.checksum(body))
    }
    var raw: [UInt8] = []
    for _ in 0..<size { raw.append(0); for _ in 0..<size { raw += [rgb.0, rgb.1, rgb.2, 255] } }
    // zlib header, one stored block, Adler-32.
    var a: UInt32 = 1, b: UInt32 = 0
    for x in raw { a = (a + UInt32(x)) % 65521; b = (b + a) % 65521 }
    let len = UInt16(raw.count)
    let zlib: [UInt8] = [0x78, 0x01, 0x01, UInt8(len & 0xFF), UInt8(len >> 8), UInt8(~len & 0xFF), UInt8(~len >> 8)] + raw + be32(b << 16 | a)
    let ihdr = be32(UInt32(size)) + be32(UInt32(size)) + [8, 6, 0, 0, 0]
    return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", ihdr) + chunk("IDAT", zlib) + chunk("IEND", [])
}
