import PokedexModels

/// What `pokectl browse` shows and knows. It changes only in ``handle(_:)``, which also says
/// what to ask the service next (``BrowseEffect``); ``BrowseView`` draws it. Neither waits for
/// anything, so input is never held up by the network.
public struct BrowseModel: Sendable {
    /// The service's page size, and the step in which the list is loaded.
    public static let pageSize = 20
    /// How long typing must pause before a search is sent.
    public static let searchDebounce = 0.15

    /// Which list the grid shows.
    public enum Source: Equatable, Sendable { case all, search(String), favorites }
    /// What has the keyboard.
    public enum Mode: Equatable, Sendable { case grid, searching, detail, help }

    // The whole list, a page at a time, by index.
    public internal(set) var total: Int?
    public internal(set) var loaded: [Int: ListEntry] = [:]
    var pagesAsked: Set<Int> = []
    /// Pages that failed: how many times in a row. Each waits ``retryDelay(failures:)`` (the
    /// driver adds jitter) before it is asked again, so an outage is never a storm of calls.
    var pageFailures: [Int: Int] = [:]
    // Search: the line being typed, and the results of the latest query sent.
    public internal(set) var query = ""
    var searchGeneration = 0
    public internal(set) var results: [ListEntry]?
    /// How many match in all (``results`` holds the first of them, a page at a time, as the grid).
    public internal(set) var resultsTotal: Int?
    /// The offset of the next page of results asked for and not yet here.
    var resultsAsked: Int?
    /// The latest query got no answer (the service frozen, gone): its results are not "none".
    public internal(set) var searchFailed = false
    public internal(set) var favorites: [ListEntry]?
    public internal(set) var source = Source.all
    public internal(set) var mode = Mode.grid
    public internal(set) var detail: PokemonDetail?
    /// The moves of the card shown (its last part), once they came.
    public internal(set) var moves: MoveTable?
    /// The name whose detail is on its way.
    public internal(set) var detailLoading: String?
    /// The family member picked on the card (an index into its `evolution`): ← → move it, Enter
    /// opens its card. Nil where the card shows no family.
    public internal(set) var familySelection: Int?
    /// The cards a family member's card was opened from, newest last: Esc goes back to them,
    /// then to the grid.
    public internal(set) var cardHistory: [String] = []
    /// Whether a card plays its Pokémon's cry when it opens (`s` turns it off and on).
    public internal(set) var soundOn = true
    /// How far down the card is scrolled (lines), within ``cardExtent``.
    public internal(set) var cardScroll = 0
    /// The card as the view last measured it; nil until the first frame of a card.
    public internal(set) var cardExtent: CardExtent?
    /// The family member was just picked: the next measure scrolls to it.
    var revealSelection = false
    /// Where the keys' help goes back to.
    public internal(set) var helpOpenedFrom = Mode.grid
    /// Whether a card is shown (or on its way), with the keys' help over it or not.
    public var onCard: Bool { mode == .detail || (mode == .help && helpOpenedFrom == .detail) }
    /// The most cards kept to go back to: a family is at most a few members deep.
    static let maxCardHistory = 32
    public internal(set) var selected = 0
    /// The first grid row on screen.
    public internal(set) var top = 0
    public internal(set) var online = true
    /// A one-line note for the status line (an error), until the next key or until the
    /// condition behind it clears.
    public internal(set) var message: String?
    /// What a key just changed, for the status line until the next key (`s` in the grid,
    /// where nothing else shows it).
    public internal(set) var notice: Notice?
    public enum Notice: Equatable, Sendable { case sound(on: Bool) }
    /// What ``message`` reports, so that it can go when that clears.
    var messageCause: MessageCause?
    enum MessageCause { case page, search, other }
    /// Why the service does not answer ("service stopped", "waiting for the service", or a
    /// diagnosis); nil while it runs. Shown in the status line.
    public internal(set) var serviceDown: String?
    var spritesAsked: Set<UInt32> = []
    /// Nothing is asked of the service before ``start()`` (the first size comes before it).
    var started = false
    public internal(set) var layout = BrowseLayout(width: 80, height: 24)

