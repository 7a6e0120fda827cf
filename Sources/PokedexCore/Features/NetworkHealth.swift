import FoundationEssentials
import PokedexLocks
import PokedexNetwork

/// Each host's health as the service uses it: `Online` follows the API host alone; a host
/// that is down is probed gently (after 1 s, doubling to 30 s) until it answers, by one
/// request with no body; whoever follows is told of every change.
final class NetworkHealth: Sendable {
    private let fetcher: Fetcher
    private let clock: any PokedexClock
    /// Hosts with a probe loop running.
    private let probing = Mutex<Set<String>>([])

    private let background: BackgroundWork

    init(fetcher: Fetcher, clock: any PokedexClock, background: BackgroundWork) {
        self.fetcher = fetcher
        self.clock = clock
        self.background = background
    }

    /// Whether the API host answers.
    var isOnline: Bool { fetcher.isOnline }

    /// Each host's state, the API's first.
    var hosts: [HostStatus] { fetcher.hosts }

    /// Whether the host of `url` is up (a host never tried is).
    func isUp(_ url: String) -> Bool { HostHealth.authority(url).map(fetcher.health.isUp) ?? true }

    /// Probes each host that is down and due for a try now, at once, rather than at the probe
    /// loop's turn: a sync about to try again after a pause asks first, so that its try does
    /// not fail at once on a host that came back while nobody asked it.
    func probeDownHostsNow() async {
        await withTaskGroup(of: Void.self) { group in
            for status in fetcher.hosts where !status.up {
                guard let due = fetcher.health.probe(for: status.host), due.at <= clock.instant() else { continue }
                group.addTask { [fetcher] in await fetcher.probe(due.url) }
            }
        }
    }

    /// Calls `changed` on each change of any host, and probes each host while it is down.
    func follow(_ changed: @escaping @Sendable (HostHealth.Change) -> Void) {
        fetcher.health.observe { [weak self] change in
            changed(change)
            if !change.up { self?.probeUntilBack(change.host) }
        }
    }

    private func probeUntilBack(_ host: String) {
        guard probing.withLock({ $0.insert(host).inserted }) else { return }
        // Weak: the probing ends with the service, and is cancelled at its exit.
        let started = background.run(.background) { [weak self, clock] in
            while let health = self, let due = health.fetcher.health.probe(for: host) {
                let wait = due.at - clock.instant()
                if wait > 0 { do { try await clock.sleep(seconds: wait) } catch { break } }
                guard let health = self else { return }
                // A caller's request may have brought it back while this slept.
                guard let again = health.fetcher.health.probe(for: host) else { break }
                await withPriority(.background) { await health.fetcher.probe(again.url) }
            }
            self?.probing.withLock { _ = $0.remove(host) }
        }
        if !started { _ = probing.withLock { $0.remove(host) } }
    }
}
