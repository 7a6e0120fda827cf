/// Which way a terminal can show pictures, best first.
public enum ImageProtocol: String, Sendable, CaseIterable {
    case kitty, sixel, blocks
}

/// What a terminal said to the queries (``queries``): the kitty graphics answer, Primary Device
/// Attributes (4 among them: sixel), and the cell size in pixels (`CSI 6 ; h ; w t`).
public struct GraphicsSupport: Equatable, Sendable {
    public var kitty = false
    public var sixel = false
    /// A cell's size in pixels, when the terminal said.
    public var cell: (width: Int, height: Int)?
    /// Whether the Device Attributes answer came: every terminal answers it, so after it
    /// nothing more is coming.
    public var complete = false

    public init() {}

    public static func == (a: Self, b: Self) -> Bool {
        a.kitty == b.kitty && a.sixel == b.sixel && a.complete == b.complete && a.cell?.width == b.cell?.width && a.cell?.height == b.cell?.height
    }

    /// The kitty query, the cell size, then Primary Device Attributes last: its answer ends the wait.
    public static let queries = KittyGraphics.query + "\u{1B}[16t" + "\u{1B}[c"

    /// The best protocol the answers allow.
    public var best: ImageProtocol { kitty ? .kitty : sixel ? .sixel : .blocks }

    /// Reads the answers in `reply` (whatever arrived so far).
    public static func parse(_ reply: [UInt8]) -> GraphicsSupport {
        var s = GraphicsSupport()
        s.kitty = KittyGraphics.answersQuery(reply)
        // Read as bytes, not Characters: a combining mark the terminal (or noise) sends after
        // the final byte would merge with it into one Character and hide it.
        // ESC [ ? 62 ; 4 ; 22 c
        if let params = Self.parameters(in: reply, after: Array("\u{1B}[?".utf8), final: UInt8(ascii: "c")) {
            s.complete = true
            s.sixel = params.contains("4")
        }
        // ESC [ 6 ; height ; width t
        if let params = Self.parameters(in: reply, after: Array("\u{1B}[6;".utf8), final: UInt8(ascii: "t")) {
            let f = params.compactMap { Int($0) }
            if f.count == 2, f[0] > 0, f[1] > 0 { s.cell = (f[1], f[0]) }
        }
        return s
    }

    /// The `;`-separated parameters between the first `introducer` in `reply` and the `final`
    /// byte after it; nil when the answer is not complete.
    static func parameters(in reply: [UInt8], after introducer: [UInt8], final: UInt8) -> [Substring]? {
        guard reply.count >= introducer.count,
              let start = (0...(reply.count - introducer.count)).first(where: { reply[$0..<($0 + introducer.count)].elementsEqual(introducer) })
        else { return nil }
        let rest = reply[(start + introducer.count)...]
        guard let end = rest.firstIndex(of: final) else { return nil }
        return String(decoding: rest[..<end], as: UTF8.self).split(separator: ";", omittingEmptySubsequences: false)
    }

    /// What tmux says of itself and of the terminal its client runs in, asked with
    /// ``TmuxInfo/command`` (tmux answers Device Attributes itself, about tmux, so the
    /// terminal behind it is not asked).
    public struct TmuxInfo: Equatable, Sendable {
        /// Prints `allow-passthrough`, then the client's `TERM` and the features tmux knows it has.
        public static let command = "tmux show -gv allow-passthrough 2>/dev/null; tmux display -p '#{client_termname}|#{client_termfeatures}' 2>/dev/null"
        public var passthrough = false
        public var terminal = ""
        public var features: [String] = []

        public init() {}

        /// Reads ``command``'s output.
        public init(output: String) {
            let lines = output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            passthrough = ["on", "all"].contains(lines.first ?? "")
            let client = (lines.count > 1 ? lines[1] : "").split(separator: "|", maxSplits: 1, omittingEmptySubsequences: false)
            terminal = client.first.map(String.init) ?? ""
            features = client.count > 1 ? client[1].split(separator: ",").map(String.init) : []
        }

        /// What the client's terminal can show: kitty graphics by its name (kitty, Ghostty,
        /// WezTerm), sixel where tmux lists the feature.
        public var support: GraphicsSupport {
            var s = GraphicsSupport()
            s.kitty = ["kitty", "ghostty", "wezterm"].contains { terminal.lowercased().contains($0) }
            s.sixel = features.contains("sixel")
            s.complete = !terminal.isEmpty
            return s
        }
    }

    /// `sequence` wrapped for tmux's passthrough (`allow-passthrough on`): every ESC doubled
    /// inside `ESC P tmux; … ESC \`.
    public static func tmuxPassthrough(_ sequence: String) -> String {
        "\u{1B}Ptmux;" + sequence.replacingEvery("\u{1B}", with: "\u{1B}\u{1B}") + "\u{1B}\\"
    }
}

extension String {
    func replacingEvery(_ target: Character, with replacement: String) -> String {
        var out = ""
        for ch in self { if ch == target { out += replacement } else { out.append(ch) } }
        return out
    }
}
