import ArgumentParser
import Glibc
import PokedexModels
import PokedexPNG
import PokedexTerminal

extension ImageProtocol: ExpressibleByArgument {}

/// `--image-protocol`: auto (ask the terminal), or one forced.
enum ImageChoice: String, ExpressibleByArgument, CaseIterable {
    case auto, kitty, sixel, blocks
}

/// How pokectl draws a sprite: with the best protocol the terminal offers, and why.
struct Pictures {
    let protocolUsed: ImageProtocol
    /// A cell's size in pixels (the terminal's answer, its window size, or 10×20).
    let cell: (width: Int, height: Int)
    /// Inside tmux with passthrough on: sequences are wrapped for it.
    let tmuxPassthrough: Bool
    /// Why this protocol, for `--verbose`.
    let reason: String

    static func choose(_ choice: ImageChoice, environment: [String: String]) -> Pictures {
        let inTmux = environment["TMUX"] != nil
        let passthrough = inTmux && tmuxAllowsPassthrough()
        switch choice {
        case .kitty, .sixel:
            let support = isatty(1) == 1 ? TerminalQuery.support(environment: environment) : GraphicsSupport()
            return Pictures(protocolUsed: choice == .kitty ? .kitty : .sixel, cell: cellSize(support), tmuxPassthrough: passthrough,
                            reason: "--image-protocol \(choice.rawValue)")
        case .blocks:
            return Pictures(protocolUsed: .blocks, cell: (10, 20), tmuxPassthrough: false, reason: "--image-protocol blocks")
        case .auto:
            guard isatty(1) == 1 else { return Pictures(protocolUsed: .blocks, cell: (10, 20), tmuxPassthrough: false, reason: "stdout is not a terminal") }
            if environment["NO_COLOR"] != nil { return Pictures(protocolUsed: .blocks, cell: (10, 20), tmuxPassthrough: false, reason: "NO_COLOR is set") }
            if (environment["TERM"] ?? "dumb") == "dumb" { return Pictures(protocolUsed: .blocks, cell: (10, 20), tmuxPassthrough: false, reason: "TERM is dumb") }
            if inTmux && !passthrough {
                return Pictures(protocolUsed: .blocks, cell: (10, 20), tmuxPassthrough: false,
                                reason: "inside tmux without allow-passthrough (tmux set -g allow-passthrough on)")
            }
            let support = TerminalQuery.support(environment: environment)
            let why = support.complete ? "the terminal answered: kitty \(support.kitty ? "yes" : "no"), sixel \(support.sixel ? "yes" : "no")"
                : "the terminal did not answer within \(Int(TerminalQuery.timeout * 1000)) ms"
            return Pictures(protocolUsed: support.best, cell: cellSize(support), tmuxPassthrough: passthrough,
                            reason: why + (inTmux ? ", through tmux's passthrough" : ""))
        }
    }

    static func cellSize(_ s: GraphicsSupport) -> (width: Int, height: Int) {
        if let c = s.cell { return c }
        var w = winsize()
        if ioctl(1, UInt(TIOCGWINSZ), &w) == 0, w.ws_xpixel > 0, w.ws_ypixel > 0, w.ws_col > 0, w.ws_row > 0 {
            return (Int(w.ws_xpixel) / Int(w.ws_col), Int(w.ws_ypixel) / Int(w.ws_row))
        }
        return (10, 20)
    }

    static func tmuxAllowsPassthrough() -> Bool {
        guard let p = popen("tmux show -gv allow-passthrough 2>/dev/null", "r") else { return false }
        defer { pclose(p) }
        var buffer = [CChar](repeating: 0, count: 32)
        guard fgets(&buffer, 32, p) != nil else { return false }
        let v = String(cString: buffer).trimmingCharactersInSet()
        return v == "on" || v == "all"
    }

    /// The escape sequences that draw `image` over `columns × rows` cells from the cursor (at the
    /// start of a line), the cursor left where it was; nil for blocks. The room is made first
    /// (newlines, then back up): a picture drawn past the bottom would scroll the text under it.
    func sequence(_ image: RGBAImage, columns: Int, rows: Int) -> String? {
        guard let picture = picture(image, columns: columns, rows: rows) else { return nil }
        return rows > 1 ? String(repeating: "\n", count: rows - 1) + "\u{1B}[\(rows - 1)A" + picture : picture
    }

    private func picture(_ image: RGBAImage, columns: Int, rows: Int) -> String? {
        let s: String
        switch protocolUsed {
        case .kitty:
            // A PNG of pixel art is a few KB where raw RGBA is hundreds.
            s = LibPNGEncoder.encode(image).map { KittyGraphics.draw(png: $0, columns: columns, rows: rows) }
                ?? KittyGraphics.draw(image, columns: columns, rows: rows)
        case .sixel: s = "\u{1B}7" + Sixel.encode(image) + "\u{1B}8"
        case .blocks: return nil
        }
        return tmuxPassthrough ? GraphicsSupport.tmuxPassthrough(s) : s
    }

    /// A sprite cropped and enlarged by a whole factor to fit `maxColumns × maxRows` cells.
    func fitted(_ sprite: RGBAImage, maxColumns: Int, maxRows: Int) -> (image: RGBAImage, columns: Int, rows: Int)? {
        guard let cropped = PixelArt.cropped(sprite) else { return nil }
        let f = PixelArt.fit(cropped, maxColumns: maxColumns, maxRows: maxRows, cell: cell)
        let image = PixelArt.enlarged(cropped, by: f.factor)
        // The cells the enlarged image takes (the terminal draws it at its own size for sixel).
        let columns = min(maxColumns, max(1, (image.width + cell.width - 1) / cell.width))
        let rows = min(maxRows, max(1, (image.height + cell.height - 1) / cell.height))
        return (image, columns, rows)
    }
}

extension String {
    func trimmingCharactersInSet() -> String {
        var s = Substring(self)
        while let c = s.first, c.isWhitespace { s.removeFirst() }
        while let c = s.last, c.isWhitespace { s.removeLast() }
        return String(s)
    }
}
