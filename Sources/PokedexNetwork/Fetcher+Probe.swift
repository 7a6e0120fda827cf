import FoundationEssentials
import PokedexLocks
import PokedexModels

extension Fetcher {
    /// One request, no retries, no body: does the host of `url` answer now? Used to probe a
    /// host that is down, and to warm a connection up (DNS, TCP, TLS) before anyone asks.
    @discardableResult
    public func probe(_ url: String) async -> Bool {
        guard isAllowed(url), let host = HostHealth.authority(url) else { return false }
        let outage: Int
        let admission = health.admit(host, .required)
        switch admission {
        case .go(let o): outage = o
        case .once(let o): outage = o
        case .wait:
            // A caller's attempt is this try: its outcome is the probe's.
            await health.waitForAttempt(host)
            return health.isUp(host)
        case .refused, .waitUntil: return false
        }
        // Only the try's own attempt is ended here: a probe sent while the host was up must not
        // end a caller's attempt begun since.
        defer { if case .once = admission { health.endAttempt(host) } }
        // At the caller's priority (background: warming up, probing); over HTTPS a warm-up
        // opens the connection the first burst then shares.
        guard let ticket = try? await gate.enter(host: host, url: url, priority: max(FetchPriority.current, .optional), bytes: 0) else { return false }
        defer { gate.release(ticket) }
        if case .go = admission, health.downMessage(host) != nil { return false }
        do {
            let response = try await client.get(HTTPRequest(url: url, timeout: min(deadline, 5), maxBytes: BodyKind.none.maxBytes, method: .head))
            gate.transferEnded(ticket, bodyBytes: 0)
            // Any answer at all, whatever its status (a server may refuse HEAD): the host is there.
            health.answered(host, status: min(response.status, 499), multiplexed: response.multiplexed, sentDuring: outage)
            return true
        } catch TransportFailure.tooLarge {
            health.answered(host, status: 200, multiplexed: nil, sentDuring: outage)  // it answered, at length
            return true
        } catch let failure as TransportFailure {
            health.failed(host, failure, url: url, sentDuring: outage)
            return false
        } catch {
            return false
        }
    }

    /// `https://host[:port]/` of a URL.
    package static func root(of url: String) -> String {
        guard var u = URLComponents(string: url) else { return url }
        u.path = "/"
        u.query = nil
        u.fragment = nil
        return u.string ?? url
    }
}
