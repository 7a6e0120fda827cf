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

    /// `word`'s head that fits `columns`, ending where a line may break (beside a wide letter
    /// or mark), and the rest; nil where no break fits. `mustCut`: else at the column itself.
    static func breakLong(_ word: String, within columns: Int, mustCut: Bool) -> (String, String)? {
        let chars = Array(word)
        var used = 0, fit = 0, lastBreak = 0
        for (i, ch) in chars.enumerated() {
            let w = width(of: ch)
            if used + w > columns { break }
            used += w
            fit = i + 1
            if i + 1 < chars.count, w == 2 || width(of: chars[i + 1]) == 2 { lastBreak = i + 1 }
        }
        guard fit < chars.count else { return (word, "") }
        let at = lastBreak > 0 ? lastBreak : mustCut ? max(fit, 1) : 0
        guard at > 0 else { return nil }
        return (String(chars[..<at]), String(chars[at...]))
    }

    /// Every cell padded on the left to the widest, so that numbers line up on their last digit.
    public static func rightAligned(_ column: [String]) -> [String] {
        let w = column.map(width).max() ?? 0
        return column.map { String(repeating: " ", count: w - width($0)) + $0 }
    }

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

    /// Plain text broken into lines of at most `columns`, at spaces where it can be. A word
    /// longer than a line (Japanese and Chinese have no spaces) breaks beside a wide letter or
    /// mark (after "、", between kana), filling the line it starts on; a Latin word in it
    /// ("Run Away、Adaptability、Anticipation", a name the API has only in English) is cut
    /// only where it is longer than a line by itself.
    public static func wrap(_ s: String, to columns: Int) -> [String] {
        let columns = max(columns, 10)
        var lines: [String] = []
        var line = ""
        // An ideographic space (the games' Japanese text) is a place to break, as a space is.
        for word in s.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\u{3000}" }).map(String.init) {
            var word = word
            while width(word) > columns {
                // What of it fits on this line (after a space), else on a line of its own.
                let room = line.isEmpty ? columns : columns - width(line) - 1
                if room > 0, let (head, rest) = breakLong(word, within: room, mustCut: false) {
                    line = line.isEmpty ? head : line + " " + head
                    word = rest
                }
                if !line.isEmpty { lines.append(line); line = "" }
                guard width(word) > columns, let (head, rest) = breakLong(word, within: columns, mustCut: true) else { break }
                lines.append(head)
                word = rest
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
