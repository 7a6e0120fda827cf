import Foundation
import PokedexLocks

/// Why the ``Fetcher`` gave up.
public enum FetchError: Error, Equatable, Sendable {
    /// The API answered 404 (or 410).
    case notFound(url: String)
    /// The URL's host is not on the allowlist.
    case hostNotAllowed(String)
    /// The API kept failing with this status.
    case http(status: Int, url: String)
    /// No answer arrived.
    case transport(TransportFailure, url: String)
    /// The deadline passed before an answer.
    case deadline(url: String)
    /// `304 Not Modified` to a request that sent no validator: nothing to reuse.
    case unexpectedNotModified(url: String)
    /// Nobody waits for the answer any more.
    case cancelled(url: String)

    func asPokedexError(context: String) -> PokedexError {
        switch self {
        case .notFound: return .notFound(context)
        case .hostNotAllowed(let host):
            return .unavailable("\(context): refusing to fetch from \(host), which is not an allowed host")
        case .http(let status, let url):
            return .unavailable("\(context): PokeAPI answered HTTP \(status) for \(url), and nothing is cached")
        case .transport(let failure, let url):
            return .unavailable("\(context): cannot reach \(Fetcher.hostOf(url) ?? url) (\(failure)), and nothing is cached")
        case .deadline(let url):
            return .unavailable("\(context): \(Fetcher.hostOf(url) ?? url) did not answer in time, and nothing is cached")
        case .unexpectedNotModified(let url):
            return .unavailable("\(context): PokeAPI answered 304 Not Modified for \(url) without being asked to revalidate")
        case .cancelled:
            return .unavailable("\(context): the request was cancelled")
        }
    }
}

/// What a successful fetch brought.
public enum FetchOutcome: Sendable, Equatable {
    /// A new body, with its validator and lifetime.
    case body([UInt8], etag: String?, maxAge: Double)
    /// `304`: the cached copy is still good for `maxAge` more seconds.
    case notModified(etag: String?, maxAge: Double)
}

/// Everything about the network in one place: the host allowlist, redirects,
/// retries with capped backoff and jitter, `Retry-After`, `If-None-Match`, the
/// caller's deadline, and whether the network looks up.
public final class Fetcher: Sendable {
    private let client: any HTTPClient
    private let clock: any PokedexClock
    private let allowedHosts: Set<String>
    private let deadline: Double
    private let maxAttempts: Int
    private let defaultMaxAge: Double
    private let log: Logger
    private let state = Mutex(State())

    struct State {
        var online = true
        var refusedHosts: Set<String> = []
        /// URL → until when its 404 is remembered.
        var notFound: [String: Date] = [:]
        var onlineObserver: (@Sendable (Bool) -> Void)?
        /// Bumped each time the network is found gone: an answer to a request sent before
        /// that does not prove it is back.
        var outage = 0
    }

    /// How long a 404 is remembered, so a typo in a script loop does not hit the API each time.
    public let notFoundTTL: Double

    /// - Parameters:
    ///   - allowedHosts: the only hosts anything is fetched from.
    ///   - deadline: seconds within which every fetch ends, answered or failed.
    public init(client: any HTTPClient, clock: any PokedexClock, allowedHosts: Set<String>,
                deadline: Double = 10, maxAttempts: Int = 6, defaultMaxAge: Double = 86400,
                notFoundTTL: Double = 3600, log: @escaping Logger = { _, _ in }) {
        self.log = log
        self.notFoundTTL = notFoundTTL
        self.client = client
        self.clock = clock
        self.allowedHosts = Set(allowedHosts.map { $0.lowercased() })
        self.deadline = deadline
        self.maxAttempts = maxAttempts
        self.defaultMaxAge = defaultMaxAge
    }

    /// False once a request failed for lack of a network, true again after any answer.
    public var isOnline: Bool { state.withLock { $0.online } }

    /// Called (from any thread) each time the network is found gone or back.
    public func observeOnline(_ handler: @escaping @Sendable (Bool) -> Void) {
        state.withLock { $0.onlineObserver = handler }
    }

