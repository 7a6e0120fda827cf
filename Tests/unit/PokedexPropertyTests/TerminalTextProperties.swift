import PokedexTerminal
import PropertyBased
import Testing

/// Wrapped text, as the card wraps flavour text in any language: no line wider than asked,
/// wide characters counted as two, and every character kept in order.
@Suite struct TerminalTextProperties {
    /// Latin, kana and kanji (two columns each), hangul, spaces and the ideographic space.
    static let scalar = Gen.oneOf(
        Gen.int(in: 0x61...0x7A), Gen.int(in: 0xE0...0xFF), Gen.int(in: 0x3041...0x3093), Gen.int(in: 0x4E00...0x4FFF),
        Gen.int(in: 0xAC00...0xAD00), Gen.always(0x20), Gen.always(0x3000)
    ).map { Unicode.Scalar(UInt32($0)) ?? "?" }
    static let text = scalar.array(of: 0...120).map { String(String.UnicodeScalarView($0)) }

    @Test func wrappedLinesFitAndKeepEveryCharacter() async {
        await propertyCheck(count: PropertyCounts.cases(2000), input: Self.text, Gen.int(in: 1...60)) { s, columns in
            let lines = TerminalText.wrap(s, to: columns)
            for line in lines { #expect(TerminalText.width(line) <= max(columns, 10), "\(line) wider than \(columns)") }
            let kept = lines.joined().filter { $0 != " " && $0 != "\u{3000}" }
            #expect(kept == s.filter { $0 != " " && $0 != "\u{3000}" })
        }
    }
}
