import PokedexModels

/// `pokectl show`: the sprite beside the name, genus, type badges, sizes and stat bars, and
/// below them the flavour text, the family and the matchups (`DetailCard+Family`), the
/// abilities, breeding and training and the moves (`DetailCard+Training`), fitted to the
/// terminal's width.
public struct DetailCard {
    /// The sprite takes at most this many columns (and half as many rows).
    public static let imageColumns = 32
    /// Below this width the text goes under the image instead of beside it.
    public static let sideBySideWidth = 64

    public let detail: PokemonDetail
    public let image: RGBAImage?
    public let width: Int
    public let mode: ColorMode
    /// A picture the terminal draws itself (kitty graphics, sixel) over this many cells: the card
    /// leaves them blank, and ``renderLeavingRoom()`` says on which line they start.
    public let graphic: (columns: Int, rows: Int)?
    /// The card's own words (labels) and decimal separator, in the reader's language.
    public let words: Words
    /// The family member picked (browse: an index into `evolution`), shown in reverse video.
    public let selectedMember: Int?
    /// The moves of its newest game, shown last where given (browse's Moves page).
    public let moves: MoveTable?

    public init(detail: PokemonDetail, image: RGBAImage?, width: Int, mode: ColorMode, graphic: (columns: Int, rows: Int)? = nil,
                words: Words = .english, selectedMember: Int? = nil, moves: MoveTable? = nil) {
        self.moves = moves
        self.words = words
        self.selectedMember = selectedMember
        self.detail = detail.terminalSafe
        self.image = image
        self.width = max(width, 20)
        self.mode = mode
        self.graphic = graphic
    }

    /// The card's lines, and where on them its parts are.
    public struct Layout: Equatable, Sendable {
        public var lines: [String]
        /// The line the room for ``DetailCard/graphic`` starts on (0 without one).
        public var pictureLine = 0
        /// The line of the family member picked (``DetailCard/selectedMember``).
        public var selectedLine: Int?
        /// The first line of each part: the top, the flavour text, the family, the matchups.
        public var sections: [Int] = [0]
    }

    /// The card with room for ``graphic`` left blank, and the line the room starts on.
    public func renderWithRoom() -> (lines: [String], pictureLine: Int) {
        let card = laidOut()
        return (card.lines, card.pictureLine)
    }

    /// The card: with room for ``graphic`` left blank where there is one, else with the sprite
    /// in half blocks.
    public func laidOut() -> Layout {
        guard let g = graphic else { return layoutMarkingSelection(art: artLines) }
        let blank = Array(repeating: String(repeating: " ", count: g.columns), count: g.rows)
        let text = width >= Self.sideBySideWidth ? facts(width: width - g.columns - 2).count : 0
        var card = layoutMarkingSelection(art: blank)
        card.pictureLine = max(0, (max(g.rows, text) - g.rows) / 2)
        return card
    }

    /// ``renderWithRoom()`` for a card printed line by line (the picture is drawn from the start
    /// of `pictureLine`). On the picture's lines the cursor steps over the room (`CSI n C`)
    /// instead of writing spaces, which would erase a sixel picture under them.
    public func renderLeavingRoom() -> (lines: [String], pictureLine: Int) {
        guard let g = graphic else { return (render(), 0) }
        var (lines, top) = renderWithRoom()
        for i in top..<min(lines.count, top + g.rows) {
            let n = lines[i].prefix(while: { $0 == " " }).count
            if n > 0 { lines[i] = "\u{1B}[\(n)C" + lines[i].dropFirst(n) }
        }
        return (lines, top)
    }

    var painter: Painter { Painter(mode: mode) }

    /// The whole card, one string per line, none longer than `width` columns.
    public func render() -> [String] { layoutMarkingSelection(art: artLines).lines }

    /// The sprite in half blocks, if there is one.
    var artLines: [String] {
        image.map { SpriteArt.lines($0, maxColumns: min(Self.imageColumns, width), maxRows: Self.imageColumns / 2, mode: mode) } ?? []
    }