    /// One request, no retries: is the network back? Used to probe gently while offline.
    public func probe(_ url: String) async -> Bool {
        guard isAllowed(url) else { return false }
        let sent = state.withLock { $0.outage }
        do {
            _ = try await client.get(HTTPRequest(url: url, timeout: min(deadline, 5)))
            setOnline(true, because: "", url: url, sentDuring: sent)
            return true
        } catch {
            return false
        }
    }

    /// Whether the URL's host is on the allowlist (and the scheme is http or https).
    public func isAllowed(_ url: String) -> Bool {
        guard let u = URLComponents(string: url), let scheme = u.scheme?.lowercased(),
              scheme == "https" || scheme == "http", let host = u.host?.lowercased()
        else { return false }
        return allowedHosts.contains(host)
    }

    static func hostOf(_ url: String) -> String? { URLComponents(string: url)?.host }

    /// GETs `url`, following allowed redirects and retrying transient failures.
    public func fetch(_ url: String, etag: String? = nil) async throws(FetchError) -> FetchOutcome {
        let start = clock.now()
        let rememberedMissing = state.withLock { s -> Bool in
            guard let until = s.notFound[url] else { return false }
            if until > start { return true }
            s.notFound.removeValue(forKey: url)
            return false
        }
        if rememberedMissing { throw .notFound(url: url) }
        var current = url
        var redirects = 0
        var attempt = 0
        var cutInARow = 0
        while true {
            guard isAllowed(current) else {
                let host = Self.hostOf(current) ?? current
                if state.withLock({ $0.refusedHosts.insert(host).inserted }) {
                    log(.warning, "refused to fetch \(current): \(host) is not an allowed host (see --sprite-host)")
                }
                throw .hostNotAllowed(host)
            }
            guard !Task.isCancelled else { throw .cancelled(url: url) }
            let remaining = deadline - clock.now().timeIntervalSince(start)
            guard remaining > 0.05 else { throw .deadline(url: url) }
            attempt += 1
            let response: HTTPResponse
            let sent = state.withLock { $0.outage }
            do {
                response = try await client.get(HTTPRequest(url: current, ifNoneMatch: etag, timeout: remaining))
            } catch is CancellationError {
                throw .cancelled(url: url)
            } catch let failure as TransportFailure {
                cutInARow = if case .truncated = failure { cutInARow + 1 } else { 0 }
                switch failure {
                case .connection, .timedOut: setOnline(false, because: "\(failure)", url: current, sentDuring: sent)
                // One cut-off body is a hiccup; three in a row, the network is going away mid-transfer.
                case .truncated where cutInARow >= 3: setOnline(false, because: "\(failure)", url: current, sentDuring: sent)
                default: break
                }
                guard attempt < maxAttempts else { throw .transport(failure, url: current) }
                try await backoff(attempt: attempt, start: start, url: url, failure: .transport(failure, url: current))
                continue
            } catch {
                throw .transport(.other("\(error)"), url: current)
            }
            setOnline(true, because: "", url: current, sentDuring: sent)
            switch response.status {
            case 200:
                return .body(response.body, etag: response.headers["etag"], maxAge: maxAge(response))
            case 304:
                return .notModified(etag: response.headers["etag"] ?? etag, maxAge: maxAge(response))
            case 301, 302, 303, 307, 308:
                guard redirects < 5, let location = response.headers["location"],
                      let next = URL(string: location, relativeTo: URL(string: current))?.absoluteString
                else { throw .http(status: response.status, url: current) }
                redirects += 1
                current = next
            case 404, 410:
                let until = clock.now().addingTimeInterval(notFoundTTL)
                state.withLock { s in
                    if s.notFound.count > 10_000 { s.notFound.removeAll() }  // bounded, whatever the callers send
                    s.notFound[url] = until
                }
                throw .notFound(url: current)
            case 429:
                guard attempt < maxAttempts else { throw .http(status: 429, url: current) }
                let wait = Double(response.headers["retry-after"] ?? "") ?? 1
                try await pause(max(wait, 0), start: start, url: url, failure: .http(status: 429, url: current))
            case 500...599:
                guard attempt < maxAttempts else { throw .http(status: response.status, url: current) }
                try await backoff(attempt: attempt, start: start, url: url, failure: .http(status: response.status, url: current))
            default:
                throw .http(status: response.status, url: current)
            }
        }
    }

