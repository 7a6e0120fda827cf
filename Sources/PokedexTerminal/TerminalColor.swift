/// How much colour the terminal takes.
public enum ColorMode: Sendable, Equatable {
    /// No escape sequences at all (a pipe, `NO_COLOR`, `TERM=dumb`).
    case none
    /// The xterm 256-colour palette.
    case palette256
    /// 24-bit colour, where `COLORTERM` says `truecolor` or `24bit`.
    case truecolor

    /// The mode for a terminal with this environment (`TERM`, `COLORTERM`, `NO_COLOR`, which
    /// turns colour off whenever it is set).
    /// Whether stdout is a terminal at all is the caller's question.
    public static func detect(environment: [String: String]) -> ColorMode {
        if environment["NO_COLOR"] != nil { return .none }
        let term = environment["TERM"] ?? "dumb"
        if term == "dumb" || term.isEmpty { return .none }
        return depth(environment: environment)
    }

    /// The colours to use once colour is on: 24-bit where `COLORTERM` says truecolor or 24bit,
    /// else the 256-colour palette.
    public static func depth(environment: [String: String]) -> ColorMode {
        let colorterm = (environment["COLORTERM"] ?? "").lowercased()
        return colorterm == "truecolor" || colorterm == "24bit" ? .truecolor : .palette256
    }
}

/// An sRGB colour.
public struct RGB: Equatable, Sendable {
    public var r: UInt8, g: UInt8, b: UInt8
    public init(_ r: UInt8, _ g: UInt8, _ b: UInt8) {
        self.r = r
        self.g = g
        self.b = b
    }

    /// `#rrggbb` (or `rrggbb`); nil for anything else.
    public init?(hex: String) {
        let digits = hex.hasPrefix("#") ? hex.dropFirst() : Substring(hex)
        guard digits.count == 6, let v = UInt32(digits, radix: 16) else { return nil }
        self.init(UInt8(v >> 16), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF))
    }

    /// Relative brightness, 0…255 (Rec. 601 weights): picks black or white text on it.
    var luma: Int { (299 * Int(r) + 587 * Int(g) + 114 * Int(b)) / 1000 }

    /// The nearest xterm-256 colour: the 6×6×6 cube or the grey ramp, whichever is closer.
    var palette256: Int {
        let (ri, gi, bi) = (Self.cubeLevel(r), Self.cubeLevel(g), Self.cubeLevel(b))
        let cube = (Self.cubeLevels[ri], Self.cubeLevels[gi], Self.cubeLevels[bi])
        let average = (Int(r) + Int(g) + Int(b)) / 3
        let greyIndex = min(23, max(0, (average - 8 + 5) / 10))
        let grey = 8 + 10 * greyIndex
        func distance(_ c: (Int, Int, Int)) -> Int {
            let dr = c.0 - Int(r), dg = c.1 - Int(g), db = c.2 - Int(b)
            return dr * dr + dg * dg + db * db
        }
        return distance((grey, grey, grey)) < distance(cube) ? 232 + greyIndex : 16 + 36 * ri + 6 * gi + bi
    }

    /// The six levels of each channel in xterm's colour cube.
    static let cubeLevels = [0, 95, 135, 175, 215, 255]

    /// The index of the cube level nearest `v` (the lower one on a tie): the midpoints between
    /// the levels are 47.5, 115, 155, 195 and 235.
    static func cubeLevel(_ v: UInt8) -> Int {
        switch v {
        case 0..<48: 0
        case 48...115: 1
        default: 2 + (Int(v) - 116) / 40
        }
    }
}

/// SGR escape sequences for a ``ColorMode``.
public struct Painter: Sendable {
    public let mode: ColorMode
    public init(mode: ColorMode) { self.mode = mode }

    static let escape = "\u{1B}["
    /// Ends every attribute.
    public var reset: String { mode == .none ? "" : Self.escape + "0m" }

    /// A colour as this mode shows it: equal inks look the same on the terminal, so one SGR
    /// serves both. The 24-bit colour, or the palette index.
    public func ink(_ c: RGB) -> Int {
        switch mode {
        case .none: 0
        case .truecolor: Int(c.r) << 16 | Int(c.g) << 8 | Int(c.b)
        case .palette256: c.palette256
        }
    }

    /// The sequence that sets these colours (nil leaves that one at the terminal's default).
    public func set(foreground: RGB?, background: RGB?) -> String {
        set(foregroundInk: foreground.map(ink), backgroundInk: background.map(ink))
    }

    /// The sequence that sets these inks (from ``ink(_:)``; nil leaves that one at the
    /// terminal's default). Built by appending: it runs for each colour change of a picture.
    public func set(foregroundInk foreground: Int?, backgroundInk background: Int?) -> String {
        guard mode != .none, foreground != nil || background != nil else { return "" }
        var out = Self.escape
        if let f = foreground { appendCode(f, background: false, to: &out) }
        if let b = background {
            if foreground != nil { out += ";" }
            appendCode(b, background: true, to: &out)
        }
        out += "m"
        return out
    }

    /// The SGR parameters that set `c` ("38;5;196"), without the escape.
    func code(_ c: RGB, background: Bool) -> String {
        var out = ""
        if mode != .none { appendCode(ink(c), background: background, to: &out) }
        return out
    }

    private func appendCode(_ ink: Int, background: Bool, to out: inout String) {
        out += background ? "48;" : "38;"
        switch mode {
        case .none: return
        case .truecolor:
            out += "2;"
            out += String(ink >> 16 & 0xFF); out += ";"
            out += String(ink >> 8 & 0xFF); out += ";"
            out += String(ink & 0xFF)
        case .palette256:
            out += "5;"
            out += String(ink)
        }
    }

    /// `text` in an SGR attribute such as "1" (bold) or "2" (dim), then reset.
    public func attribute(_ text: String, _ sgr: String) -> String {
        mode == .none ? text : Self.escape + sgr + "m" + text + reset
    }

    public func bold(_ text: String) -> String { attribute(text, "1") }
    public func dim(_ text: String) -> String { attribute(text, "2") }

    /// `text` in a colour, then reset.
    public func colored(_ text: String, _ c: RGB, background: RGB? = nil) -> String {
        mode == .none ? text : set(foreground: c, background: background) + text + reset
    }
}
