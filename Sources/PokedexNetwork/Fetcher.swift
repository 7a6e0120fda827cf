import FoundationEssentials
import PokedexLocks
import PokedexModels

/// Everything about the network in one place: the host allowlist, redirects, retries with
/// capped backoff and jitter, `Retry-After`, `If-None-Match`, each host's health, the budget
/// of requests and bytes in flight, body size caps, and priorities (callers first).
package final class Fetcher: Sendable {
    package let client: any HTTPClient
    private let clock: any PokedexClock
    private let allowedHosts: Set<String>
    /// The API is reached over https: nothing is fetched over plain http, whether a redirect, a
    /// URL in a body or the sprite template names it.
    private let httpsOnly: Bool
    package let deadline: Double
    private let maxAttempts: Int
    private let defaultMaxAge: Double
    private let log: Logger
    package let health: HostHealth
    package let gate: RequestGate
    private let state = Mutex(State())

    package struct State {
        var refusedHosts: Set<String> = []
        /// URL → an answer given again instead of asking until it expires (bounded, whatever
        /// the callers send): a 404, to everyone; a refused body, to work nobody asked for.
        var remembered: [String: Remembered] = [:]
    }

    package struct Remembered {
        let until: Instant
        let error: FetchError
        /// False for a refused body (too large, not a whole image, not PokeAPI's shape):
        /// pre-warming, sync, revalidation and a Detail's sprite do not fetch it again, but a
        /// person who asks for it (``FetchPriority/required``) gets a new attempt, as the
        /// server may be fixed.
        let evenForCallers: Bool
    }

    /// How long a 404 is remembered, so a typo in a script loop does not hit the API each time.
    public let notFoundTTL: Double
    /// The pauses between attempts and a server's Retry-After (scaled down for tests).
    private let schedule: NetworkSchedule

    /// - Parameters:
    ///   - allowedHosts: the only hosts anything is fetched from.
    ///   - apiHost: the authority (`host` or `host:port`) whose health is `Online`; nil: every host's.
    ///   - deadline: seconds within which every fetch ends, answered or failed.
    ///   - maxAttempts: requests one fetch may make to a host that is up, within the deadline
    ///     (backoff 0.1 s doubling to 2 s, or the server's Retry-After). Eight: on a link where a
    ///     third of the answers are errors or cut off, one fetch in 7,000 fails, not one in 700;
    ///     a host that only errs is down after eight server errors in a row and asked no more.
    ///   - limits: requests in flight, per host, and bytes held for decoding.
    ///   - httpsOnly: refuse every `http:` URL (the API is https, and nothing may downgrade it).
    public init(client: any HTTPClient, clock: any PokedexClock, allowedHosts: Set<String>, apiHost: String? = nil, httpsOnly: Bool = false,
                deadline: Double = 10, maxAttempts: Int = 8, defaultMaxAge: Double = 86400,
                notFoundTTL: Double = 3600, maxInFlight: Int = 64, maxHostConnections: Int = 6,
                maxHeldBytes: Int = 8 << 20, schedule: NetworkSchedule = .init(), log: @escaping Logger = { _, _ in }) {
        self.schedule = schedule
        self.log = log
        self.notFoundTTL = notFoundTTL
        self.client = client
        self.clock = clock
        self.allowedHosts = Set(allowedHosts.map { $0.lowercased() })
        self.httpsOnly = httpsOnly
        self.deadline = deadline
        self.maxAttempts = maxAttempts
        self.defaultMaxAge = defaultMaxAge
        let health = HostHealth(apiHost: apiHost?.lowercased(), clock: clock, schedule: schedule)
        self.health = health
        gate = RequestGate(limits: .init(maxInFlight: max(1, maxInFlight), perHostConnections: max(1, maxHostConnections),
                                         maxHeldBytes: max(1 << 20, maxHeldBytes)),
                           multiplexes: { health.multiplexes($0) })
        health.observe { [log] change in
            if change.up {
                log(.notice, "\(change.host) answers again\(change.isAPI ? "; back online" : "")")
            } else if change.isAPI {
                log(.warning, "cannot reach \(change.host) (\(change.reason)); answering from the cache until it is back")
            } else {
                log(.warning, "cannot reach \(change.host) (\(change.reason)); answering without what it serves until it is back")
            }
        }
    }

    /// Whether the API host answers.
    public var isOnline: Bool { health.isOnline }

    /// Each host's state, the API's first.
    public var hosts: [HostStatus] { health.snapshot() }

    /// Whether the URL's host is on the allowlist (and the scheme is http or https).
    public func isAllowed(_ url: String) -> Bool {
        guard let u = URLComponents(string: url), let scheme = u.scheme?.lowercased(),
              scheme == "https" || (scheme == "http" && !httpsOnly), let host = u.host?.lowercased()
        else { return false }
        return allowedHosts.contains(host)
    }

    package static func hostOf(_ url: String) -> String? { URLComponents(string: url)?.host }

    /// A caller now waits for `url`, which may be queued behind other callers at a lower priority.
    package func promote(_ url: String) { gate.promote(url, to: FetchPriority.current) }

    /// GETs `url` and keeps the raw bytes (see ``fetch(_:etag:as:decode:)``).
    public func fetch(_ url: String, etag: String? = nil, as kind: BodyKind = .json) async throws(FetchError) -> FetchOutcome {
        try await fetch(url, etag: etag, as: kind) { $0 }
    }

    /// A body longer than this is decoded on the global pool when the task prefers an executor of
    /// its own (a sync's, on the daemon's event loop): no PokeAPI body comes near it (Mew's, the
    /// longest, is 1.3 MB; a Pokémon's decode at about 1.4 GB/s), and one up to the cap (4 MiB),
    /// made to decode slowly, would hold the bus for as long as it takes. What is shorter is
    /// decoded where the task runs, with no thread woken for it.
    package static let decodedAsideAbove = 2 << 20

    /// `decode(content)`, on the global pool for a body above ``decodedAsideAbove`` when the task
    /// prefers an executor (``PreferredExecutor/current``); where the task runs otherwise.
    private func decodeAside<Value>(_ content: [UInt8], _ decode: ([UInt8]) throws -> Value) async throws -> Value {
        guard content.count > Self.decodedAsideAbove, PreferredExecutor.current != nil else { return try decode(content) }
        return try await withTaskExecutorPreference(globalConcurrentExecutor) { try decode(content) }
    }

    /// Whether `url` answered 404 lately (remembered for ``notFoundTTL``): a part worth a try
    /// can be answered without it, from memory, instead of asking again.
    package func isKnownNotFound(_ url: String) -> Bool {
        let now = clock.instant()
        return state.withLock { s in
            guard let r = s.remembered[url], r.until > now, case .notFound = r.error else { return false }
            return true
        }
    }

    /// GETs `url`, following allowed redirects and retrying transient failures, and turns the
    /// body into a value with `decode` while it still counts against the budget of bytes
    /// held. Runs at ``FetchPriority/current``.
    public func fetch<Value: Sendable>(_ url: String, etag: String? = nil, as kind: BodyKind,
                                       decode: ([UInt8]) throws -> Value) async throws(FetchError) -> Fetched<Value> {
        let start = clock.instant()
        let priority = FetchPriority.current
        if let known = state.withLock({ s -> FetchError? in
            guard let r = s.remembered[url] else { return nil }
            guard r.until > start else { s.remembered.removeValue(forKey: url); return nil }
            return r.evenForCallers || priority != .required ? r.error : nil
        }) { throw known }
        var current = url
        var redirects = 0
        var attempt = 0
        var lastChance = false
        var waitedFor: Instant?
        while true {
            guard isAllowed(current), let host = HostHealth.authority(current) else {
                if httpsOnly, current.lowercased().hasPrefix("http:") {
                    if state.withLock({ $0.refusedHosts.insert("http:" + (Self.hostOf(current) ?? "")).inserted }) {
                        log(.warning, "refused to fetch \(current): the API is https, so nothing is fetched over plain http")
                    }
                    throw .insecure(url: current)
                }
                let host = Self.hostOf(current) ?? current
                if state.withLock({ $0.refusedHosts.insert(host).inserted }) {
                    log(.warning, "refused to fetch \(current): \(host) is not an allowed host (see --sprite-host)")
                }
                throw .hostNotAllowed(host)
            }
            let outage: Int
            var attempting = false
            switch health.admit(host, priority) {
            case .go(let o): outage = o
            case .once(let o): outage = o; lastChance = true; attempting = true
            case .wait:
                // Calls that arrive together share one attempt: this one waits for its outcome.
                await health.waitForAttempt(host)
                guard !Task.isCancelled else { throw .cancelled(url: url) }
                guard deadline - (clock.instant() - start) > 0.05 else { throw .deadline(url: url) }
                continue
            case .waitUntil(let due):
                // Its next try is a moment away: wait for it (once), within the deadline.
                let wait = due - clock.instant()
                guard waitedFor != due, wait < deadline - (clock.instant() - start) - 0.05,
                      let message = health.downMessage(host) else {
                    throw .hostDown(host: host, message: health.downMessage(host) ?? "\(host) is down")
                }
                waitedFor = due
                try await pause(wait, start: start, url: url, failure: .hostDown(host: host, message: message))
                continue
            case .refused(let message): throw .hostDown(host: host, message: message)
            }
            defer { if attempting { health.endAttempt(host) } }
            guard !Task.isCancelled else { throw .cancelled(url: url) }
            let ticket: RequestGate.Ticket
            do { ticket = try await gate.enter(host: host, url: current, priority: priority, bytes: kind.expectedBytes) } catch {
                throw .cancelled(url: url)
            }
            defer { gate.release(ticket) }
            // The host may have gone down while this waited for room: then only the one
            // attempt of its next try goes.
            if !attempting, let message = health.downMessage(host) { throw .hostDown(host: host, message: message) }
            let remaining = deadline - (clock.instant() - start)
            guard remaining > 0.05 else { throw .deadline(url: url) }
            attempt += 1
            let response: HTTPResponse
            let sent = clock.instant()
            do {
                response = try await client.get(HTTPRequest(url: current, ifNoneMatch: etag, timeout: remaining, maxBytes: kind.maxBytes))
            } catch is CancellationError {
                throw .cancelled(url: url)
            } catch let failure as TransportFailure {
                log(.debug, "GET \(current): \(failure) after \(Self.milliseconds(since: sent, clock)) ms")
                if case .tooLarge = failure { throw refuse(url, .tooLarge(url: current, limit: kind.maxBytes)) }
                health.failed(host, failure, url: current, sentDuring: outage)
                let permanent = if case .untrusted = failure { true } else { false }
                // A host found down is not asked again before its next probe, by anyone.
                guard attempt < maxAttempts, !lastChance, !permanent, health.isUp(host) else { throw .transport(failure, url: current) }
                gate.release(ticket)
                try await backoff(attempt: attempt, start: start, url: url, failure: .transport(failure, url: current))
                continue
            } catch {
                throw .transport(.other("\(error)"), url: current)
            }
            gate.transferEnded(ticket, bodyBytes: response.body.count)
            log(.debug, "GET \(current): \(response.status), \(response.body.count) bytes in \(Self.milliseconds(since: sent, clock)) ms"
                + (response.multiplexed == true ? " (HTTP/2)" : "") + (etag != nil ? " (revalidated)" : ""))
            // The one attempt of a try to a host out of reach, answered: it is there, whatever the
            // status (as a probe counts it), and this caller may retry as with any host that is up.
            let reachedBack = attempting && health.isUnreachable(host)
            health.answered(host, status: reachedBack ? min(response.status, 499) : response.status,
                            multiplexed: response.multiplexed, sentDuring: outage)
            if attempting, health.isUp(host) { lastChance = false }
            switch response.status {
            case 200:
                guard response.body.count <= kind.maxBytes else { throw refuse(url, .tooLarge(url: current, limit: kind.maxBytes)) }
                // Inflated here, in this task, not on the client's loop; within the same cap.
                let content: [UInt8]
                do {
                    content = try client.content(of: response, maxBytes: kind.maxBytes)
                } catch .tooLarge {
                    throw refuse(url, .tooLarge(url: current, limit: kind.maxBytes))
                } catch {
                    throw refuse(url, .unusable(url: current, message: "PokeAPI sent an unreadable answer for \(current): \(error)"))
                }
                // An inflated body's memory serves the next one once decoded (not one kept as it came).
                let inflated = response.contentEncoding != "identity"
                defer { if inflated { client.recycle(content) } }
                do {
                    return .body(try await decodeAside(content, decode), etag: response.headers["etag"], maxAge: maxAge(response))
                } catch let e as PokedexError {
                    throw refuse(url, .unusable(url: current, message: e.message))
                } catch {
                    throw refuse(url, .unusable(url: current, message: "PokeAPI sent an unreadable answer for \(current)"))
                }
            case 304:
                return .notModified(etag: response.headers["etag"] ?? etag, maxAge: maxAge(response))
            case 301, 302, 303, 307, 308:
                guard redirects < 5, let location = response.headers["location"],
                      let next = URL(string: location, relativeTo: URL(string: current))?.absoluteString
                else { throw .http(status: response.status, url: current) }
                redirects += 1
                current = next
            case 404, 410:
                remember(url, .notFound(url: url), for: notFoundTTL, evenForCallers: true)
                throw .notFound(url: current)
            case 429:
                guard attempt < maxAttempts, !lastChance else { throw .http(status: 429, url: current) }
                let wait = schedule.retryAfter(Double(response.headers["retry-after"] ?? "") ?? 1)
                gate.release(ticket)
                try await pause(wait, start: start, url: url, failure: .http(status: 429, url: current))
            case 500...599:
                guard attempt < maxAttempts, !lastChance else { throw .http(status: response.status, url: current) }
                gate.release(ticket)
                try await backoff(attempt: attempt, start: start, url: url, failure: .http(status: response.status, url: current))
            default:
                throw .http(status: response.status, url: current)
            }
        }
    }

    /// Whole milliseconds since `instant`, for the request log (`--verbose`).
    static func milliseconds(since instant: Instant, _ clock: any PokedexClock) -> Int {
        let ms = (clock.instant() - instant) * 1000
        return ms.isFinite ? Int(max(0, min(ms, 1e9))) : 0
    }

    /// How long a refused body is remembered: long enough that no caller or pre-warming loop
    /// fetches it again and again, short enough that a fixed server is soon believed.
    public static let refusedTTL: Double = 600

    /// Remembers that `url`'s body was refused, and returns the error to throw.
    private func refuse(_ url: String, _ error: FetchError) -> FetchError {
        remember(url, error, for: Self.refusedTTL, evenForCallers: false)
        return error
    }

    private func remember(_ url: String, _ error: FetchError, for seconds: Double, evenForCallers: Bool) {
        let until = clock.instant() + seconds
        state.withLock { s in
            if s.remembered.count > 10_000 { s.remembered.removeAll() }
            s.remembered[url] = Remembered(until: until, error: error, evenForCallers: evenForCallers)
        }
    }

    /// Capped exponential backoff with full jitter: 0.1 s, 0.2 s, 0.4 s … at most 2 s.
    private func backoff(attempt: Int, start: Instant, url: String, failure: FetchError) async throws(FetchError) {
        let cap = schedule.retryCap(attempt: attempt)
        try await pause(Double.random(in: cap / 2...cap), start: start, url: url, failure: failure)
    }

    /// Sleeps unless that would pass the deadline, in which case the last failure stands.
    private func pause(_ seconds: Double, start: Instant, url: String, failure: FetchError) async throws(FetchError) {
        let remaining = deadline - (clock.instant() - start)
        guard seconds < remaining - 0.05 else { throw failure }
        do { try await clock.sleep(seconds: seconds) } catch { throw Task.isCancelled ? .cancelled(url: url) : .deadline(url: url) }
    }

    private func maxAge(_ response: HTTPResponse) -> Double {
        CacheControl.maxAge(response.headers["cache-control"]) ?? defaultMaxAge
    }
}