    /// GETs a body that is not cached yet (no validator sent): the body, its ETag and lifetime.
    public func fetchBody(_ url: String) async throws(FetchError) -> (body: [UInt8], etag: String?, maxAge: Double) {
        guard case .body(let body, let etag, let maxAge) = try await fetch(url) else { throw .unexpectedNotModified(url: url) }
        return (body, etag, maxAge)
    }

    /// Records the network's state; logs only when it changes, never per request.
    private func setOnline(_ online: Bool, because reason: String, url: String, sentDuring outage: Int) {
        let (changed, observer) = state.withLock { s -> (Bool, (@Sendable (Bool) -> Void)?) in
            // An answer to a request sent before the outage began says nothing about now.
            if online && !s.online && outage != s.outage { return (false, nil) }
            if !online && s.online { s.outage += 1 }
            defer { s.online = online }
            return (s.online != online, s.onlineObserver)
        }
        guard changed else { return }
        observer?(online)
        if online {
            log(.notice, "\(Self.hostOf(url) ?? url) answers again; back online")
        } else {
            log(.warning, "cannot reach \(Self.hostOf(url) ?? url) (\(reason)); answering from the cache until it is back")
        }
    }

    /// Capped exponential backoff with full jitter: 0.1 s, 0.2 s, 0.4 s … at most 2 s.
    private func backoff(attempt: Int, start: Date, url: String, failure: FetchError) async throws(FetchError) {
        let cap = min(2.0, 0.1 * pow(2.0, Double(attempt - 1)))
        try await pause(Double.random(in: cap / 2...cap), start: start, url: url, failure: failure)
    }

    /// Sleeps unless that would pass the deadline, in which case the last failure stands.
    private func pause(_ seconds: Double, start: Date, url: String, failure: FetchError) async throws(FetchError) {
        let remaining = deadline - clock.now().timeIntervalSince(start)
        guard seconds < remaining - 0.05 else { throw failure }
        do { try await clock.sleep(seconds: seconds) } catch { throw Task.isCancelled ? .cancelled(url: url) : .deadline(url: url) }
    }

    private func maxAge(_ response: HTTPResponse) -> Double {
        Self.maxAge(cacheControl: response.headers["cache-control"]) ?? defaultMaxAge
    }

    /// The longest a body is kept fresh, whatever a server says: 30 days.
    static let maxAgeCap: Double = 30 * 86400

    /// `Cache-Control`'s lifetime in seconds: `no-store`/`no-cache` are 0; `max-age` counts
    /// only as a non-negative integer (quoted or not), clamped to ``maxAgeCap``. Anything else
    /// (`inf`, `nan`, `-1`, `1e9`, garbage) counts as absent: nil.
    static func maxAge(cacheControl: String?) -> Double? {
        guard let cc = cacheControl else { return nil }
        for part in cc.split(separator: ",") {
            let kv = part.trimmingCharacters(in: .whitespaces).split(separator: "=", maxSplits: 1)
            let name = kv.first?.lowercased() ?? ""
            if name == "no-store" || name == "no-cache" { return 0 }
            guard name == "max-age", kv.count == 2 else { continue }
            var value = Substring(kv[1].trimmingCharacters(in: .whitespaces))
            if value.count >= 2, value.first == "\"", value.last == "\"" { value = value.dropFirst().dropLast() }
            guard !value.isEmpty, value.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
            // Digits only: too many of them is simply "very long".
            return min(Double(value.prefix(12)) ?? maxAgeCap, maxAgeCap)
        }
        return nil
    }
}
