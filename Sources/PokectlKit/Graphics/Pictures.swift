import ArgumentParser
import Glibc
import PokedexModels
import PokedexPNG
import PokedexTerminal

extension ImageProtocol: ExpressibleByArgument {}

/// `--image-protocol`: auto (ask the terminal), or one forced.
enum ImageChoice: String, ExpressibleByArgument, CaseIterable {
    case auto, kitty, sixel, blocks

    /// kitty or sixel forced: drawn whatever the terminal and the colour settings say, into a pipe too.
    var forcesPixels: Bool { self == .kitty || self == .sixel }
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
        func blocks(_ why: String) -> Pictures { Pictures(protocolUsed: .blocks, cell: (10, 20), tmuxPassthrough: false, reason: why) }
        let w = Language.words
        func yesNo(_ b: Bool) -> String { b ? w.tr("yes") : w.tr("no") }
        switch choice {
        case .kitty, .sixel:
            let tmux = inTmux ? askTmux() : nil
            let support = isatty(1) == 1 && !inTmux ? TerminalQuery.support(environment: environment) : GraphicsSupport()
            return Pictures(protocolUsed: choice == .kitty ? .kitty : .sixel, cell: cellSize(support), tmuxPassthrough: tmux?.passthrough ?? false,
                            reason: "--image-protocol \(choice.rawValue)")
        case .blocks:
            return blocks("--image-protocol blocks")
        case .auto:
            guard isatty(1) == 1 else { return blocks(w.tr("stdout is not a terminal")) }
            if environment["NO_COLOR"] != nil { return blocks(w.tr("NO_COLOR is set")) }
            if (environment["TERM"] ?? "dumb") == "dumb" { return blocks(w.tr("TERM is dumb")) }
            if inTmux {
                // tmux answers the queries itself: it is asked what its client's terminal is.
                let tmux = askTmux()
                guard tmux.passthrough else { return blocks(w.tr("inside tmux without allow-passthrough (tmux set -g allow-passthrough on)")) }
                let support = tmux.support
                let terminal = tmux.terminal.isEmpty ? w.tr("no client terminal") : w.trf("its client's terminal is %s", TerminalText.safe(tmux.terminal))
                return Pictures(protocolUsed: support.best, cell: cellSize(GraphicsSupport()), tmuxPassthrough: true,
                                reason: w.trf("inside tmux: %s (kitty %s, sixel %s)", terminal, yesNo(support.kitty), yesNo(support.sixel))
                                    + (support.best == .blocks ? "" : ", " + w.tr("through tmux's passthrough")))
            }
            let support = TerminalQuery.support(environment: environment)
            let why = support.complete ? w.trf("the terminal answered: kitty %s, sixel %s", yesNo(support.kitty), yesNo(support.sixel))
                : w.trf("the terminal did not answer within %s ms", String(Int(TerminalQuery.timeout * 1000)))
            return Pictures(protocolUsed: support.best, cell: cellSize(support), tmuxPassthrough: false, reason: why)
        }
    }

    /// The terminal's answer, else its window size, clamped to 1…256 px either way
    /// (``PixelArt/clampedCell(width:height:)``): a terminal may answer anything.
    static func cellSize(_ s: GraphicsSupport) -> (width: Int, height: Int) {
        if let c = s.cell { return PixelArt.clampedCell(width: c.width, height: c.height) }
        var w = winsize()
        if ioctl(1, UInt(TIOCGWINSZ), &w) == 0, w.ws_xpixel > 0, w.ws_ypixel > 0, w.ws_col > 0, w.ws_row > 0 {
            return PixelArt.clampedCell(width: Int(w.ws_xpixel) / Int(w.ws_col), height: Int(w.ws_ypixel) / Int(w.ws_row))
        }
        return (10, 20)
    }

    /// tmux's `allow-passthrough` and its client's terminal, in one `popen`.
    static func askTmux() -> GraphicsSupport.TmuxInfo {
        guard let p = popen(GraphicsSupport.TmuxInfo.command, "r") else { return GraphicsSupport.TmuxInfo() }
        defer { pclose(p) }
        var output = ""
        var buffer = [CChar](repeating: 0, count: 512)
        while fgets(&buffer, Int32(buffer.count), p) != nil, output.utf8.count < 4096 { output += String(cString: buffer) }
        return GraphicsSupport.TmuxInfo(output: output)
    }

    /// `sprite` fitted to `maxColumns × maxRows` cells, as the escape sequences that draw it from
    /// the cursor (at the start of a line) and leave the cursor where it was, with the cells it
    /// takes; nil for blocks, or a sprite with nothing drawn. The room is made first (newlines,
    /// then back up): a picture drawn past the bottom would scroll the text under it.
    func drawing(_ sprite: RGBAImage, maxColumns: Int, maxRows: Int) -> (sequence: String, columns: Int, rows: Int)? {
        guard protocolUsed != .blocks, let fit = fitted(sprite, maxColumns: maxColumns, maxRows: maxRows) else { return nil }
        let picture = picture(fit.image)
        let room = fit.rows > 1 ? String(repeating: "\n", count: fit.rows - 1) + "\u{1B}[\(fit.rows - 1)A" : ""
        return (room + picture, fit.columns, fit.rows)
    }

    /// kitty or sixel (``drawing(_:maxColumns:maxRows:)`` has ruled blocks out).
    private func picture(_ image: RGBAImage) -> String {
        // kitty: a PNG of pixel art is a few KB where raw RGBA is hundreds; at its own pixel
        // size, as fitted (`c`/`r` would stretch it to whole cells).
        let s = protocolUsed == .kitty ? LibPNGEncoder.encode(image).map { KittyGraphics.draw(png: $0) } ?? KittyGraphics.draw(image)
            : "\u{1B}7" + Sixel.encode(image) + "\u{1B}8"
        return tmuxPassthrough ? GraphicsSupport.tmuxPassthrough(s) : s
    }

    /// A sprite cropped and fitted to `maxColumns × maxRows` cells (``PixelArt/fitted``).
    func fitted(_ sprite: RGBAImage, maxColumns: Int, maxRows: Int) -> (image: RGBAImage, columns: Int, rows: Int)? {
        PixelArt.cropped(sprite).map { PixelArt.fitted($0, maxColumns: maxColumns, maxRows: maxRows, cell: cell) }
    }
}
