/// How names written in kana, Hangul and hanzi compare as people mistype them: what typos are
/// counted in (``letters(_:)``), each script in what its writers miss:
/// - Latin letters;
/// - kana by kana (hiragana and katakana alike, TextFolding), small kana as large ("ピカチユウ"
///   for ピカチュウ), voiced and semi-voiced as plain ("ハ", "バ", "パ"), no long vowel mark
///   ("リザドン" for リザードン): those count no typo, but are no exact match either (ガラガラ
///   is not カラカラ);
/// - Hangul by jamo, a syllable's silent initial ㅇ left out ("피카추우" is two jamo from 피카츄);
/// - hanzi by character ("皮卡兵" is one from 皮卡丘).
enum ScriptFolding {
    /// The script of a folded name, for typo matching: names are compared with names of theirs.
    enum Script: UInt8, Sendable {
        case latin, hangul, kana, han, other
    }

    /// A hiragana scalar (after TextFolding's katakana to hiragana) as typos are counted: small
    /// as large, voiced as plain; nil for a mark that counts nothing (the long vowel mark, the
    /// voicing marks, combining or spacing).
    static func kana(_ u: Unicode.Scalar) -> Unicode.Scalar? {
        switch u.value {
        case 0x30FC, 0x3099, 0x309A, 0x309B, 0x309C, 0xFF70: return nil
        case 0x3041...0x3096:
            let folded = plainKana[Int(u.value - 0x3041)]
            return folded == 0 ? u : Unicode.Scalar(folded) ?? u
        default: return u
        }
    }

    /// ぁ (0x3041) … ゖ (0x3096): the plain, large kana of each (0: itself).
    private static let plainKana: [UInt32] = {
        var table = [UInt32](repeating: 0, count: 0x3096 - 0x3041 + 1)
        func set(_ from: UInt32, _ to: UInt32) { table[Int(from - 0x3041)] = to }
        // Small kana: ぁぃぅぇぉ っ ゃゅょ ゎ ゕゖ.
        for (small, large) in [(0x3041, 0x3042), (0x3043, 0x3044), (0x3045, 0x3046), (0x3047, 0x3048), (0x3049, 0x304A), (0x3063, 0x3064),
                               (0x3083, 0x3084), (0x3085, 0x3086), (0x3087, 0x3088), (0x308E, 0x308F), (0x3095, 0x304B), (0x3096, 0x3051)] {
            set(UInt32(small), UInt32(large))
        }
        // Voiced: が…ど follow their plain kana by one (か が, き ぎ…, but っ/つ/づ and the gaps).
        for voiced in [0x304C, 0x304E, 0x3050, 0x3052, 0x3054, 0x3056, 0x3058, 0x305A, 0x305C, 0x305E, 0x3060, 0x3062, 0x3065, 0x3067, 0x3069] {
            set(UInt32(voiced), UInt32(voiced - 1))
        }
        // は行: は ば ぱ, ひ び ぴ, ふ ぶ ぷ, へ べ ぺ, ほ ぼ ぽ.
        for plain in stride(from: 0x306F, through: 0x307B, by: 3) {
            set(UInt32(plain + 1), UInt32(plain))
            set(UInt32(plain + 2), UInt32(plain))
        }
        set(0x3094, 0x3046)  // ゔ → う
        return table
    }()

    /// The script a folded name is written in: that of all its letters but ASCII ones (a digit,
    /// a sign such as ♀ or the Z of 폴리곤Z and ポリゴンZ is none's).
    static func script(_ scalars: [UInt32]) -> Script {
        if scalars.allSatisfy({ $0 < 0x250 }) { return scalars.isEmpty ? .other : .latin }
        let letters = scalars.filter { $0 >= 0x80 && (Unicode.Scalar($0)?.properties.isAlphabetic ?? false) }
        guard !letters.isEmpty else { return .other }
        func all(_ test: (UInt32) -> Bool) -> Bool { letters.allSatisfy(test) }
        if all(isHangul) { return .hangul }
        if all(isKana) { return .kana }
        if all(isHan) { return .han }
        return .other
    }

    static func isHangul(_ u: UInt32) -> Bool { (0xAC00...0xD7A3).contains(u) || (0x1100...0x11FF).contains(u) }
    static func isKana(_ u: UInt32) -> Bool { (0x3041...0x30FF).contains(u) }
    static func isHan(_ u: UInt32) -> Bool { (0x4E00...0x9FFF).contains(u) || (0x3400...0x4DBF).contains(u) || (0xF900...0xFAFF).contains(u) }

    /// What typos are counted in, and the script: a compact folded name (no hyphens) as it is,
    /// Hangul syllables as their jamo.
    static func letters(_ compact: [UInt32]) -> (letters: [UInt32], script: Script) {
        let script = script(compact)
        if script == .kana {
            return (compact.compactMap { Unicode.Scalar($0).flatMap(kana).map(\.value) }, script)
        }
        guard script == .hangul else { return (compact, script) }
        var out: [UInt32] = []
        out.reserveCapacity(compact.count * 3)
        for u in compact {
            guard (0xAC00...0xD7A3).contains(u) else { out.append(u); continue }
            let s = u - 0xAC00
            let initial = s / 588, vowel = (s % 588) / 28, final = s % 28
            if initial != 11 { out.append(0x1100 + initial) }  // ㅇ before a vowel says nothing
            out.append(0x1161 + vowel)
            if final != 0 { out.append(0x11A7 + final) }
        }
        return (out, script)
    }

    /// The typos allowed for a query of `n` units in `script` (each run of one unit counted
    /// once): Latin letters and jamo as ``EditDistance/allowed(forLength:)``; a kana is a
    /// syllable and a hanzi a word, so fewer of them allow as many.
    static func allowed(_ n: Int, _ script: Script) -> Int {
        switch script {
        case .latin, .hangul: return EditDistance.allowed(forLength: n)
        // Kana spelt as typed count none (``letters(_:)``): a short name is still found so.
        case .kana: return n < 4 ? 0 : n < 8 ? 1 : 2
        case .han: return n < 3 ? 0 : n < 6 ? 1 : 2
        case .other: return 0
        }
    }
}
