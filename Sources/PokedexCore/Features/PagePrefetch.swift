import PokedexLocks
import PokedexNetwork

/// Browsing never waits: the page asked for last, its sprites and those of the next two
/// pages are fetched in the background, in that order; work for pages left behind is dropped.
final class PagePrefetch: Sendable {
    private let enabled: Bool
    private let catalog: Catalog
    private let sprites: Sprites
    private let queue: Prefetcher
    private let background: BackgroundWork
    /// The page asked for last.
    private let lastPage = Mutex<(offset: UInt32, limit: UInt32)?>(nil)

    /// - Parameter maxConcurrent: sprites fetched at once; the request gate still decides
    ///   what a host may take (callers first, HTTP/1.1 hosts a few connections each).
    init(enabled: Bool, maxConcurrent: Int, catalog: Catalog, sprites: Sprites, background: BackgroundWork) {
        self.background = background
        self.enabled = enabled
        self.catalog = catalog
        self.sprites = sprites
        queue = Prefetcher(maxConcurrent: maxConcurrent, background: background) { id in
            await withPriority(.prefetch) {
                _ = try? await sprites.ensure(PokemonIndex.Item(id: id, name: "#\(id)"))
            }
        }
    }

    /// Pre-warms the first page. With no list on hand yet, the first page's sprites are
    /// guessed (the API lists Pokémon by id, from 1) and fetched while the list is on its
    /// way; the list then confirms or replaces the guess. The list is read from the disk in
    /// the background: the caller is the main thread, which becomes the loop thread and
    /// answers the bus (the first call after a start waited 10–50 ms for this).
    func start() {
        guard enabled else { return }
        background.run(.utility) { [self] in
            let guessing = catalog.indexOnHand == nil
            pageRequested(offset: 0, limit: 20)  // with no list yet, this fetches it first
            if guessing {
                // Below the list itself: the guesses leave a connection free for it.
                queue.schedule(urgent: [], ahead: Array(1...20))
            }
        }
    }

    /// A page was asked for. Never waits.
    func pageRequested(offset: UInt32, limit: UInt32) {
        guard enabled else { return }
        let changed = lastPage.withLock { last -> Bool in
            defer { last = (offset, limit) }
            return last.map { $0.offset != offset || $0.limit != limit } ?? true
        }
        guard changed else { return }
        guard let index = catalog.cachedIndex else {
            background.run(.utility) { [self] in
                guard (try? await withPriority(.prefetch) { () async throws(PokedexError) in try await catalog.index() }) != nil else { return }
                lastPage.withLock { $0 = nil }
                pageRequested(offset: offset, limit: limit)
            }
            return
        }
        var pages: [[UInt32]] = []
        for page in 0..<3 {
            let start = UInt64(offset) + UInt64(page) * UInt64(limit)
            guard start < UInt64(index.items.count) else { break }
            pages.append(Catalog.slice(index, offset: UInt32(start), limit: limit)
                .filter { !sprites.isKnownOnDisk($0.id) }.map(\.id))
        }
        queue.schedule(urgent: pages.first ?? [], ahead: pages.dropFirst().flatMap { $0 })
    }

    /// Stops or resumes starting new work (while the API or the sprite host is away). On
    /// resuming, the last page is scheduled again: what failed while its host was away is
    /// fetched now, without another call.
    func setPaused(_ paused: Bool) {
        let wasPaused = queue.isPaused
        queue.setPaused(paused)
        guard wasPaused, !paused, let last = lastPage.withLock({ p in defer { p = nil }; return p }) else { return }
        pageRequested(offset: last.offset, limit: last.limit)
    }

    /// Forgets the page asked for last, so that asking for it again prefetches it again
    /// (`ClearCache` removed its sprites).
    func forgetLastPage() { lastPage.withLock { $0 = nil } }
}
