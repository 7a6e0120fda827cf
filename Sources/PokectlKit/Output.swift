import ArgumentParser
import Glibc
import PokedexBusClient
import PokedexModels
import PokedexTerminal

/// How pokectl prints: colour only on a terminal and never with NO_COLOR (the ``Context``
/// decides, ``mode``); JSON by hand so that the shape is exactly the documented one.
struct Output {
    /// `--color`: auto (a terminal without NO_COLOR), always or never.
    enum When: String, ExpressibleByArgument, CaseIterable { case auto, always, never }

    /// Text attributes follow the same decision as pictures (``Context/colorMode``).
    let mode: ColorMode
    let words: Words
    let out: TextStream

    func paint(_ text: String, _ code: String) -> String { Painter(mode: mode).attribute(text, code) }
    func bold(_ t: String) -> String { paint(t, "1") }
    func dim(_ t: String) -> String { paint(t, "2") }
    func yellow(_ t: String) -> String { paint(t, "33") }

    func line(_ s: String) { out.line(s) }
    func json(_ j: JSON) { out.line(j.text) }

    /// Text from the service (names, paths, reasons; the API's or the cache's in the end), made
    /// safe for the terminal before any styling of pokectl's own is added around it.
    static func safe(_ s: String) -> String { UntrustedText.terminal(s) }

    /// Prints rows as columns padded to the widest cell (display width, not bytes).
    func table(_ header: [String], _ rows: [[String]]) {
        let all = [header] + rows
        let widths = (0..<header.count).map { col in all.map { Self.width($0[col]) }.max() ?? 0 }
        for (i, row) in all.enumerated() {
            let cells = row.enumerated().map { col, cell in
                col == row.count - 1 ? cell : cell + String(repeating: " ", count: widths[col] - Self.width(cell))
            }
            let text = cells.joined(separator: "  ")
            line(i == 0 ? bold(text) : text)
        }
    }

    /// Terminal columns a string takes (escape sequences count zero; wide CJK count two).
    static func width(_ s: String) -> Int { TerminalText.width(s) }

    /// Prints `[key, value]` rows with the keys dimmed and padded to the widest key.
    func fields(_ rows: [[String]]) {
        let keyWidth = (rows.map { Self.width($0[0]) }.max() ?? 0) + 2
        for r in rows { line(dim(r[0]) + String(repeating: " ", count: keyWidth - Self.width(r[0])) + r[1]) }
    }

    func star(_ favorite: Bool) -> String { favorite ? yellow("★") : " " }

    /// Bytes as people read them: `812 B`, `14 KiB`, `3.2 MiB`, `1.1 GiB`.
    static func size(_ bytes: Int) -> String {
        if bytes < 1 << 10 { return "\(bytes) B" }
        if bytes < 1 << 20 { return "\(bytes >> 10) KiB" }
        let (unit, shift) = bytes < 1 << 30 ? ("MiB", 20) : ("GiB", 30)
        let tenths = Int(Double(bytes) * 10 / Double(1 << shift))
        return tenths % 10 == 0 ? "\(tenths / 10) \(unit)" : "\(tenths / 10).\(tenths % 10) \(unit)"
    }

    /// A duration in its largest whole unit: `40 s`, `12 min`, `3 h`, `2 d`.
    static func age(_ seconds: Int) -> String {
        let s = max(0, seconds)
        if s < 60 { return "\(s) s" }
        if s < 3600 { return "\(s / 60) min" }
        if s < 86400 { return "\(s / 3600) h" }
        return "\(s / 86400) d"
    }

    /// Pads every cell to the widest on the left, so that numbers line up on their last digit.
    static func rightAligned(_ column: [String]) -> [String] { TerminalText.rightAligned(column) }