    /// `open`: a Pokémon (name or number) whose card shows first, with the grid behind it
    /// (Esc): what the desktop's search opens on the row a person chose.
    public init(query: String = "", open: String? = nil, sound: Bool = true) {
        soundOn = sound
        if !query.isEmpty {
            self.query = query
            source = .search(query)
        }
        if let open, !open.isEmpty {
            mode = .detail
            detailLoading = open
        }
    }

    /// What to ask at start: the first page, the favorites (for `F`), the search if one was
    /// given, and the card if one opens first.
    public mutating func start() -> [BrowseEffect] {
        started = true
        var out: [BrowseEffect] = [.loadFavorites]
        if !query.isEmpty {
            searchGeneration += 1
            out.append(.search(query: query, generation: searchGeneration))
        }
        if mode == .detail, let name = detailLoading { out.append(.loadDetail(name: name)) }
        return out + wants()
    }

    // MARK: The list on screen

    /// How many entries the grid has now.
    public var count: Int {
        switch source {
        case .all: return total ?? 0
        case .search: return max(results?.count ?? 0, resultsTotal ?? 0)
        case .favorites: return favorites?.count ?? 0
        }
    }

    /// The entry at `index` of the grid, if it has arrived.
    public func entry(_ index: Int) -> ListEntry? {
        guard index >= 0 else { return nil }
        switch source {
        case .all: return loaded[index]
        case .search: return results.flatMap { index < $0.count ? $0[index] : nil }
        case .favorites: return favorites.flatMap { index < $0.count ? $0[index] : nil }
        }
    }

    /// The indices on screen: whole rows from ``top``; empty, never inverted, when the list
    /// is shorter than the scroll position (a list that just shrank).
    public var visible: Range<Int> {
        let first = min(top * layout.columns, count)
        return first..<max(first, min(count, first + layout.rows * layout.columns))
    }

    // MARK: Events

    public mutating func handle(_ event: BrowseEvent) -> [BrowseEffect] {
        var out: [BrowseEffect] = []
        switch event {
        case .input(let input):
            if case .key = input { message = nil; messageCause = nil; notice = nil }
            out = self.input(input)
        case .resized(let width, let height):
            layout = BrowseLayout(width: width, height: height)
        case .page(let offset, let page):
            // Only pages this model asked for are kept: a page at an offset it never asks for
            // (negative, or out of step) is an answer to someone else.
            guard offset >= 0, offset % Self.pageSize == 0, offset <= Int(UInt32.max) else { break }
            total = Int(page.total)
            for (i, e) in page.entries.prefix(Self.pageSize).enumerated() { loaded[offset + i] = e }
            pageFailures[offset / Self.pageSize] = nil
            if messageCause == .page, pageFailures.isEmpty { message = nil; messageCause = nil }
        case .pageFailed(let offset, let why):
            // Asked again after a pause that doubles (``retryDelay``), not at once.
            let page = offset / Self.pageSize
            let failures = pageFailures[page, default: 0] + 1
            pageFailures[page] = failures
            note(why, .page)
            out.append(.retryPage(offset: page * Self.pageSize, after: Self.retryDelay(failures: failures)))
        case .pageDue(let offset):
            pagesAsked.remove(offset / Self.pageSize)
        case .service(let down):
            let wasDown = serviceDown != nil
            serviceDown = down
            if wasDown, down == nil {
                // Back: what failed meanwhile is asked again now, and the favorites anew.
                out += recover()
                out.append(.loadFavorites)
            }
        case .searchDue(let generation):
            if generation == searchGeneration, !query.isEmpty { out.append(.search(query: query, generation: generation)) }
        case .searchPage(let generation, let offset, let page):
            guard generation == searchGeneration else { break }
            searchFailed = false
            resultsTotal = Int(page.total)
            resultsAsked = nil
            if offset == 0 {
                results = page.entries
                selected = 0
                top = 0
            } else if var r = results, r.count == offset {
                r.append(contentsOf: page.entries)
                results = r
            }
        case .searchFailed(let generation, let why):
            if generation == searchGeneration {
                // A later page that failed is not asked again (no storm); a new query starts over.
                if resultsAsked == nil { results = []; resultsTotal = nil; searchFailed = true }
                note(why, .search)
            }
        case .detail(let d):
            guard onCard, detailLoading == d.name || detailLoading == String(d.id) else { break }
            detail = d
            detailLoading = nil
            familySelection = d.evolution.count > 1 ? d.ownFamilyIndex ?? 0 : nil
            // A card asked again (after an outage, by name) may come back as another Pokémon:
            // the moves of the one before are not its.
            if moves?.id != d.id { moves = nil }
            if moves == nil { out.append(.loadMoves(name: d.name)) }
            if soundOn { out.append(.playCry(name: d.name)) }
        case .moves(let t):
            if onCard, detail?.id == t.id { moves = t }
        case .movesFailed(let name, let why):
            if onCard, detail?.name == name, !why.isEmpty { note(why, .other) }
        case .detailFailed(let why):
            if onCard { closeCard() }
            note(why, .other)
        case .favorites(let list):
            favorites = list
        case .favoriteChanged(let id, let name, let favorite):
            noteFavorite(id: id, name: name, favorite: favorite)
        case .online(let up):
            // The API is back: what the screen lacks is asked again now, by itself, rather than
            // at a page's next retry or a key; the error line goes once it arrives.
            let wasOnline = online
            online = up
            if up, !wasOnline { out += recover() }
        case .cacheCleared:
            // Every sprite path shown is gone with the cache: asked again as the tiles show.
            forgetSprites { _ in true }
            detail?.spritePath = ""
            out += recover()
        case .sprite(let id, let path):
            update(id) { $0.spritePath = path }
        case .failed(let why):
            if !why.isEmpty { note(why, .other) }
        }
        keepInBounds()
        return out + wants()
    }