    func layout(art: [String]) -> [String] { layoutMarkingSelection(art: art).lines }

    func layoutMarkingSelection(art: [String]) -> Layout {
        var out: [String] = []
        if art.isEmpty {
            out = facts(width: width)
        } else if width >= Self.sideBySideWidth {
            let artWidth = TerminalText.width(art[0])
            let text = facts(width: width - artWidth - 2)
            // Centre the shorter column against the taller one.
            let rows = max(art.count, text.count)
            let artTop = (rows - art.count) / 2, textTop = (rows - text.count) / 2
            for row in 0..<rows {
                let left = (artTop..<(artTop + art.count)).contains(row) ? art[row - artTop] : String(repeating: " ", count: artWidth)
                let right = (textTop..<(textTop + text.count)).contains(row) ? text[row - textTop] : ""
                out.append(right.isEmpty ? left : left + "  " + right)
            }
        } else {
            out = art + [""] + facts(width: width)
        }
        var sections = [0]
        if !detail.flavorText.isEmpty {
            out.append("")
            sections.append(out.count)
            out += TerminalText.wrap(detail.flavorText, to: width)
        }
        let lower = lowerParts(width: width)
        let selectedLine = lower.selected.map { out.count + $0 }
        sections += lower.sections.map { out.count + $0 }
        out += lower.lines
        return Layout(lines: out.map(trimTrailingSpaces), selectedLine: selectedLine, sections: sections)
    }

    func trimTrailingSpaces(_ line: String) -> String {
        var s = line
        while s.hasSuffix(" ") { s.removeLast() }
        return s
    }

    /// Name, genus, types, sizes, abilities and stats, in lines of at most `width` columns.
    /// Names as the service gives them in the reader's language where it does
    /// (`LocalizedDetail`), else made from the identifiers.
    func facts(width: Int) -> [String] {
        let p = painter
        var lines: [String] = []
        let number = PokemonID.display(detail.shownNumber)
        let name = detail.displayName.isEmpty ? PokemonNames.display(detail.name) : detail.displayName
        var title = p.bold(name) + "  " + p.dim(number)
        if detail.favorite { title += "  " + p.colored("★", RGB(0xF8, 0xD0, 0x30)) }
        lines.append(title)
        if !detail.genus.isEmpty { lines += TerminalText.wrap(detail.genus, to: width).map(p.dim) }
        lines.append("")
        lines.append(detail.types.indices.map { badge(detail.types[$0], named: Self.localized(detail.typeNames, $0)) }.joined(separator: " "))
        lines.append("")
        // In English the games' short labels ("Sp. Atk"), not the API's long names.
        let statLabels = detail.stats.indices.map { i in
            (detail.language == "en" ? Self.statLabels[detail.stats[i].name] : nil) ?? Self.localized(detail.statNames, i)
                ?? Self.statLabels[detail.stats[i].name].map(words.tr) ?? PokemonNames.display(detail.stats[i].name)
        }
        let labels = [words.tr("Height"), words.tr("Weight"), words.tr("Abilities")] + statLabels
        // Two columns of labels, each as wide as its widest word ("Spezialverteidigung"): the
        // sizes' and abilities', and the stats' (leaving a stat's number and the shortest bar
        // beside it). A label is cut only on a card too narrow for its word.
        let label = min(max(10, (labels.dropFirst(3).map(TerminalText.width).max() ?? 0) + 1), max(10, width - Self.statRoom))
        let infoLabel = min(max(10, (labels.prefix(3).map(TerminalText.width).max() ?? 0) + 1), max(10, width / 2))
        func labelled(_ text: String, column: Int? = nil) -> String {
            let column = column ?? label
            return p.dim(TerminalText.pad(TerminalText.truncate(text, to: column - 1), to: column))
        }
        func labelled(_ text: String, _ value: String) -> [String] { labelledLines(text, value, column: infoLabel, width: width) }
        lines += labelled(labels[0], height(detail.height))
        lines += labelled(labels[1], weight(detail.weight))
        if !detail.abilities.isEmpty {
            let abilities = detail.abilities.indices.map { Self.localized(detail.abilityNames, $0) ?? PokemonNames.display(detail.abilities[$0]) }
            // TRANSLATORS: between the names of a Pokémon's abilities ("Static, Lightning Rod"); "、" in Japanese.
            let separator = words.tr(", ")
            lines += labelled(labels[2], abilities.joined(separator: separator))
        }
        lines.append("")
        let barWidth = max(5, min(24, width - label - 4))
        for (stat, name) in zip(detail.stats, statLabels) {
            let value = String(stat.value)
            lines.append(labelled(name) + String(repeating: " ", count: max(0, 3 - value.count)) + value
                         + " " + bar(stat.value, width: barWidth))
        }
        return lines
    }

