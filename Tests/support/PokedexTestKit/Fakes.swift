import Foundation
import PokedexCore
import PokedexLocks

/// Two clocks moved by hand. `sleep` returns at once, recording how long, and (unless told
/// otherwise) advances time by that much.
///
/// ``advance(_:)`` moves both clocks, as time passing does; ``stepWall(_:)`` moves only the
/// wall clock, as NTP or a person setting the time does, and must change no deadline.
///
/// A clock that advances on sleep is shared by every task that sleeps on it: a background
/// loop (probing while offline) moves time for a fetch's deadline too. A test whose answer
/// depends on a deadline not passing uses `advancesOnSleep: false`.
public final class ManualClock: PokedexClock {
    private let advancesOnSleep: Bool
    public init(advancesOnSleep: Bool = true) { self.advancesOnSleep = advancesOnSleep }
    private let state = Mutex((now: Date(timeIntervalSince1970: 1_800_000_000), instant: 1000.0, sleeps: [Double]()))
    public func now() -> Date { state.withLock { $0.now } }
    public func instant() -> Instant { state.withLock { Instant(seconds: $0.instant) } }
    public func advance(_ seconds: Double) { state.withLock { $0.now += seconds; $0.instant += seconds } }
    /// The wall clock jumps by `seconds` (back if negative); monotonic time does not move.
    public func stepWall(_ seconds: Double) { state.withLock { $0.now += seconds } }
    public var sleeps: [Double] { state.withLock { $0.sleeps } }
    public func sleep(seconds: Double) async throws {
        state.withLock { s in
            s.sleeps.append(seconds)
            if advancesOnSleep { s.now += seconds; s.instant += seconds }
        }
        await Task.yield()
        try Task.checkCancellation()
    }
}

/// An HTTP client answering from a table of routes, recording every request.
public final class FakeHTTPClient: HTTPClient {
    public init() {}
    public typealias Route = @Sendable (HTTPRequest) async throws -> HTTPResponse
    private let state = Mutex((routes: [String: Route](), requests: [HTTPRequest]()))

    public func route(_ url: String, _ handler: @escaping Route) { state.withLock { $0.routes[url] = handler } }
    public func route(_ url: String, json: String, etag: String = "\"v1\"", maxAge: Int = 86400) {
        route(url) { req in
            if req.ifNoneMatch == etag { return HTTPResponse(status: 304, headers: ["etag": etag, "cache-control": "max-age=\(maxAge)"]) }
            return HTTPResponse(status: 200, headers: ["etag": etag, "cache-control": "public, max-age=\(maxAge)"], body: Array(json.utf8))
        }
    }
    public var requests: [HTTPRequest] { state.withLock { $0.requests } }
    public func count(_ url: String) -> Int { requests.filter { $0.url == url }.count }

    public func get(_ request: HTTPRequest) async throws -> HTTPResponse {
        let route = state.withLock { s -> Route? in
            s.requests.append(request)
            return s.routes[request.url]
        }
        guard let route else { return HTTPResponse(status: 404, body: Array("Not Found".utf8)) }
        return try await route(request)
    }
}

/// A thread-safe counter for fake routes.
public final class Counter: Sendable {
    private let n = Mutex(0)
    public init() {}
    public func next() -> Int { n.withLock { v in defer { v += 1 }; return v } }
}

/// Favorites kept in memory; can be told to fail.
public final class MemoryFavoritesPersistence: FavoritesPersistence {
    public init() {}
    private let state = Mutex((saved: [Favorite](), failing: false, saves: 0))
    public var saved: [Favorite] { state.withLock { $0.saved } }
    public var saves: Int { state.withLock { $0.saves } }
    public func fail(_ on: Bool) { state.withLock { $0.failing = on } }
    public func load() -> LoadedFavorites { LoadedFavorites(favorites: saved) }
    public func isKept(_ notice: FavoritesNotice) -> Bool { true }
    public func save(_ favorites: [Favorite], notice: FavoritesNotice?) throws {
        try state.withLock { s in
            if s.failing { throw PokedexError.storage("No space left on device") }
            s.saved = favorites
            s.saves += 1
        }
    }
}

/// A fresh temporary directory.
public func temporaryDirectory() -> String {
    let path = NSTemporaryDirectory() + "pokedex-test-" + UUID().uuidString
    try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}

/// A small valid PNG of one solid colour.
public func makePNG(_ rgb: (UInt8, UInt8, UInt8), size: Int = 4) -> [UInt8] {
    encodePNG(RGBAImage(width: size, height: size,
                        pixels: Array((0..<size * size).map { _ in [rgb.0, rgb.1, rgb.2, 255] }.joined())))
}
