/// Text from outside: PokeAPI, a mirror a user points at, a proxy on the way, or anyone who can
/// write the cache. Any of them can put escape sequences, markup or line breaks into names, genus,
/// flavour text, URLs and error messages. This is the one place that makes such text safe for
/// where it goes:
/// - a terminal (``terminal(_:)``): nothing that a terminal acts on;
/// - markup (``markup(_:)``): the notification spec's subset of HTML;
/// - a log line (``logLine(_:)``): one line, with every control made visible.
///
/// JSON output needs none of this: its encoder escapes controls already, and scripts get the
/// exact text.
public enum UntrustedText {
    /// Printable everywhere: C0 controls (a tab or line break becomes a space), DEL, C1 controls
    /// (U+009B is a CSI on many terminals) and bidirectional overrides, embeddings and isolates are
    /// dropped. Every printable character is kept, whatever its script.
    public static func terminal(_ s: String) -> String {
        guard s.unicodeScalars.contains(where: isControl) else { return s }
        var out = String.UnicodeScalarView()
        for u in s.unicodeScalars {
            if isWhitespaceControl(u) { out.append(" ") } else if !isControl(u) { out.append(u) }
        }
        return String(out)
    }

    /// For a markup language whose reader interprets `<b>` and `&amp;` (desktop notification
    /// bodies, Pango): the controls go as for a terminal, then `&`, `<`, `>`, `"` and `'` are
    /// written as entities.
    public static func markup(_ s: String) -> String {
        guard s.unicodeScalars.contains(where: { isControl($0) || isMarkup($0) }) else { return s }
        var out = ""
        out.reserveCapacity(s.utf8.count)
        for u in terminal(s).unicodeScalars {
            switch u {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            default: out.unicodeScalars.append(u)
            }
        }
        return out
    }

    /// For a Polybar label: the controls go as for a terminal, and `%{`, which opens a tag
    /// however it is written (Polybar has no escape for it: `%%{` is a `%` and a tag),
    /// becomes `% {`.
    /// Scalar by scalar, as Polybar reads bytes: a `{` that a combining mark joins into one
    /// Character with what follows still opens a tag.
    public static func polybar(_ s: String) -> String {
        var out = String.UnicodeScalarView()
        var afterPercent = false
        for u in terminal(s).unicodeScalars {
            if afterPercent && u == "{" { out.append(" ") }
            out.append(u)
            afterPercent = u == "%"
        }
        return String(out)
    }

    /// For conky's text, which it parses: the controls go as for a terminal; `$` becomes `$$`
    /// (a `${exec …}` in a name would run), after a space breaks `$template`, which conky
    /// expands before anything else; `#` becomes `\#` (conky reads the rest of the line as a
    /// comment) and a backslash becomes a slash, so no escape can be forged.
    public static func conky(_ s: String) -> String {
        var out = ""
        let scalars = Array(terminal(s).unicodeScalars)
        for (i, u) in scalars.enumerated() {
            switch u {
            case "$":
                out += "$$"
                let rest = String(String.UnicodeScalarView(scalars[(i + 1)...].prefix(9))).lowercased()
                if rest.hasPrefix("template") || rest.hasPrefix("{template") { out += " " }
            case "#": out += "\\#"
            case "\\": out += "/"
            default: out.unicodeScalars.append(u)
            }
        }
        return out
    }

    /// For the journal: one line, whatever the text holds. Controls are written as `\n`, `\t`,
    /// `\r`, `\x1b` or `\u{9b}`, so that a URL with `\n<0>` in it cannot forge a second entry
    /// at another priority, and a reader still sees what was sent. A backslash is doubled, so
    /// the escapes cannot be forged either.
    public static func logLine(_ s: String) -> String {
        guard s.unicodeScalars.contains(where: { isControl($0) || $0 == "\\" }) else { return s }
        var out = ""
        for u in s.unicodeScalars {
            switch u {
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            case _ where u.value < 0x20 || u.value == 0x7F:
                out += "\\x" + hex(u.value, digits: 2)
            case _ where isControl(u):
                out += "\\u{" + hex(u.value, digits: 0) + "}"
            default:
                out.unicodeScalars.append(u)
            }
        }
        return out
    }

    /// Whether a terminal, a log or a layout engine would act on `u` instead of showing it.
    public static func isControl(_ u: Unicode.Scalar) -> Bool {
        switch u.value {
        case 0x00...0x1F, 0x7F...0x9F: return true  // C0, DEL, C1
        case 0x202A...0x202E, 0x2066...0x2069, 0x200E, 0x200F, 0x061C: return true  // bidi controls
        case 0x2028, 0x2029: return true  // line and paragraph separators: a line break to some readers
        default: return false
        }
    }

    static func isMarkup(_ u: Unicode.Scalar) -> Bool {
        switch u {
        case "&", "<", ">", "\"", "'": return true
        default: return false
        }
    }

    /// The controls that separate words: they become a space rather than gluing words together.
    static func isWhitespaceControl(_ u: Unicode.Scalar) -> Bool {
        switch u.value {
        case 0x09...0x0D, 0x85, 0x2028, 0x2029: return true
        default: return false
        }
    }

    private static func hex(_ v: UInt32, digits: Int) -> String {
        let s = String(v, radix: 16)
        return String(repeating: "0", count: max(0, digits - s.count)) + s
    }
}
