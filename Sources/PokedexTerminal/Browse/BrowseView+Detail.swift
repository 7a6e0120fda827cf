import PokedexModels

extension BrowseView {
    // MARK: Detail and help

    func detail(_ s: inout Screen) {
        guard model.detail != nil else {
            s.put(words.trf("loading %s…", UntrustedText.terminal(model.detailLoading ?? "")), x: 2, y: 2, style: Style(dim: true))
            return
        }
        guard let card = card(width: s.width, height: s.height) else { return }
        for (i, line) in card.lines.enumerated() { s.putANSI(line, x: 1, y: Self.cardTop + i, limit: s.width - 1) }
        scrollBar(&s, card.extent, offset: card.offset)
    }

    /// The card's first line on the screen (under the title and a blank line).
    static let cardTop = 2

    /// The card laid out for a `width × height` window, before it is scrolled: with room for
    /// the sprite as a picture where the terminal draws one and the whole of it fits the
    /// window, else with the sprite in half blocks. Nil when the window is too small for a
    /// card (it can shrink to 1×1 at any moment).
    func laidOutCard(width: Int, height: Int) -> LaidOutCard? {
        if let known = cardLayouts.known, known.width == width, known.height == height { return known.card }
        let card = layOutCard(width: width, height: height)
        cardLayouts.known = (width, height, card)
        return card
    }

    /// The moves of the card shown, once they came for it.
    var moves: MoveTable? { model.moves.flatMap { $0.id == model.detail?.id ? $0 : nil } }

    typealias LaidOutCard = (layout: DetailCard.Layout, fits: Int, room: (columns: Int, rows: Int)?)

    private func layOutCard(width: Int, height: Int) -> LaidOutCard? {
        guard let d = model.detail, width >= Self.minimumCardWidth, height >= 4 else { return nil }
        let cardWidth = width - 2, fits = height - 1 - Self.cardTop  // the lines above the status line
        let picked = model.familySelection
        if pictures != .none, !d.spritePath.isEmpty,
           let room = cardPicture(d.spritePath, min(DetailCard.imageColumns, cardWidth), DetailCard.imageColumns / 2) {
            let card = DetailCard(detail: d, image: nil, width: cardWidth, mode: mode, graphic: room, words: words, selectedMember: picked,
                                  moves: moves).laidOut()
            if card.pictureLine + room.rows <= fits { return (card, fits, room) }
        }
        let card = DetailCard(detail: d, image: d.spritePath.isEmpty ? nil : image(d.spritePath), width: cardWidth, mode: mode,
                              words: words, selectedMember: picked, moves: moves).laidOut()
        return (card, fits, nil)
    }

    /// What the card measures in this window, for the model to scroll within.
    public func cardExtent() -> CardExtent? {
        guard model.onCard, let c = laidOutCard(width: model.layout.width, height: model.layout.height) else { return nil }
        return Self.extent(c)
    }

    static func extent(_ c: LaidOutCard) -> CardExtent {
        CardExtent(lines: c.layout.lines.count, fits: c.fits, sections: c.layout.sections, selectedLine: c.layout.selectedLine)
    }

    /// The model told what its card measures, and the view of it: what the driver draws (and
    /// a test checks), so that the card is always scrolled within itself.
    public static func settle(_ model: inout BrowseModel, _ view: (BrowseModel) -> BrowseView) -> BrowseView {
        let first = view(model)
        guard let extent = first.cardExtent(), extent != model.cardExtent else { return first }
        model.cardShown(extent)
        return view(model)
    }

    /// The card's lines on screen from its scroll, where the terminal draws the sprite when it
    /// does (only while the whole picture is on screen; its room stays blank), and the extent.
    func card(width: Int, height: Int) -> (lines: [String], picture: Placement?, extent: CardExtent, offset: Int)? {
        guard let d = model.detail, let c = laidOutCard(width: width, height: height) else { return nil }
        let extent = Self.extent(c)
        let offset = min(max(0, model.cardScroll), extent.maxScroll)
        let picture = c.room.flatMap { room -> Placement? in
            let top = c.layout.pictureLine - offset
            guard top >= 0, top + room.rows <= c.fits else { return nil }
            return Placement(spritePath: d.spritePath, x: 1, y: Self.cardTop + top, columns: room.columns, rows: room.rows)
        }
        return (Array(c.layout.lines.dropFirst(offset).prefix(c.fits)), picture, extent, offset)
    }