    /// What every event leaves true, whatever the list did meanwhile (a search that found
    /// fewer, a favorite dropped, a smaller total, a smaller window): the selection is an entry
    /// of the list (0 when it is empty), and the screen starts at a row of the list and shows
    /// the selection.
    mutating func keepInBounds() {
        selected = count == 0 ? 0 : min(max(0, selected), count - 1)
        let lastRow = count == 0 ? 0 : (count - 1) / layout.columns
        // No screen starts so far down that rows of the list are left off above while the
        // screen has room below (the end of the list, then a bigger window): it shows as many
        // tiles as fit.
        top = min(max(0, top), max(0, lastRow - layout.rows + 1))
        reveal()
    }

    mutating func note(_ why: String, _ cause: MessageCause) {
        message = why
        messageCause = cause
    }

    /// Pages waiting for their retry are asked again at the next ``wants()``.
    mutating func retryFailedPages() {
        for page in pageFailures.keys { pagesAsked.remove(page) }
    }

    /// The pause before a failed page is asked again: 1 s, doubling to 30 s (before jitter).
    public static func retryDelay(failures: Int) -> Double {
        min(30, Double(1 << min(max(failures, 1) - 1, 5)))
    }

    /// Pages and sprites the screen needs and nobody asked for yet: the rows on screen and the
    /// next screenful (the service's pre-warm is ahead of that).
    mutating func wants() -> [BrowseEffect] {
        guard started else { return [] }
        var out: [BrowseEffect] = []
        if source == .all {
            let first = top * layout.columns
            let last = (top + 2 * layout.rows) * layout.columns
            let pages = total == nil ? [0] : Array(stride(from: first / Self.pageSize, through: max(first, min(last, count - 1)) / Self.pageSize, by: 1))
            for page in pages where !pagesAsked.contains(page) {
                pagesAsked.insert(page)
                out.append(.loadPage(offset: page * Self.pageSize))
            }
        }
        // Results past the first page, as the grid's pages: when the screen and the next reach them.
        if case .search(let q) = source, let r = results, let total = resultsTotal, r.count < total, resultsAsked == nil {
            let last = (top + 2 * layout.rows) * layout.columns
            if last >= r.count {
                resultsAsked = r.count
                out.append(.searchMore(query: q, generation: searchGeneration, offset: r.count))
            }
        }
        for i in visible {
            guard let e = entry(i), e.spritePath.isEmpty, !spritesAsked.contains(e.id) else { continue }
            spritesAsked.insert(e.id)
            out.append(.spritePath(id: e.id, name: e.name))
        }
        return out
    }
}
