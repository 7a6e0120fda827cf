import PokedexModels

/// Text measured in terminal columns.
public enum TerminalText {
    /// Columns a string takes, as a terminal counts them (tmux, VTE, kitty): escape sequences
    /// zero; each grapheme cluster (Swift's `Character`) as ``width(of:)``.
    public static func width(_ s: String) -> Int {
        guard s.utf8.contains(0x1B) else { return s.reduce(0) { $0 + width(of: $1) } }
        var escape = false
        var text = String.UnicodeScalarView()
        for u in s.unicodeScalars {
            if escape { if (0x40...0x7E).contains(u.value) && u != "[" { escape = false }; continue }
            if u == "\u{1B}" { escape = true; continue }
            text.append(u)
        }
        return String(text).reduce(0) { $0 + width(of: $1) }
    }

    /// One grapheme cluster's columns: an emoji (presentation, a flag, a ZWJ sequence) two;
    /// otherwise its letters', East Asian Wide and Fullwidth two, with combining marks,
    /// variation selectors, joiners and format characters adding nothing: they belong to the
    /// letter before them. A cluster of nothing but those (a stray mark, a bidi control) is zero.
    public static func width(of ch: Character) -> Int {
        let scalars = ch.unicodeScalars
        guard let first = scalars.first else { return 0 }
        if scalars.count == 1 {
            if first.value < 0x7F { return first.value >= 0x20 ? 1 : 0 }
            if (0x2500...0x259F).contains(first.value) { return 1 }  // box drawing and blocks: sprites are made of them
        }
        if first.properties.isEmojiPresentation || (0x1F1E6...0x1F1FF).contains(first.value) { return 2 }
        var n = 0
        for u in scalars where !isZeroWidth(u) { n += isWide(u) ? 2 : 1 }
        return n
    }

    /// Takes no column of its own: combining and enclosing marks, format characters (ZWJ, bidi
    /// controls), variation selectors, controls, and Hangul's medial and final jamo.
    static func isZeroWidth(_ u: Unicode.Scalar) -> Bool {
        switch u.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format, .control: return true
        default: return (0x1160...0x11FF).contains(u.value) || u.properties.isVariationSelector
        }
    }

    /// East Asian Wide and Fullwidth, and emoji presented as emoji: two columns.
    static func isWide(_ u: Unicode.Scalar) -> Bool {
        let v = u.value
        if v < 0x1100 { return false }
        if u.properties.isEmojiPresentation { return true }
        return (0x1100...0x115F).contains(v) || (0x2329...0x232A).contains(v) || (0x2E80...0x303E).contains(v)
            || (0x3041...0x33FF).contains(v) || (0x3400...0x4DBF).contains(v) || (0x4E00...0x9FFF).contains(v)
            || (0xA000...0xA4CF).contains(v) || (0xA960...0xA97F).contains(v) || (0xAC00...0xD7A3).contains(v)
            || (0xF900...0xFAFF).contains(v) || (0xFE10...0xFE19).contains(v) || (0xFE30...0xFE6F).contains(v)
            || (0xFF00...0xFF60).contains(v) || (0xFFE0...0xFFE6).contains(v) || (0x16FE0...0x16FE4).contains(v)
            || (0x17000...0x18CFF).contains(v) || (0x1B000...0x1B2FF).contains(v) || (0x20000...0x3FFFD).contains(v)
    }

    /// Text from outside (the API, the cache, a server's error) made safe to print
    /// (``UntrustedText/terminal(_:)``).
    public static func safe(_ s: String) -> String { UntrustedText.terminal(s) }

    /// `s` followed by spaces up to `columns`.
    public static func pad(_ s: String, to columns: Int) -> String {
        s + String(repeating: " ", count: max(0, columns - width(s)))
    }

    /// Plain text cut to `columns`, with "…" when something was left out.
    public static func truncate(_ s: String, to columns: Int) -> String {
        guard width(s) > columns else { return s }
        guard columns > 1 else { return columns == 1 ? "…" : "" }
        var out = ""
        var used = 0
        for ch in s {
            let w = width(of: ch)
            if used + w > columns - 1 { break }
            out.append(ch)
            used += w
        }
        return out + "…"
    }

    /// Plain text broken into lines of at most `columns`, at spaces where it can be.
    public static func wrap(_ s: String, to columns: Int) -> [String] {
        let columns = max(columns, 10)
        var lines: [String] = []
        var line = ""
        // An ideographic space (the games' Japanese text) is a place to break, as a space is.
        for word in s.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\u{3000}" }).map(String.init) {
            var word = word
            while width(word) > columns {
                // A word longer than a line (Japanese and Chinese have no spaces): cut it at
                // the column, counting wide characters as two.
                if !line.isEmpty { lines.append(line); line = "" }
                var head = "", used = 0
                for ch in word {
                    let w = width(of: ch)
                    if used + w > columns, !head.isEmpty { break }
                    head.append(ch)
                    used += w
                }
                lines.append(head)
                word = String(word.dropFirst(head.count))
            }
            if line.isEmpty {
                line = word
            } else if width(line) + 1 + width(word) <= columns {
                line += " " + word
            } else {
                lines.append(line)
                line = word
            }
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }
}
