/// Turns frames into what the terminal is sent: the whole first frame, then only the cells that
/// changed since the last one, each run of them after one cursor move. Every frame is wrapped in
/// synchronized-output marks (`CSI ? 2026 h` … `l`), so a terminal that knows them shows it at
/// once, without tearing; the others ignore them.
public struct ScreenWriter: Sendable {
    public let mode: ColorMode
    private var last: Screen?

    public init(mode: ColorMode) { self.mode = mode }

    /// Begins and ends a frame (terminals that do not know the mode ignore it).
    public static let beginFrame = "\u{1B}[?2026h"
    public static let endFrame = "\u{1B}[?2026l"

    /// Forget what is on the terminal: the next frame is written whole (after a resize, or
    /// when something else wrote to it).
    public mutating func invalidate() { last = nil }

    /// Whether the next frame is written whole (nothing written yet, or ``invalidate()``).
    public var isInvalid: Bool { last == nil }

    /// The bytes that take the terminal from the last frame to `screen`.
    public mutating func frame(_ screen: Screen) -> String {
        var out = Self.beginFrame
        // Whole: the screen is cleared first, pictures drawn into it too.
        let full = last.map { $0.width != screen.width || $0.height != screen.height } ?? true
        if full { out += "\u{1B}[0m\u{1B}[2J" }
        var current: Style? = nil
        var cursor: (x: Int, y: Int)? = nil
        for y in 0..<screen.height {
            var x = 0
            while x < screen.width {
                let cell = screen[x, y]
                if !full, let last, last[x, y] == cell { x += 1; continue }
                if cell.text.isEmpty { x += 1; continue }  // the right half of a wide character
                if cursor.map({ $0.x != x || $0.y != y }) ?? true { out += "\u{1B}[\(y + 1);\(x + 1)H" }
                if current != cell.style {
                    out += sgr(cell.style)
                    current = cell.style
                }
                out += cell.text
                let w = max(1, TerminalText.width(cell.text))
                x += w
                cursor = (x, y)
            }
        }
        out += "\u{1B}[0m" + Self.endFrame
        last = screen
        return out
    }

    /// The full SGR sequence for a style (a reset first, so nothing carries over).
    func sgr(_ s: Style) -> String {
        var codes = ["0"]
        if s.bold { codes.append("1") }
        if s.dim { codes.append("2") }
        if s.underline { codes.append("4") }
        if s.reverse { codes.append("7") }
        let painter = Painter(mode: mode)
        if let f = s.foreground, mode != .none { codes.append(painter.code(f, background: false)) }
        if let b = s.background, mode != .none { codes.append(painter.code(b, background: true)) }
        return "\u{1B}[" + codes.joined(separator: ";") + "m"
    }
}
