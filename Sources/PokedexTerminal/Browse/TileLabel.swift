/// The two rows under a grid tile's sprite: the number over the name, or, for a name a row
/// cannot hold ("Gigantamax Charizard", "Gigadynamax-Glurak", "キョダイマックスリザードン"),
/// the name on both, broken where the language breaks: at a space, after a hyphen, between
/// kana (never before a small one or "ー"). A form's name that two rows cannot hold either
/// ("Deoxys (Verteidigung)", "フシギバナ キョダイマックスのすがた") shows its species over what sets
/// the form apart ("Deoxys" over "Verteidigung", "フシギバナ" over "キョダイマッ…"), as
/// Pokémon HOME's boxes do: a grid of Gigantamax forms still says whose each is. What a row
/// cannot hold ends in "…" after the last piece that fits; the title bar has the whole name
/// for the tile selected.
public struct TileLabel: Equatable, Sendable {
    /// The label's rows, at most ``rows``, each at most the width asked.
    public let lines: [String]
    /// Whether the first row is the number (the name fitted on the second).
    public let numbered: Bool

    public static let rows = 2

    /// `species`: the species' name, in the same language, for a form.
    public init(number: String, name: String, species: String? = nil, width: Int) {
        let width = max(width, 1)
        if TerminalText.width(name) <= width {
            (lines, numbered) = ([number, name], true)
            return
        }
        let broken = Self.break(name, width: width)
        if broken.count <= Self.rows {
            (lines, numbered) = (broken, false)
            return
        }
        if let species, let form = Self.formPart(of: name, species: species) {
            (lines, numbered) = ([Self.fitted(species, width: width), Self.fitted(form, width: width)], false)
            return
        }
        // The rest after the first row, as much of it as fits whole before "…".
        let first = broken[0]
        let rest = String(name.dropFirst(first.count).drop { $0 == " " || $0 == "\u{3000}" })
        (lines, numbered) = ([first, Self.fitted(rest, width: width)], false)
    }

    /// `text` on one row: whole where it fits, else the pieces that fit before "…".
    static func fitted(_ text: String, width: Int) -> String {
        guard TerminalText.width(text) > width else { return text }
        let first = Self.break(text, width: max(1, width - 1)).first ?? ""
        // A word alone wider than the row: cut in it, the "…" saying so.
        return text.hasPrefix(first) ? first + "…" : TerminalText.truncate(text, to: width)
    }

    /// `name` without `species`' name and the brackets or spaces around it ("Deoxys
    /// (Verteidigung)" → "Verteidigung"); nil when it does not hold it, or holds nothing else.
    static func formPart(of name: String, species: String) -> String? {
        guard !species.isEmpty, name != species, let range = name.firstRange(of: species) else { return nil }
        var form = name
        form.removeSubrange(range)
        let blank: (Character) -> Bool = { $0 == " " || $0 == "\u{3000}" }
        form = String(form.drop(while: blank).reversed().drop(while: blank).reversed()).replacingAll("  ", with: " ")
        if form.first == "(" && form.last == ")" || form.first == "（" && form.last == "）" {
            form = String(form.dropFirst().dropLast())
        }
        return form.isEmpty ? nil : form
    }

    /// `name` in lines of at most `width` columns, word by word (words are what spaces part):
    /// a word that fits no line's rest starts the next, and one wider than a line breaks
    /// between its pieces (after a hyphen, between kana), filling the line it starts on; a
    /// piece wider than a line is broken with a hyphen.
    static func `break`(_ name: String, width: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        func add(_ text: String, space: Bool) {
            let joined = line.isEmpty ? text : line + (space ? " " : "") + text
            if TerminalText.width(joined) <= width { line = joined; return }
            if !line.isEmpty { lines.append(line) }
            line = ""
            for ch in text {
                if TerminalText.width(line) + TerminalText.width(of: ch) > width, !line.isEmpty {
                    // A word wider than a line ("Morgenschwingen"): broken with a hyphen, as
                    // a typesetter without a dictionary would; kana need none.
                    if TerminalText.width(of: ch) == 1, let last = line.last, TerminalText.width(of: last) == 1, last != "-", line.count > 1 {
                        line.removeLast()
                        lines.append(line + "-")
                        line = String(last)
                    } else {
                        lines.append(line)
                        line = ""
                    }
                }
                line.append(ch)
            }
        }
        for word in words(name) {
            let whole = word.joined()
            let joined = line.isEmpty ? whole : line + " " + whole
            if TerminalText.width(joined) <= width {
                line = joined
            } else if TerminalText.width(whole) <= width {
                if !line.isEmpty { lines.append(line) }
                line = whole
            } else {
                for (i, piece) in word.enumerated() { add(piece, space: i == 0) }
            }
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }

    /// The name's words (parted by spaces), each as its pieces.
    static func words(_ name: String) -> [[String]] {
        var out: [[String]] = []
        for (piece, spaceBefore) in pieces(name) {
            if spaceBefore || out.isEmpty { out.append([piece]) } else { out[out.count - 1].append(piece) }
        }
        return out
    }

    /// What never starts a Japanese line: small kana, the long-vowel mark, closing marks.
    static let noLineStart = Set("ぁぃぅぇぉっゃゅょゎゕゖァィゥェォッャュョヮヵヶㇰㇱㇲㇳㇴㇵㇶㇷㇸㇹㇺㇻㇼㇽㇾㇿーｰ・、。）」』】〕〉》！？")

    /// The name's pieces, and whether a space came before each: words at spaces, split after
    /// a hyphen, and each wide letter (kana, hanzi) a piece of its own.
    static func pieces(_ name: String) -> [(String, Bool)] {
        var out: [(String, Bool)] = []
        var current = ""
        var spaceBefore = false
        func flush() {
            if !current.isEmpty { out.append((current, spaceBefore)); spaceBefore = false }
            current = ""
        }
        for ch in name {
            if ch == " " || ch == "\u{3000}" {
                flush()
                spaceBefore = true
            } else if TerminalText.width(of: ch) == 2 {
                // A small kana or the long mark stays with the letter before it (kinsoku).
                if Self.noLineStart.contains(ch), current.isEmpty, let last = out.popLast() {
                    current = last.0 + String(ch)
                    spaceBefore = last.1
                } else {
                    flush()
                    current = String(ch)
                }
                flush()
            } else {
                current.append(ch)
                if ch == "-" { flush() }
            }
        }
        flush()
        return out
    }
}

private extension String {
    /// Where `target` first occurs, by characters (no Foundation here).
    func firstRange(of target: String) -> Range<String.Index>? {
        guard !target.isEmpty else { return nil }
        var start = startIndex
        while start < endIndex {
            if self[start...].hasPrefix(target) { return start..<index(start, offsetBy: target.count) }
            start = index(after: start)
        }
        return nil
    }

    func replacingAll(_ target: String, with replacement: String) -> String {
        var s = self
        while let r = s.firstRange(of: target) { s.replaceSubrange(r, with: replacement) }
        return s
    }
}
