import PokedexModels

/// Draws a ``BrowseModel`` into a ``Screen``: a pure function of the model, the terminal's size
/// and colour, and the pictures the driver has made, so that a frame can be snapshot-tested.
public struct BrowseView {
    public let model: BrowseModel
    public let mode: ColorMode
    /// A tile's picture for a sprite path, if it is on disk and drawn.
    public let art: (String) -> TileArt?
    /// The detail card's sprite.
    public let image: (String) -> RGBAImage?
    /// How the terminal draws the tiles' sprites: as half blocks in the cells, or as pictures at
    /// ``placements()`` (the tiles then leave that room blank).
    public enum Pictures: Sendable {
        /// Half blocks, in the cells.
        case none
        /// Above the cells (kitty graphics): text written under them leaves them be.
        case layered
        /// Painted into the cells (sixel): text written there erases them, so the selection
        /// does not fill the picture's rows.
        case painted
    }

    public let pictures: Pictures
    /// The words of the title, the status line and the keys' help, in the reader's language.
    public let words: Words
    /// A Pokémon's name as the games write it, where the driver knows it (else its identifier,
    /// made readable).
    public let displayName: (UInt32) -> String?

    public init(model: BrowseModel, mode: ColorMode, art: @escaping (String) -> TileArt?,
                image: @escaping (String) -> RGBAImage?, pictures: Pictures = .none,
                words: Words = .english, displayName: @escaping (UInt32) -> String? = { _ in nil }) {
        self.words = words
        self.displayName = displayName
        self.model = model
        self.mode = mode
        self.art = art
        self.image = image
        self.pictures = pictures
    }

    /// Where a tile's sprite goes as a picture: the cells it may take, from the top-left one.
    public struct Placement: Hashable, Sendable {
        public var spritePath: String
        public var x: Int
        public var y: Int
        public var columns: Int
        public var rows: Int

        public init(spritePath: String, x: Int, y: Int, columns: Int, rows: Int) {
            self.spritePath = spritePath
            self.x = x
            self.y = y
            self.columns = columns
            self.rows = rows
        }
    }

    /// The pictures the grid shows now, for a driver that draws them (none over the detail
    /// card or the keys' help, which they would cover).
    public func placements() -> [Placement] {
        guard pictures != .none, model.mode != .detail, model.mode != .help else { return [] }
        let layout = model.layout
        return model.visible.enumerated().compactMap { n, index in
            guard let e = model.entry(index), !e.spritePath.isEmpty, art(e.spritePath) != nil else { return nil }
            let p = Placement(spritePath: e.spritePath, x: layout.left + (n % layout.columns) * BrowseLayout.tileWidth,
                              y: BrowseLayout.gridTop + (n / layout.columns) * BrowseLayout.tileHeight,
                              columns: BrowseLayout.tileWidth - 1, rows: TileArt.maxRows)
            // Only where the whole picture fits above the status line: a picture placed lower
            // would scroll the terminal.
            guard p.x + p.columns <= layout.width, p.y + p.rows <= layout.height - 1 else { return nil }
            return p
        }
    }

    static let accent = RGB(0xEE, 0x15, 0x15)  // the Pokédex's red
    static let white = RGB(0xFF, 0xFF, 0xFF)
    static let grey = RGB(0x80, 0x80, 0x80)

    var coloured: Bool { mode != .none }

    public func render() -> Screen {
        let layout = model.layout
        var s = Screen(width: layout.width, height: layout.height)
        title(&s)
        switch model.mode {
        case .detail: detail(&s)
        default: grid(&s)
        }
        if model.mode == .help { help(&s) }
        status(&s)
        return s
    }

    // MARK: Title and status

