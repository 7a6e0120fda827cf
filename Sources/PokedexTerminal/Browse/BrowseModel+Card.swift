import PokedexModels

/// What the card on screen measures, as ``BrowseView`` lays it out for the window: the model
/// scrolls within it. The view tells it (``BrowseModel/cardShown(_:)``) before each frame
/// (``BrowseView/settle(_:_:)``), so that a key never scrolls past either end.
public struct CardExtent: Equatable, Sendable {
    /// The card's lines, and how many of them the window shows at once.
    public var lines: Int
    public var fits: Int
    /// The first line of each of the card's parts (its top, the flavour text, the family, the
    /// matchups): Tab and Shift-Tab go from one to the next.
    public var sections: [Int]
    /// The line of the family member picked.
    public var selectedLine: Int?

    public init(lines: Int, fits: Int, sections: [Int], selectedLine: Int?) {
        self.lines = max(0, lines)
        self.fits = max(1, fits)
        self.sections = sections
        self.selectedLine = selectedLine
    }

    /// The furthest the card scrolls: its last line at the window's bottom.
    public var maxScroll: Int { max(0, lines - fits) }
}

// MARK: The card's keys

/// A card is a page taller than many windows: ↑ ↓ (j k), PgUp PgDn (b, space), Home End (g G),
/// the wheel and Tab scroll it, ← → pick in its family, Enter opens the member picked, Esc
/// goes back to the card it was opened from, then to the grid.
extension BrowseModel {
    mutating func cardKey(_ key: Key) -> [BrowseEffect] {
        switch key {
        case .left where familySelection != nil, .right where familySelection != nil:
            let members = detail?.evolution.count ?? 0
            if let i = familySelection, members > 0 {
                familySelection = min(max(0, i + (key == .left ? -1 : 1)), members - 1)
                revealSelection = true
            }
        case .enter:
            guard let d = detail, let i = familySelection, i < d.evolution.count, i != d.ownFamilyIndex else { break }
            if cardHistory.count == Self.maxCardHistory { cardHistory.removeFirst() }
            cardHistory.append(d.name)
            return showCard(String(d.evolution[i].id))
        case .escape, .backspace, .left, .char("h"):
            guard let previous = cardHistory.popLast() else { closeCard(); break }
            return showCard(previous)
        case .up, .char("k"): scrollCard(by: -1)
        case .down, .char("j"): scrollCard(by: 1)
        case .pageUp, .char("b"): scrollCard(by: -cardPage)
        case .pageDown, .char(" "): scrollCard(by: cardPage)
        case .home, .char("g"): cardScroll = 0
        case .end, .char("G"): cardScroll = cardExtent?.maxScroll ?? 0
        case .tab, .backTab: cardSection(forward: key == .tab)
        case .char("?"): showHelp()
        case .char("q"): return [.quit]
        case .char("f"): if let d = detail { return [.toggleFavorite(name: d.name)] }
        case .char("s"): return toggleSound()
        default: break
        }
        return []
    }

    /// The wheel scrolls the card; a click goes back to the grid.
    mutating func cardMouse(_ m: MouseEvent) -> [BrowseEffect] {
        switch m.kind {
        case .wheelUp: scrollCard(by: -Self.wheelLines)
        case .wheelDown: scrollCard(by: Self.wheelLines)
        case .press: closeCard()
        default: break
        }
        return []
    }

    /// Lines a wheel step scrolls the card.
    static let wheelLines = 3

    /// A screen of the card, less a line kept for context.
    var cardPage: Int { max(1, (cardExtent?.fits ?? 1) - 1) }

    mutating func scrollCard(by lines: Int) {
        let limit = cardExtent?.maxScroll ?? 0
        cardScroll = min(max(0, cardScroll.addingReportingOverflow(lines).partialValue), limit)
    }

    /// To the next part's first line (or the previous part's, going back).
    mutating func cardSection(forward: Bool) {
        guard let e = cardExtent else { return }
        let target = forward ? e.sections.first { $0 > cardScroll } : e.sections.last { $0 < cardScroll }
        cardScroll = min(max(0, target ?? (forward ? e.maxScroll : 0)), e.maxScroll)
    }

    /// A card asked for by name: the one shown goes, the next opens at its top.
    mutating func showCard(_ name: String) -> [BrowseEffect] {
        detail = nil
        moves = nil
        familySelection = nil
        detailLoading = name
        resetCardScroll()
        return [.loadDetail(name: name)]
    }

    mutating func resetCardScroll() {
        cardScroll = 0
        cardExtent = nil
        revealSelection = false
    }

    /// Back to the grid, every card left behind.
    mutating func closeCard() {
        mode = .grid
        detail = nil
        moves = nil
        detailLoading = nil
        familySelection = nil
        cardHistory = []
        resetCardScroll()
    }

    /// The keys' help, over what was shown; any key goes back to it.
    mutating func showHelp() {
        helpOpenedFrom = mode == .help ? helpOpenedFrom : mode
        mode = .help
    }

    /// The card as the view measured it: the scroll kept within it, and moved to show the
    /// family member just picked. Not an event: it asks nothing of the service.
    public mutating func cardShown(_ e: CardExtent) {
        guard onCard, detail != nil else { return }
        cardExtent = e
        if revealSelection, let line = e.selectedLine {
            // The member and the line under it (its condition), or as much as fits.
            if line < cardScroll { cardScroll = max(0, line - 1) }
            if line + 1 >= cardScroll + e.fits { cardScroll = line + 2 - e.fits }
        }
        revealSelection = false
        cardScroll = min(max(0, cardScroll), e.maxScroll)
    }
}
