import PokedexModels

/// Text measured in terminal columns.
public enum TerminalText {
    /// Columns a string takes: escape sequences count zero, wide CJK and fullwidth forms two.
    public static func width(_ s: String) -> Int {
        var n = 0
        var escape = false
        for u in s.unicodeScalars {
            if escape { if (0x40...0x7E).contains(u.value) && u != "[" { escape = false }; continue }
            if u == "\u{1B}" { escape = true; continue }
            n += isWide(u) ? 2 : 1
        }
        return n
    }

    static func isWide(_ u: Unicode.Scalar) -> Bool {
        (0x1100...0x115F).contains(u.value) || (0x2E80...0xA4CF).contains(u.value)
            || (0xAC00...0xD7A3).contains(u.value) || (0xFF00...0xFF60).contains(u.value)
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
            let w = width(String(ch))
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
        for word in s.split(whereSeparator: { $0 == " " || $0 == "\n" }).map(String.init) {
            var word = word
            while width(word) > columns {
                // A word longer than a line: cut it.
                if !line.isEmpty { lines.append(line); line = "" }
                let head = String(word.prefix(columns))
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
