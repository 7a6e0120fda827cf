import PokedexModels

/// Text measured in terminal columns.
public enum TerminalText {
    /// Columns a string takes, as a terminal counts them (tmux, VTE, kitty): escape sequences
    /// zero; each grapheme cluster (Swift's `Character`) as ``width(of:)``.
    public static func width(_ s: String) -> Int { TextWidth.columns(plain(s)) }

    /// `s` without its escape sequences (colour, bold): what ``width(_:)`` counts.
    public static func plain(_ s: String) -> String {
        guard s.utf8.contains(0x1B) else { return s }
        var escape = false
        var text = String.UnicodeScalarView()
        for u in s.unicodeScalars {
            if escape { if (0x40...0x7E).contains(u.value) && u != "[" { escape = false }; continue }
            if u == "\u{1B}" { escape = true; continue }
            text.append(u)
        }
        return String(text)
    }

    /// One grapheme cluster's columns (``TextWidth/columns(of:)``).
    public static func width(of ch: Character) -> Int { TextWidth.columns(of: ch) }

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
