/// How wide text is drawn where every letter takes one column or two: a terminal's cells, and
/// the share of a row a desktop shell's list gives a name and its subtext.
public enum TextWidth {
    /// Columns `s` takes, each grapheme cluster (Swift's `Character`) as ``columns(of:)``.
    public static func columns(_ s: String) -> Int { s.reduce(0) { $0 + columns(of: $1) } }

    /// One grapheme cluster's columns: an emoji (presentation, a flag, a ZWJ sequence) two;
    /// otherwise its letters', East Asian Wide and Fullwidth two, with combining marks,
    /// variation selectors, joiners and format characters adding nothing: they belong to the
    /// letter before them. A cluster of nothing but those (a stray mark, a bidi control) is zero.
    public static func columns(of ch: Character) -> Int {
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
    public static func isZeroWidth(_ u: Unicode.Scalar) -> Bool {
        switch u.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format, .control: return true
        default: return (0x1160...0x11FF).contains(u.value) || u.properties.isVariationSelector
        }
    }

    /// East Asian Wide and Fullwidth, and emoji presented as emoji: two columns.
    public static func isWide(_ u: Unicode.Scalar) -> Bool {
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
}