    /// A dimmed label in a `column` of its own and its value beside it, the value's words wrapped
    /// under it (not under the label) where they do not fit within `width`.
    func labelledLines(_ label: String, _ value: String, column: Int, width: Int) -> [String] {
        TerminalText.wrap(value, to: max(1, width - column)).enumerated().map { i, part in
            (i == 0 ? painter.dim(TerminalText.pad(TerminalText.truncate(label, to: column - 1), to: column))
                    : String(repeating: " ", count: column)) + part
        }
    }

    /// A stat line's columns beside its label: the number (3), a space and the shortest bar (5).
    static let statRoom = 9

    /// The `i`th of names the service gave, parallel to identifiers; nil where it gave none.
    static func localized(_ names: [String], _ i: Int) -> String? {
        i < names.count && !names[i].isEmpty ? names[i] : nil
    }

    /// A type as a coloured badge (` Electric ` on yellow), or `[Electric]` without colour.
    func badge(_ type: String, named: String? = nil) -> String {
        let name = named ?? PokemonNames.display(type)
        guard mode != .none, let colour = Self.typeColors[type] else { return "[\(name)]" }
        let text: RGB = colour.luma > 150 ? RGB(0x20, 0x20, 0x20) : RGB(0xFF, 0xFF, 0xFF)
        return painter.set(foreground: text, background: colour) + " \(name) " + painter.reset
    }

    /// A stat as a bar scaled to 255, in eighths of a cell, coloured by how high it is.
    func bar(_ value: UInt32, width: Int) -> String {
        let eighths = Int(min(value, 255)) * width * 8 / 255
        var s = String(repeating: "█", count: eighths / 8)
        let partial = ["", "▏", "▎", "▍", "▌", "▋", "▊", "▉"][eighths % 8]
        s += partial
        let colour: RGB = switch value {
        case ..<50: RGB(0xF3, 0x44, 0x44)
        case ..<80: RGB(0xFF, 0x7F, 0x0F)
        case ..<100: RGB(0xFF, 0xDD, 0x57)
        case ..<120: RGB(0xA0, 0xE5, 0x15)
        default: RGB(0x23, 0xCD, 0x5E)
        }
        return painter.colored(s, colour)
    }

    /// Decimetres as metres and feet-inches: `0.4 m (1′04″)`, `0,4 m` in German.
    func height(_ decimetres: UInt32) -> String { Self.height(decimetres, words: words) }

    /// Hectograms as kilograms and pounds: `6.0 kg (13.2 lb)`.
    func weight(_ hectograms: UInt32) -> String { Self.weight(hectograms, words: words) }

    static func height(_ decimetres: UInt32, words: Words = .english) -> String {
        let inches = Int((Double(decimetres) * 3.937008).rounded())
        let inch = inches % 12
        return "\(words.tenths(Int(decimetres))) m (\(inches / 12)′\(inch < 10 ? "0" : "")\(inch)″)"
    }

