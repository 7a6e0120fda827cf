import FoundationEssentials

/// The desktop's search providers: GNOME Shell's `SearchProvider2` and KRunner's `krunner1`
/// ask the service through these, and get what ``DesktopSearch`` finds.
extension PokedexService {
    /// The fewest letters KRunner sends a query for.
    public static let krunnerMinLetters = 2

    /// `GetInitialResultSet(terms)`: the ids of the Pokémon every term matches, best first.
    public func desktopResults(_ terms: [String]) -> Answer<[String]> {
        desktop.results(terms).map { $0.map { String($0.item.id) } }
    }

    /// `GetSubsearchResultSet(previous, terms)`: exactly what `GetInitialResultSet(terms)`
    /// answers. GNOME Shell hands back as `previous` whatever it kept of the last search: empty
    /// when that search was still pending as the next key came, capped, or from other terms
    /// (a backspace, then a letter). Narrowing it would lose what a fresh search finds; the
    /// search is answered from memory within a keystroke anyway.
    public func desktopSubsearch(_ previous: [String], _ terms: [String]) -> Answer<[String]> { desktopResults(terms) }

    /// `DesktopSearchPage(terms, offset, limit)`: ``desktopResults(_:)`` as list rows, a page at a
    /// time: what browse lists when the shell opened it on a search.
    public func desktopSearchPage(_ terms: [String], offset: UInt32, limit: UInt32) throws(PokedexError) -> Answer<ListPage> {
        try Catalog.checkLimit(limit)
        @Sendable func page(_ ranked: [DesktopSearch.Ranked], _ row: (PokemonIndex.Item) -> ListEntry) -> ListPage {
            ListPage(total: UInt32(ranked.count), entries: Catalog.slice(ranked, offset: offset, limit: limit).map { row($0.item) })
        }
        switch desktop.results(terms) {
        case .now(let ranked): return .now(page(ranked, rows.fromMemory))
        case .later(let work): return .later { [rows] () throws(PokedexError) in page(try await work(), rows.checkingDisk) }
        }
    }

    /// `GetResultMetas(ids)`.
    public func desktopMetas(_ ids: [String]) -> Answer<[DesktopResult]> { desktop.metas(ids) }

    /// KRunner shows a handful of matches per runner (its list holds 15, shared between
    /// runners): this many, each with its sprite's pixels (a cropped sprite is 10–20 KB).
    public static let krunnerMatches = 10

    /// KRunner's `Match(query)`: the results, whole (as ``desktopMetas(_:)``), with their
    /// sprites' pixels. Inline when memory has every row and every icon; else the rows come from
    /// the disk and the icons are decoded side by side, off the loop (ten of them took 2–5 ms).
    public func krunnerMatch(_ query: String) -> Answer<[KRunnerMatch]> {
        let terms = query.split(whereSeparator: \.isWhitespace).map(String.init)
        guard query.trimmingWhitespace().count >= Self.krunnerMinLetters else { return .now([]) }
        return desktop.results(terms).flatMap { [desktop] ranked in
            let shown = Array(ranked.prefix(Self.krunnerMatches))
            return desktop.whole(shown.map(\.item)).flatMap { _ in
                let results = shown.map(desktop.describe)
                let paths = results.map(\.spritePath)
                if paths.allSatisfy(desktop.icons.isKnown) {
                    return .now(zip(results, paths).map { KRunnerMatch(result: $0, icon: desktop.icons.icon(at: $1)) })
                }
                return .later { zip(results, await desktop.icons.icons(at: paths)).map { KRunnerMatch(result: $0, icon: $1) } }
            }
        }
    }

    /// KRunner's `Actions()`: what it offers on a match, in the service's language.
    public func krunnerActions() -> [KRunnerAction] { KRunnerAction.every.map { $0.translated(words) } }

    /// `ActivateResult(id, terms)`: `pokectl browse` on that row's card in a terminal, with the
    /// search behind it (Esc), or, when there is no terminal or its start failed, a card with
    /// its sprite, genus and types, and buttons to favorite it and to open it.
    public func openResult(_ id: String, terms: [String] = [], caller: String? = nil) -> Answer<Void> {
        desktop.metas([id]).map { [self] results in
            guard let r = results.first else { return }
            let launch = BrowseLaunch(card: r.id, query: terms.joined(separator: " "))
            if launcher?.openBrowse(launch, caller: caller, failed: { [self] in showCard(r, terminalFailed: true) }) == true {
                return
            }
            showCard(r, terminalFailed: false)
        }
    }

    /// The card ``openResult(_:caller:)`` falls back on. When it cannot be shown either (here,
    /// notifications off; in the notifier, no server), one warning says what is missing.
    /// `terminalFailed`: a terminal's start failed, rather than none found: the card says so and
    /// where to read why, and offers no "Open" that would fail the same way.
    private func showCard(_ r: DesktopResult, terminalFailed: Bool) {
        let nothing = NothingOpened(name: r.name, terminalFailed: terminalFailed)
        guard let notifier else { return log(.warning, nothing.message(card: "notifications are off (--notify=no)")) }
        let body = terminalFailed ? r.card + "\n" + words.tr("No terminal could be opened; pokedexd's log says why (journalctl --user -t pokedexd).") : r.card
        let card = DesktopNotification(summary: r.name, body: body, imagePath: r.spritePath,
                                       soundName: FavoriteNotifications.soundName, unshown: nothing)
        let action = r.favorite ? (key: "unfavorite", label: words.tr("Remove from favorites")) : (key: "favorite", label: words.tr("Add to favorites"))
        let open = terminalFailed ? [] : [(key: "open", label: words.tr("Open"))]
        notifier.showCard(card, actions: [action] + open) { [self] key in
            switch key {
            case "favorite", "unfavorite":
                let change = changeFavorite(String(r.id), key == "favorite" ? .add : .remove)
                // A person's click: never cancelled, even when the service is stopping.
                background.runDurable(.utility) { _ = try? await change.value() }
            case "open": _ = launcher?.openBrowse(BrowseLaunch(card: r.id), caller: nil)
            default: break
            }
        }
    }

    /// `LaunchSearch(terms)`: `pokectl browse` with the terms as its search.
    public func launchSearch(_ terms: [String], caller: String? = nil) -> Answer<Void> {
        _ = launcher?.openBrowse(BrowseLaunch(query: terms.joined(separator: " ")), caller: caller)
        return .now(())
    }

    /// KRunner's `SetActivationToken(token)`: handed to the next program `caller` opens, within
    /// a few seconds (``ActivationTokens``).
    public func setActivationToken(_ token: String, caller: String) -> Answer<Void> {
        launcher?.setActivationToken(token, caller: caller)
        return .now(())
    }

    /// KRunner's `Run(id, action)`: favorite, unfavorite, copy the sprite's path, or open ("").
    public func runDesktopAction(_ id: String, _ action: String, caller: String? = nil) -> Answer<Void> {
        switch action {
        case KRunnerAction.favorite.id, KRunnerAction.unfavorite.id:
            return changeFavorite(id, action == KRunnerAction.favorite.id ? .add : .remove).map { _ in () }
        case KRunnerAction.copySpritePath.id:
            return spritePath(id).map { [launcher] path in _ = launcher?.copy(path, caller: caller) }
        default:
            return openResult(id, caller: caller)
        }
    }
}