    /// `names`: as the games write them (``Context/names(_:_:)``); an entry without one shows its identifier.
    func entryRows(_ entries: [ListEntry], names: [UInt32: String] = [:]) -> [[String]] {
        entries.map { [String(PokedexNumber.shown($0.id)), star($0.favorite), Self.safe(names[$0.id] ?? $0.name), $0.spritePath.isEmpty ? dim("-") : Self.safe($0.spritePath)] }
    }
    var entryHeader: [String] { ["#", "★", words.tr("NAME"), words.tr("SPRITE")] }

    /// `page 1 of 68 · 1351 Pokémon`.
    func pageLine(page: Int, perPage: Int, total: UInt32) -> String {
        words.trf("page %s of %s · %s Pokémon", String(page), String(Paging.pages(total: total, perPage: perPage)), String(total))
    }

    /// A list row with its sprite as a 10×5 thumbnail, the number and name beside its middle,
    /// in one column whatever the sprite's width; a name wider than what is left of `width`
    /// goes on under itself, in that column, broken between words.
    func thumbnailRow(_ e: ListEntry, name: String?, pictures: Pictures, width: Int) {
        let columns = 10, rows = 5
        let number = PokedexNumber.label(e.id)
        let plain = Self.safe(name ?? e.name) + (e.favorite ? " ★" : "")
        let parts = TerminalText.wrap(plain, to: max(10, width - columns - 2 - TerminalText.width(number) - 1))
        let label = parts.enumerated().map { i, part -> String in
            let styled = part.hasSuffix(" ★") && i == parts.count - 1 ? bold(String(part.dropLast(2))) + " " + yellow("★") : bold(part)
            return (i == 0 ? dim(number) : String(repeating: " ", count: TerminalText.width(number))) + " " + styled
        }
        if pictures.protocolUsed != .blocks, let sprite = Terminal.image(at: e.spritePath),
           let picture = pictures.drawing(sprite, maxColumns: columns, maxRows: rows) {
            out.write(picture.sequence)
            // The label steps over the picture (CSI n C): spaces written on a sixel erase it.
            let first = picture.rows / 2
            for i in 0..<max(picture.rows, first + label.count) {
                let part = i >= first && i - first < label.count ? label[i - first] : nil
                line(part.map { "\u{1B}[\(columns + 2)C" + $0 } ?? "")
            }
            return
        }
        var art = Terminal.image(at: e.spritePath).map {
            SpriteArt.lines($0, maxColumns: columns, maxRows: rows, mode: mode)
        } ?? []
        if art.isEmpty { art = [""] }
        // Every row's name in one column, whatever its sprite's width: as on a picture's row.
        let first = art.count / 2
        for i in 0..<max(art.count, first + label.count) {
            let l = i < art.count ? art[i] : ""
            line(i >= first && i - first < label.count ? TerminalText.pad(l, to: columns) + "  " + label[i - first] : l)
        }
    }
}

extension JSON {
    /// Any bus value as JSON: dicts become objects (sorted keys), structs arrays.
    init(_ v: BusValue) {
        switch v {
        case .bool(let b): self = .bool(b)
        case .int(let i): self = .int(i)
        case .uint(let u): self = .int(u)
        case .double(let d): self = d.isFinite ? .number(String(d)) : .null  // JSON has no inf or nan
        case .string(let s): self = .string(s)
        case .array(let a), .structure(let a): self = .array(a.map(JSON.init))
        case .variant(let inner): self = JSON(inner)
        case .dict(let pairs):
            self = .object(pairs.map { ($0.key.string ?? "\($0.key)", JSON($0.value)) }.sorted { $0.0 < $1.0 })
        }
    }

    /// `displayName`: as the games write it, added where known; `name` stays the identifier.
    init(_ e: ListEntry, displayName: String? = nil) {
        self = .object([("display_name", displayName.map(JSON.string)), ("favorite", .bool(e.favorite)), ("id", .int(e.id)),
                        ("name", .string(e.name)), ("number", .int(PokedexNumber.shown(e.id))), ("sprite_path", .string(e.spritePath))].compactMap { k, v in v.map { (k, $0) } })
    }
}