    func title(_ s: inout Screen) {
        let bar = coloured ? Style(foreground: Self.white, background: Self.accent, bold: true) : Style(bold: true, reverse: true)
        s.fill(x: 0, y: 0, width: s.width, height: 1, style: bar)
        var x = s.put(" Pokédex ", x: 0, y: 0, style: bar)
        let text: String
        switch (model.mode, model.source) {
        case (.searching, _): text = "/" + model.query
        case (.detail, _):
            text = model.detail.map { $0.displayName.isEmpty ? PokemonNames.display($0.name) : $0.displayName }
                ?? model.detailLoading.map(PokemonNames.display) ?? ""
        case (_, .all): text = model.total.map { words.trf("all %s", String($0)) } ?? words.tr("loading…")
        case (_, .search(let q)):
            text = words.trf("search “%s”: ", q)
                + (model.results.map { words.trf("%s found", String(max($0.count, model.resultsTotal ?? 0))) } ?? words.tr("searching…"))
        case (_, .favorites): text = words.trf("favorites: %s", model.favorites.map { String($0.count) } ?? "…")
        }
        x = s.put(" " + UntrustedText.terminal(text), x: x, y: 0, style: Style(foreground: bar.foreground, background: bar.background, reverse: bar.reverse))
        if model.mode == .searching { s.put("▏", x: x, y: 0, style: Style(foreground: bar.foreground, background: bar.background, bold: true, reverse: bar.reverse)) }
    }

    func status(_ s: inout Screen) {
        let y = s.height - 1
        let base = coloured ? Style(foreground: RGB(0xD0, 0xD0, 0xD0), background: RGB(0x30, 0x30, 0x30)) : Style(reverse: true)
        s.fill(x: 0, y: y, width: s.width, height: 1, style: base)
        var x = 1
        let visible = model.visible
        let position: String
        switch model.mode {
        case .detail: position = model.detail.map { "#\($0.id)" } ?? ""
        default:
            position = model.count == 0 ? words.trf("%s of %s", "0", "0")
                : words.trf("%s of %s", "\(visible.lowerBound + 1)–\(max(visible.lowerBound + 1, visible.upperBound))", String(model.count))
        }
        x = s.put(position, x: x, y: y, style: Style(foreground: base.foreground, background: base.background, bold: true, reverse: base.reverse)) + 2
        // The service first: when it does not answer, why (stopped, not started yet, or a
        // diagnosis of its failure to start), in place of the API's state.
        let up = model.serviceDown == nil && model.online
        let online = model.serviceDown.map { "○ " + TerminalText.truncate(UntrustedText.terminal($0), to: max(8, s.width / 2)) }
            ?? "● " + (model.online ? words.tr("online") : words.tr("offline"))
        let onlineColour = coloured ? (up ? RGB(0x60, 0xD0, 0x60) : RGB(0xF0, 0x60, 0x60)) : nil
        x = s.put(online, x: x, y: y, style: Style(foreground: onlineColour, background: base.background, reverse: base.reverse), limit: s.width - 1) + 2
        let keys: String
        switch model.mode {
        case .searching: keys = words.tr("type to search · ⏎ keep · Esc all")
        case .detail: keys = words.tr("Esc back · f favorite · q quit")
        case .help: keys = words.tr("any key: back")
        case .grid: keys = words.tr("⏎ open  / search  f fav  F favs  ? keys  q quit")
        }
        let text = model.message.map { UntrustedText.terminal($0) } ?? keys
        let style = model.message != nil && coloured ? Style(foreground: RGB(0xFF, 0xB0, 0x40), background: base.background, bold: true)
            : base
        s.put(TerminalText.truncate(text, to: max(0, s.width - x - 1)), x: x, y: y, style: style)
    }

    // MARK: The grid

    func grid(_ s: inout Screen) {
        let layout = model.layout
        for (n, index) in model.visible.enumerated() {
            let x = layout.left + (n % layout.columns) * BrowseLayout.tileWidth
            let y = BrowseLayout.gridTop + (n / layout.columns) * BrowseLayout.tileHeight
            tile(&s, index: index, x: x, y: y)
        }
        if model.count == 0 {
            let text: String
            switch model.source {
            case .all: text = model.total == nil ? words.tr("loading the list…") : words.tr("the list is empty")
            case .search(let q):
                text = model.results == nil ? words.tr("searching…") : words.trf("nothing matches “%s”", UntrustedText.terminal(q))
            case .favorites:
                text = model.favorites == nil ? words.tr("loading favorites…") : words.tr("no favorites yet: f on any Pokémon keeps it")
            }
            s.put(text, x: 2, y: BrowseLayout.gridTop + 1, style: Style(dim: true))
        }
    }

