import PokedexModels

/// `pokectl show`: the sprite beside the name, genus, type badges, sizes and stat bars, and
/// the flavour text wrapped below, fitted to the terminal's width.
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

    public init(detail: PokemonDetail, image: RGBAImage?, width: Int, mode: ColorMode, graphic: (columns: Int, rows: Int)? = nil) {
        self.detail = detail.terminalSafe
        self.image = image
        self.width = max(width, 20)
        self.mode = mode
        self.graphic = graphic
    }

    /// The card with room for ``graphic``, and the line the room starts on (the picture is drawn
    /// from the start of that line). On the picture's lines the cursor steps over the room
    /// (`CSI n C`) instead of writing spaces, which would erase a sixel picture under them.
    public func renderLeavingRoom() -> (lines: [String], pictureLine: Int) {
        guard let g = graphic else { return (render(), 0) }
        let blank = Array(repeating: String(repeating: " ", count: g.columns), count: g.rows)
        var lines = layout(art: blank)
        let text = width >= Self.sideBySideWidth ? facts(width: width - g.columns - 2).count : 0
        let top = max(0, (max(g.rows, text) - g.rows) / 2)
        for i in top..<min(lines.count, top + g.rows) {
            let n = lines[i].prefix(while: { $0 == " " }).count
            if n > 0 { lines[i] = "\u{1B}[\(n)C" + lines[i].dropFirst(n) }
        }
        return (lines, top)
    }

    var painter: Painter { Painter(mode: mode) }

    /// The whole card, one string per line, none longer than `width` columns.
    public func render() -> [String] {
        layout(art: image.map { SpriteArt.lines($0, maxColumns: min(Self.imageColumns, width), maxRows: Self.imageColumns / 2, mode: mode) } ?? [])
    }

    func layout(art: [String]) -> [String] {
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
        if !detail.flavorText.isEmpty {
            out.append("")
            out += TerminalText.wrap(detail.flavorText, to: width)
        }
        return out.map(trimTrailingSpaces)
    }

    func trimTrailingSpaces(_ line: String) -> String {
        var s = line
        while s.hasSuffix(" ") { s.removeLast() }
        return s
    }

    /// Name, genus, types, sizes, abilities and stats, in lines of at most `width` columns.
    func facts(width: Int) -> [String] {
        let p = painter
        var lines: [String] = []
        let number = PokemonID.display(detail.id)
        var title = p.bold(PokemonNames.display(detail.name)) + "  " + p.dim(number)
        if detail.favorite { title += "  " + p.colored("★", RGB(0xF8, 0xD0, 0x30)) }
        lines.append(title)
        if !detail.genus.isEmpty { lines.append(p.dim(TerminalText.truncate(detail.genus, to: width))) }
        lines.append("")
        lines.append(detail.types.map(badge).joined(separator: " "))
        lines.append("")
        let label = 10
        lines.append(p.dim(TerminalText.pad("Height", to: label)) + Self.height(detail.height))
        lines.append(p.dim(TerminalText.pad("Weight", to: label)) + Self.weight(detail.weight))
        if !detail.abilities.isEmpty {
            let abilities = detail.abilities.map(PokemonNames.display).joined(separator: ", ")
            lines.append(p.dim(TerminalText.pad("Abilities", to: label)) + TerminalText.truncate(abilities, to: width - label))
        }
        lines.append("")
        let barWidth = max(5, min(24, width - label - 5))
        for stat in detail.stats {
            let name = Self.statLabels[stat.name] ?? PokemonNames.display(stat.name)
            let value = String(stat.value)
            lines.append(p.dim(TerminalText.pad(name, to: label)) + String(repeating: " ", count: max(0, 3 - value.count)) + value
                         + " " + bar(stat.value, width: barWidth))
        }
        return lines
    }

    /// A type as a coloured badge (` Electric ` on yellow), or `[Electric]` without colour.
    func badge(_ type: String) -> String {
        let name = PokemonNames.display(type)
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

    /// Decimetres as metres and feet-inches: `0.4 m (1′04″)`.
    static func height(_ decimetres: UInt32) -> String {
        let inches = Int((Double(decimetres) * 3.937008).rounded())
        let inch = inches % 12
        return "\(tenths(Int(decimetres))) m (\(inches / 12)′\(inch < 10 ? "0" : "")\(inch)″)"
    }

    /// Hectograms as kilograms and pounds: `6.0 kg (13.2 lb)`.
    static func weight(_ hectograms: UInt32) -> String {
        let tenthsOfPounds = Int((Double(hectograms) * 2.2046226).rounded())
        return "\(tenths(Int(hectograms))) kg (\(tenths(tenthsOfPounds)) lb)"
    }

    /// `n` tenths as `x.y`.
    static func tenths(_ n: Int) -> String { "\(n / 10).\(n % 10)" }

    static let statLabels = [
        "hp": "HP", "attack": "Attack", "defense": "Defense", "special-attack": "Sp. Atk",
        "special-defense": "Sp. Def", "speed": "Speed",
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
        return d
    }
}