    static func weight(_ hectograms: UInt32, words: Words = .english) -> String {
        let tenthsOfPounds = Int((Double(hectograms) * 2.2046226).rounded())
        return "\(words.tenths(Int(hectograms))) kg (\(words.tenths(tenthsOfPounds)) lb)"
    }

    /// The stats' short labels in English, looked up as words to translate (they are the
    /// labels when the service gave no names: `Detail`, or an older service).
    static let statLabels = [
        "hp": Words.english.tr("HP"), "attack": Words.english.tr("Attack"), "defense": Words.english.tr("Defense"),
        "special-attack": Words.english.tr("Sp. Atk"), "special-defense": Words.english.tr("Sp. Def"), "speed": Words.english.tr("Speed"),
    ]

    /// The colours the games' type badges use.
    public static let typeColors: [String: RGB] = [
        "normal": RGB(0xA8, 0xA8, 0x78), "fire": RGB(0xF0, 0x80, 0x30), "water": RGB(0x68, 0x90, 0xF0),
        "electric": RGB(0xF8, 0xD0, 0x30), "grass": RGB(0x78, 0xC8, 0x50), "ice": RGB(0x98, 0xD8, 0xD8),
        "fighting": RGB(0xC0, 0x30, 0x28), "poison": RGB(0xA0, 0x40, 0xA0), "ground": RGB(0xE0, 0xC0, 0x68),
        "flying": RGB(0xA8, 0x90, 0xF0), "psychic": RGB(0xF8, 0x58, 0x88), "bug": RGB(0xA8, 0xB8, 0x20),
        "rock": RGB(0xB8, 0xA0, 0x38), "ghost": RGB(0x70, 0x58, 0x98), "dragon": RGB(0x70, 0x38, 0xF8),
        "dark": RGB(0x70, 0x58, 0x48), "steel": RGB(0xB8, 0xB8, 0xD0), "fairy": RGB(0xEE, 0x99, 0xAC),
    ]
}

extension PokemonDetail {
    /// Every text field that came from the API or the cache, safe to print
    /// (``UntrustedText/terminal(_:)``); numbers and flags as they are.
    public var terminalSafe: PokemonDetail {
        var d = self
        let safe = UntrustedText.terminal
        d.name = safe(name)
        d.types = types.map(safe)
        d.abilities = abilities.map(safe)
        d.stats = stats.map { .init(name: safe($0.name), value: $0.value) }
        d.spritePath = safe(spritePath)
        d.genus = safe(genus)
        d.flavorText = safe(flavorText)
        d.color = safe(color)
        d.animatedSpritePath = safe(animatedSpritePath)
        d.displayName = safe(displayName)
        d.language = safe(language)
        d.typeNames = typeNames.map(safe)
        d.abilityNames = abilityNames.map(safe)
        d.statNames = statNames.map(safe)
        d.abilityEffects = abilityEffects.map(safe)
        if var t = training {
            t.hiddenAbility = safe(t.hiddenAbility)
            t.eggGroups = t.eggGroups.map(safe)
            t.eggGroupNames = t.eggGroupNames.map(safe)
            t.growthRate = safe(t.growthRate)
            t.growthRateName = safe(t.growthRateName)
            t.evYield = t.evYield.map { .init(name: safe($0.name), value: $0.value) }
            t.heldItems = t.heldItems.map { .init(item: safe($0.item), rarity: $0.rarity) }
            t.heldItemNames = t.heldItemNames.map(safe)
            t.heldItemsVersion = safe(t.heldItemsVersion)
            t.heldItemsVersionName = safe(t.heldItemsVersionName)
            t.gameName = safe(t.gameName)
            d.training = t
        }
        d.evolution = evolution.map {
            EvolutionMember(id: $0.id, name: safe($0.name), displayName: safe($0.displayName), from: $0.from,
                            triggerKind: safe($0.triggerKind), trigger: safe($0.trigger))
        }
        d.matchups = matchups.map { TypeMatchup(type: safe($0.type), typeName: safe($0.typeName), multiplier: $0.multiplier) }
        return d
    }
}
