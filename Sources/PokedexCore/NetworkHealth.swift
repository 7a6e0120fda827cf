import PokedexLocks

/// Whether the network answers, and getting it back: while it is gone, prefetching
/// pauses and the API is probed gently (2 s, doubling to 60 s) until it answers.
final class NetworkHealth: Sendable {
    private let fetcher: Fetcher
    private let clock: any PokedexClock
    private let probeURL: String
    private let probing = Mutex(false)

    init(fetcher: Fetcher, clock: any PokedexClock, probeURL: String) {
        self.fetcher = fetcher
        self.clock = clock
        self.probeURL = probeURL
    }

    var isOnline: Bool { fetcher.isOnline }

    /// Calls `changed` each time the network goes or comes back, and probes while it is gone.
    func follow(_ changed: @escaping @Sendable (Bool) -> Void) {
        fetcher.observeOnline { [weak self] online in
            changed(online)
            if !online { self?.probeUntilBack() }
        }
    }

    private func probeUntilBack() {
        guard probing.withLock({ p in defer { p = true }; return !p }) else { return }
        // Weak: the probing ends with the service.
        Task(priority: .background) { [weak self, clock] in
            var delay = 2.0
            while let health = self, !health.fetcher.isOnline {
                do { try await clock.sleep(seconds: delay) } catch { break }
                guard let health = self else { return }
                if await health.fetcher.probe(health.probeURL) { break }
                delay = min(delay * 2, 60)
            }
            self?.probing.withLock { $0 = false }
        }
    }
}