    /// A card taller than the window: a bar in the last column, its thumb where the window is.
    func scrollBar(_ s: inout Screen, _ e: CardExtent, offset: Int) {
        guard e.maxScroll > 0, e.fits >= 2 else { return }
        let track = e.fits, x = s.width - 1
        let thumb = max(1, track * track / max(1, e.lines))
        let at = (track - thumb) * offset / e.maxScroll
        for i in 0..<track {
            let on = i >= at && i < at + thumb
            s.put(on ? "█" : "│", x: x, y: Self.cardTop + i, style: Style(foreground: coloured ? (on ? Self.white : Self.grey) : nil, dim: !on))
        }
    }

    /// The narrowest window the detail card is drawn in.
    static let minimumCardWidth = 12

    /// The keys and what they do, in English; `Words.english.tr` marks each for translation
    /// (`tools/update-po`), and ``help(_:)`` looks them up in the reader's language.
    public static let keys: [(String, String)] = {
        let t = Words.english
        return [
            ("← ↑ ↓ → / h j k l", t.tr("move")), ("PgUp PgDn", t.tr("a screen up or down")), ("Home End / g G", t.tr("first, last")),
            (t.tr("wheel, click"), t.tr("scroll, select; click again to open")), ("Enter", t.tr("open the detail")),
            (t.tr("← → in a card"), t.tr("its family; Enter opens one")),
            (t.tr("↑ ↓ PgUp PgDn in a card"), t.tr("scroll it; Tab, Shift-Tab: its next or previous part")),
            ("Esc, Backspace", t.tr("back to the grid (Esc: back to the whole list)")), ("/", t.tr("search as you type; Enter keeps it")),
            ("f", t.tr("favorite on or off")), ("s", t.tr("cries on or off")), ("F", t.tr("favorites only, or all again")), ("?", t.tr("these keys")), ("q, Ctrl-C", t.tr("quit")),
        ]
    }()

    func help(_ s: inout Screen) {
        let w = min(s.width - 4, 64)
        guard w > 2 else { return }
        // The keys in a column, what they do beside them, wrapped: nothing is cut at any width.
        let keyColumn = min(22, max(8, w / 3)), textWidth = max(1, w - keyColumn - 2)
        var rows: [(key: String, what: String)] = []
        for (key, what) in Self.keys.map({ (words.tr($0.0), words.tr($0.1)) }) {
            let keyLines = TerminalText.wrap(key, to: keyColumn - 2), whatLines = TerminalText.wrap(what, to: textWidth)
            for i in 0..<max(keyLines.count, whatLines.count) {
                rows.append((i < keyLines.count ? keyLines[i] : "", i < whatLines.count ? whatLines[i] : ""))
            }
        }
        let h = min(s.height - 2, rows.count + 4)
        guard h > 2 else { return }
        let x = (s.width - w) / 2, y = max(1, (s.height - h) / 2)
        let box = coloured ? Style(foreground: Self.white, background: RGB(0x20, 0x20, 0x40)) : Style(reverse: true)
        s.fill(x: x, y: y, width: w, height: h, style: box)
        s.put(" " + words.tr("Keys"), x: x + 1, y: y + 1, style: Style(foreground: box.foreground, background: box.background, bold: true, reverse: box.reverse))
        let bold = Style(foreground: box.foreground, background: box.background, bold: true, reverse: box.reverse)
        for (i, row) in rows.enumerated() where y + 3 + i < y + h - 1 {
            if !row.key.isEmpty { s.put(" " + row.key, x: x + 1, y: y + 3 + i, style: bold, limit: x + keyColumn) }
            s.put(row.what, x: x + keyColumn + 1, y: y + 3 + i, style: box, limit: x + w - 1)
        }
    }
}

/// The one card a view lays out, kept for the view's other uses (a view is built per frame).
final class CardLayouts {
    var known: (width: Int, height: Int, card: BrowseView.LaidOutCard?)?
}
