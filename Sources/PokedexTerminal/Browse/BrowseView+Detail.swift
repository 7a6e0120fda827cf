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
    }

    /// The card's first line on the screen (under the title and a blank line).
    static let cardTop = 2

    /// The detail card as it fits a `width × height` screen: its lines, and where the terminal
    /// draws the sprite when it does (the card then leaves that room blank). Nil when the
    /// window is too small for a card (it can shrink to 1×1 at any moment).
    func card(width: Int, height: Int) -> (lines: [String], picture: Placement?)? {
        guard let d = model.detail, width >= Self.minimumCardWidth, height >= 4 else { return nil }
        let cardWidth = width - 2, fits = height - 1 - Self.cardTop  // the lines above the status line
        let picked = model.familySelection
        // Only a member picked away from the card's own is scrolled to: a card opens as it always
        // did, its picture in place, its family below.
        if pictures != .none, !d.spritePath.isEmpty,
           let room = cardPicture(d.spritePath, min(DetailCard.imageColumns, cardWidth), DetailCard.imageColumns / 2) {
            let card = DetailCard(detail: d, image: nil, width: cardWidth, mode: mode, graphic: room, words: words, selectedMember: picked)
                .renderWithRoomMarkingSelection()
            // Only where the whole picture is on the screen (one placed lower would scroll it),
            // and so is the family member picked.
            if card.pictureLine + room.rows <= fits, picked == d.ownFamilyIndex || (card.selectedLine ?? 0) < fits - 1 {
                let p = Placement(spritePath: d.spritePath, x: 1, y: Self.cardTop + card.pictureLine, columns: room.columns, rows: room.rows)
                return (Array(card.lines.prefix(fits)), p)
            }
        }
        let card = DetailCard(detail: d, image: d.spritePath.isEmpty ? nil : image(d.spritePath), width: cardWidth, mode: mode,
                              words: words, selectedMember: picked).renderMarkingSelection()
        // A card taller than the screen scrolls as far as the member picked, and a line under it.
        let offset = picked == d.ownFamilyIndex ? 0 : card.selectedLine.map { max(0, min(card.lines.count - fits, $0 - fits + 2)) } ?? 0
        return (Array(card.lines.dropFirst(offset).prefix(fits)), nil)
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
