import PokedexNetwork

/// Starting the service's own work, and stopping it at exit with nothing lost.
extension PokedexService {
    /// Starts background work: parses the bundled names; unless prefetching is off, pre-warms the first page, opens the
    /// connections to the API and the sprite host (DNS, TCP, TLS) so the first call pays only
    /// for its own requests, then loads the type and generation filters and builds the search index.
    public func start() {
        // The bundled names, parsed off the bus thread before the first call needs them.
        background.runDetached(.utility) { [language = configuration.language] in
            _ = BundledNames.entries.count
            _ = DistinctNames.clashing(language)  // the desktop's rows, told apart
        }
        guard configuration.prefetch else { return }
        prefetch.start()
        background.run(.utility) { [self] in
            await withPriority(.background) {
                // The hosts' roots: any answer warms the connection, and no resource is asked twice.
                async let api = fetcher.probe(Fetcher.root(of: routes.api))
                async let sprites = fetcher.probe(Fetcher.root(of: pattern.guess(1)))
                _ = await (api, sprites)
                try? await search.loadFilters()
                // And the search index built with them: the first `type:` search, and the
                // desktop's first query, answer from memory.
                _ = try? await search.index()
            }
        }
    }

    /// Waits (blocking, at most `timeout` seconds) until every cache write started in the
    /// background has reached the disk.
    public func finishWrites(timeout: Double = 5) { loader.finishWrites(timeout: timeout) }

    /// The service is stopping: its background work is cancelled and no more starts. Calls in
    /// flight are still answered. Call on the loop thread, which must keep running a moment.
    public func beginShutdown() { background.stop() }

    /// After the loop ended: waits (blocking) at most `timeout` seconds for the background
    /// work to end, then until every cache write has reached the disk, so nothing fetched is
    /// lost. Returns how many background jobs did not end in time.
    /// `pumping` runs meanwhile, every 10 ms: the event loop's queued work, which cancelled
    /// transfers need once the loop no longer runs.
    @discardableResult
    public func finishShutdown(timeout: Double = 5, pumping: () -> Void = {}) -> Int {
        background.stop()
        let left = background.wait(timeout: timeout, pumping: pumping)
        loader.finishWrites(timeout: timeout)
        return left
    }
}