    func tile(_ s: inout Screen, index: Int, x: Int, y: Int) {
        let w = BrowseLayout.tileWidth - 1
        let selected = index == model.selected && model.mode != .detail
        guard let e = model.entry(index) else {
            s.put("·", x: x + w / 2, y: y + 2, style: Style(dim: true))  // a page not here yet
            return
        }
        let picture = e.spritePath.isEmpty ? nil : art(e.spritePath)
        let tint = picture?.tint ?? Self.grey
        // The tint: the label rows always, the whole tile when selected, and the selected
        // tile's label in black on near-white, unmistakable whatever the colour.
        let labelBackground = coloured ? (selected ? RGB(0xF2, 0xF2, 0xF2) : tint.darkened(0.35)) : nil
        if coloured, selected, !(pictures == .painted && picture != nil) {
            s.fill(x: x, y: y, width: w, height: BrowseLayout.tileHeight, style: Style(background: tint.darkened(0.3)))
        }
        let label = Style(foreground: coloured ? (selected ? RGB(0, 0, 0) : Self.white) : nil, background: labelBackground, bold: selected,
                          reverse: !coloured && selected)
        s.fill(x: x, y: y + 5, width: w, height: 2, style: label)
        if pictures != .none, picture != nil {
            // Drawn by the terminal at ``placements()``.
        } else if let picture, !picture.lines.isEmpty {
            let artWidth = TerminalText.width(picture.lines[0])
            let top = y + (TileArt.maxRows - picture.lines.count) / 2
            let base = Style(background: coloured && selected ? tint.darkened(0.3) : nil)
            for (i, line) in picture.lines.enumerated() {
                s.putANSI(line, x: x + (w - artWidth) / 2, y: top + i, base: base, limit: x + w)
            }
        } else {
            // Not on disk yet: a placeholder, filled in when the sprite arrives.
            s.put("░░░░", x: x + (w - 4) / 2, y: y + 2, style: Style(foreground: coloured ? Self.grey : nil, dim: true))
        }
        let number = PokemonID.display(e.id)
        let end = s.put(" " + number, x: x, y: y + 5, style: label, limit: x + w)
        if e.favorite {
            let star = Style(foreground: coloured ? (selected ? RGB(0xC0, 0x90, 0x00) : RGB(0xF8, 0xD0, 0x30)) : nil, background: labelBackground,
                             bold: true, reverse: label.reverse)
            s.put(" ★", x: end, y: y + 5, style: star, limit: x + w)
        }
        let name = TerminalText.truncate(UntrustedText.terminal(displayName(e.id) ?? PokemonNames.display(e.name)), to: w - 1)
        s.put(" " + name, x: x, y: y + 6, style: label, limit: x + w)
    }

    // MARK: Detail and help

    func detail(_ s: inout Screen) {
        guard let d = model.detail else {
            s.put(words.trf("loading %s…", UntrustedText.terminal(model.detailLoading ?? "")), x: 2, y: 2, style: Style(dim: true))
            return
        }
        // A window too small for a card (it can shrink to 1×1 at any moment) shows none.
        guard s.width >= Self.minimumCardWidth, s.height >= 4 else { return }
        let card = DetailCard(detail: d, image: d.spritePath.isEmpty ? nil : image(d.spritePath), width: s.width - 2, mode: mode,
                              words: words).render()
        for (i, line) in card.prefix(s.height - 3).enumerated() { s.putANSI(line, x: 1, y: 2 + i, limit: s.width - 1) }
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
            ("Esc, Backspace", t.tr("back to the grid (Esc: back to the whole list)")), ("/", t.tr("search as you type; Enter keeps it")),
            ("f", t.tr("favorite on or off")), ("F", t.tr("favorites only, or all again")), ("?", t.tr("these keys")), ("q, Ctrl-C", t.tr("quit")),
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
