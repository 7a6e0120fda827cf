import PokedexModels

/// How one cell looks.
public struct Style: Equatable, Hashable, Sendable {
    public var foreground: RGB?
    public var background: RGB?
    public var bold = false
    public var dim = false
    public var underline = false
    public var reverse = false

    public init(foreground: RGB? = nil, background: RGB? = nil, bold: Bool = false, dim: Bool = false,
                underline: Bool = false, reverse: Bool = false) {
        self.foreground = foreground
        self.background = background
        self.bold = bold
        self.dim = dim
        self.underline = underline
        self.reverse = reverse
    }

    public static let plain = Style()
}

extension RGB: Hashable {
    public func hash(into h: inout Hasher) { h.combine(r); h.combine(g); h.combine(b) }
}

/// One character cell: a grapheme (two columns wide ones leave an empty `text` in the cell to
/// their right) and its style.
public struct Cell: Equatable, Sendable {
    public var text: String
    public var style: Style
    public init(_ text: String = " ", _ style: Style = .plain) {
        self.text = text
        self.style = style
    }
}

/// A frame: `width × height` cells, drawn into by the view and written out by ``ScreenWriter``.
/// Nothing outside it is ever touched: writes are clipped.
public struct Screen: Equatable, Sendable {
    public let width: Int
    public let height: Int
    public var cells: [Cell]

    public init(width: Int, height: Int) {
        self.width = max(0, width)
        self.height = max(0, height)
        cells = Array(repeating: Cell(), count: self.width * self.height)
    }

    public subscript(x: Int, y: Int) -> Cell {
        get { cells[y * width + x] }
        set { cells[y * width + x] = newValue }
    }

    /// Writes `text` from (x, y) in `style`, clipped at `limit` columns (the screen's edge by
    /// default); returns the column after it. Text is assumed safe (see ``UntrustedText``).
    @discardableResult
    public mutating func put(_ text: String, x: Int, y: Int, style: Style = .plain, limit: Int? = nil) -> Int {
        guard y >= 0, y < height else { return x }
        let end = min(width, limit ?? width)
        var col = x
        for ch in text {
            let w = TerminalText.width(of: ch)
            guard w > 0 else { continue }
            if col + w > end { break }
            if col >= 0 {
                self[col, y] = Cell(String(ch), style)
                if w == 2 { self[col + 1, y] = Cell("", style) }
            }
            col += w
        }
        return col
    }

    /// Paints the background of a rectangle (spaces in `style`), clipped.
    public mutating func fill(x: Int, y: Int, width w: Int, height h: Int, style: Style) {
        // Clipped to the screen; a box wholly outside it (or of no size) fills nothing.
        let rows = max(0, y)..<max(max(0, y), min(height, y + max(0, h)))
        let columns = max(0, x)..<max(max(0, x), min(width, x + max(0, w)))
        for row in rows {
            for col in columns { self[col, row] = Cell(" ", style) }
        }
    }

    /// Writes a line made by ``SpriteArt`` or ``DetailCard`` (text with SGR colour sequences),
    /// keeping its colours and attributes; `base` is what a reset goes back to. Returns the
    /// column after it.
    @discardableResult
    public mutating func putANSI(_ line: String, x: Int, y: Int, base: Style = .plain, limit: Int? = nil) -> Int {
        var style = base
        var col = x
        var it = line.unicodeScalars.makeIterator()
        var pending = String.UnicodeScalarView()
        func flush() {
            if !pending.isEmpty { col = put(String(pending), x: col, y: y, style: style, limit: limit) }
            pending.removeAll()
        }
        while let u = it.next() {
            guard u == "\u{1B}" else { pending.append(u); continue }
            flush()
            guard it.next() == "[" else { continue }
            var params = ""
            while let c = it.next(), c != "m" { params.unicodeScalars.append(c) }
            Self.apply(params, to: &style, base: base)
        }
        flush()
        return col
    }

    /// Applies SGR parameters (`0`, `1`, `2`, `4`, `7`, `38;2;r;g;b`, `38;5;n`, `48;…`, `39`, `49`).
    static func apply(_ params: String, to style: inout Style, base: Style) {
        let p = params.split(separator: ";").map { Int($0) ?? 0 }
        var i = 0
        if p.isEmpty { style = base }
        while i < p.count {
            switch p[i] {
            case 0: style = base
            case 1: style.bold = true
            case 2: style.dim = true
            case 4: style.underline = true
            case 7: style.reverse = true
            case 22: style.bold = false; style.dim = false
            case 39: style.foreground = base.foreground
            case 49: style.background = base.background
            case 38, 48:
                let isBackground = p[i] == 48
                var colour: RGB?
                if i + 4 < p.count, p[i + 1] == 2 {
                    colour = RGB(UInt8(clamping: p[i + 2]), UInt8(clamping: p[i + 3]), UInt8(clamping: p[i + 4]))
                    i += 4
                } else if i + 2 < p.count, p[i + 1] == 5 {
                    colour = RGB(palette: p[i + 2])
                    i += 2
                }
                if let colour {
                    if isBackground { style.background = colour } else { style.foreground = colour }
                }
            default: break
            }
            i += 1
        }
    }

    /// The frame as plain text, one string per row, trailing spaces kept (snapshots, tests).
    public var lines: [String] {
        (0..<height).map { y in (0..<width).map { self[$0, y].text }.joined() }
    }
}

extension RGB {
    /// An xterm-256 palette entry as RGB (the cube and the grey ramp; the 16 system colours as
    /// xterm's defaults).
    init(palette n: Int) {
        let system: [(UInt8, UInt8, UInt8)] = [
            (0, 0, 0), (205, 0, 0), (0, 205, 0), (205, 205, 0), (0, 0, 238), (205, 0, 205), (0, 205, 205), (229, 229, 229),
            (127, 127, 127), (255, 0, 0), (0, 255, 0), (255, 255, 0), (92, 92, 255), (255, 0, 255), (0, 255, 255), (255, 255, 255),
        ]
        switch n {
        case 0..<16: self.init(system[n].0, system[n].1, system[n].2)
        case 16..<232:
            let levels: [UInt8] = [0, 95, 135, 175, 215, 255]
            let v = n - 16
            self.init(levels[v / 36], levels[v / 6 % 6], levels[v % 6])
        case 232..<256:
            let g = UInt8(8 + 10 * (n - 232))
            self.init(g, g, g)
        default: self.init(0, 0, 0)
        }
    }
}
