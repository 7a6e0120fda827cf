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
    /// With ``pictures``: the cells the card's sprite takes as a picture, fitted to at most
    /// `columns × rows`; nil where it cannot be drawn (the card then draws half blocks).
    public let cardPicture: (_ path: String, _ columns: Int, _ rows: Int) -> (columns: Int, rows: Int)?
    /// The card laid out, once per view: measuring it (``settle(_:_:)``), drawing it and placing
    /// its picture would otherwise each lay it out, its sprite's half blocks included.
    let cardLayouts = CardLayouts()

    public init(model: BrowseModel, mode: ColorMode, art: @escaping (String) -> TileArt?,
                image: @escaping (String) -> RGBAImage?, pictures: Pictures = .none,
                words: Words = .english, displayName: @escaping (UInt32) -> String? = { _ in nil },
                cardPicture: @escaping (String, Int, Int) -> (columns: Int, rows: Int)? = { _, _, _ in nil }) {
        self.cardPicture = cardPicture
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

    /// The pictures shown now, for a driver that draws them: the grid's tiles, or the detail
    /// card's sprite (none under the keys' help, which they would cover).
    public func placements() -> [Placement] {
        guard pictures != .none, model.mode != .help else { return [] }
        if model.mode == .detail {
            return card(width: model.layout.width, height: model.layout.height)?.picture.map { [$0] } ?? []
        }
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
        if model.onCard { detail(&s) } else { grid(&s) }
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
        switch (model.onCard ? .detail : model.mode, model.source) {
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
        if model.mode == .searching { x = s.put("▏", x: x, y: 0, style: Style(foreground: bar.foreground, background: bar.background, bold: true, reverse: bar.reverse)) }
        // The tile selected, whole, at the right: a name its tile cuts is read here.
        if !model.onCard, let e = model.entry(model.selected) {
            let selected = PokedexNumber.label(e.id) + " " + UntrustedText.terminal(displayName(e.id) ?? PokemonNames.display(e.name))
            let width = TerminalText.width(selected)
            if x + 2 + width + 1 <= s.width {
                s.put(selected, x: s.width - width - 1, y: 0, style: Style(foreground: bar.foreground, background: bar.background, reverse: bar.reverse))
            }
        }
    }

    func status(_ s: inout Screen) {
        let y = s.height - 1
        let base = coloured ? Style(foreground: RGB(0xD0, 0xD0, 0xD0), background: RGB(0x30, 0x30, 0x30)) : Style(reverse: true)
        s.fill(x: 0, y: y, width: s.width, height: 1, style: base)
        var x = 1
        let visible = model.visible
        let position: String
        switch model.onCard ? .detail : model.mode {
        case .detail: position = model.detail.map { PokemonID.display($0.shownNumber) } ?? ""
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
        let room = max(0, s.width - x - 1)
        let keys: String
        // Each hint whole: as many as fit, never one cut in the middle.
        switch model.mode {
        case .searching: keys = Self.hints(words.tr("type to search · ⏎ keep · Esc all").split(separator: " · ").map(String.init), room: room)
        case .detail: keys = Self.hints(cardHints, room: room)
        case .help: keys = words.tr("any key: back")
        case .grid:
            keys = Self.hints(words.tr("⏎ open  / search  f fav  F favs  ? keys  q quit").split(separator: "  ").map(String.init), room: room, separator: "  ")
        }
        let text = model.message.map { UntrustedText.terminal($0) } ?? model.notice.map(notice) ?? keys
        let style = model.message != nil && coloured ? Style(foreground: RGB(0xFF, 0xB0, 0x40), background: base.background, bold: true)
            : base
        s.put(TerminalText.truncate(text, to: room), x: x, y: y, style: style)
    }

    /// The card's keys, most needed first: ``hints(_:room:)`` keeps what fits, whole.
    var cardHints: [String] {
        var out: [String] = []
        if (model.cardExtent?.maxScroll ?? 0) > 0 { out.append(words.tr("↑↓ scroll")) }
        if model.familySelection != nil { out += [words.tr("← → family"), words.tr("Enter open")] }
        out += [words.tr("Esc back"), words.tr("? keys"), words.tr("f favorite"),
                model.soundOn ? words.tr("s sound off") : words.tr("s sound on"), words.tr("q quit")]
        return out
    }

    /// Hints joined by `separator`, as many as fit `room` columns, each whole, in their order.
    static func hints(_ items: [String], room: Int, separator: String = " · ") -> String {
        var out = ""
        for item in items where !item.isEmpty {
            let next = out.isEmpty ? item : out + separator + item
            guard TerminalText.width(next) <= room else { break }
            out = next
        }
        return out
    }

    /// What a key just changed, said once in the status line.
    func notice(_ n: BrowseModel.Notice) -> String {
        switch n {
        case .sound(on: true): words.tr("cries on: a card plays its Pokémon's cry")
        case .sound(on: false): words.tr("cries off")
        }
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
                text = model.results == nil ? words.tr("searching…")
                    : model.searchFailed ? words.trf("“%s” could not be searched: the line below says why", UntrustedText.terminal(q))
                    : words.trf("nothing matches “%s”", UntrustedText.terminal(q))
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
        let species = PokedexNumber.shown(e.id)
        let (rows, starRow) = Self.label(number: PokedexNumber.label(e.id), name: UntrustedText.terminal(displayName(e.id) ?? PokemonNames.display(e.name)),
                                         species: species == e.id ? nil : displayName(species).map(UntrustedText.terminal), width: w - 1,
                                         favorite: e.favorite)
        let starStyle = Style(foreground: coloured ? (selected ? RGB(0xC0, 0x90, 0x00) : RGB(0xF8, 0xD0, 0x30)) : nil, background: labelBackground,
                              bold: true, reverse: label.reverse)
        for (i, text) in rows.lines.enumerated() {
            let end = s.put(" " + text, x: x, y: y + 5 + i, style: label, limit: x + w)
            guard i == starRow else { continue }
            if TerminalText.width(text) + 2 <= w - 1 {
                s.put(" ★", x: end, y: y + 5 + i, style: starStyle, limit: x + w)
            } else {
                s.put("★", x: x, y: y + 5 + i, style: starStyle, limit: x + w)  // in the label's margin
            }
        }
    }

    /// A tile's label rows, and the row a favorite's ★ is on: after the number, else after the
    /// first row with room for " ★", else in the first row's margin.
    static func label(number: String, name: String, species: String? = nil, width: Int, favorite: Bool) -> (TileLabel, starRow: Int?) {
        let rows = TileLabel(number: number, name: name, species: species, width: width)
        guard favorite else { return (rows, nil) }
        return (rows, rows.numbered ? 0 : rows.lines.firstIndex { TerminalText.width($0) + 2 <= width } ?? 0)
    }
}
