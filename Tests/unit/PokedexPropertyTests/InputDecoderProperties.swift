import CTerminalShims
@testable import PokedexTerminal
import PropertyBased
import Testing

/// The keyboard and mouse as the terminal sends them: any bytes at all, split into reads at any
/// boundary, give the same events, and never trap; keys encoded as terminals encode them come
/// back as those keys.
@Suite struct InputDecoderProperties {
    /// Bytes a hostile or confused terminal sends: escape-sequence parts far more often than
    /// chance would, numbers of every size, UTF-8 lead and continuation bytes, controls.
    static let tokens: [[UInt8]] = [
        "\u{1B}", "\u{1B}[", "\u{1B}[<", "\u{1B}O", ";", "M", "m", "~", "-", "[", "<", "200~", "201~", "A", "Z",
        "9223372036854775807", "-9223372036854775808", "99999999999999999999999", "0", "1", "64", "65", "\u{1B}[<0;",
        "é", "😀", "\u{301}", "\r", "\u{7F}",
    ].map { (s: String) -> [UInt8] in Array(s.utf8) } + [[0xC3], [0xF0, 0x9F], [0xE2, 0x82], [0xFF], [0x80], [0xF8, 0x88, 0x80, 0x80, 0x80]]
    static let piece = zip(Gen.int(in: 0...2), Gen.int(in: 0...255), Gen.int(in: 0...1000)).map { (kind: Int, byte: Int, pick: Int) -> [UInt8] in
        kind == 0 ? [UInt8(byte)] : tokens[pick % tokens.count]
    }
    static let bytes = piece.array(of: 0...40).map { (pieces: [[UInt8]]) -> [UInt8] in pieces.flatMap { $0 } }
    /// Where the bytes are cut into reads: fractions of the length.
    static let cuts = Gen.int(in: 0...1000).array(of: 0...8)

    @Test func anyBytesSplitAnywhereGiveTheSameEventsAndNeverTrap() async {
        pokedex_install_fatal_handlers()
        await propertyCheck(count: PropertyCounts.sequences, input: zip(Self.bytes, Self.cuts)) { bytes, cuts in
            pokedex_crash_note("InputDecoderProperties: crashed on bytes \(bytes) cut at \(cuts)")
            let whole = Self.decode([bytes])
            let positions = Set(cuts.map { bytes.isEmpty ? 0 : $0 * bytes.count / 1000 }).sorted()
            var chunks: [[UInt8]] = [], last = 0
            for p in positions { chunks.append(Array(bytes[last..<p])); last = p }
            chunks.append(Array(bytes[last...]))
            #expect(Self.decode(chunks) == whole, "bytes \(bytes) in reads \(chunks)")
            for case .mouse(let m) in whole {
                #expect((-1...InputDecoder.maxCoordinate).contains(m.x) && (-1...InputDecoder.maxCoordinate).contains(m.y), "\(m)")
            }
        }
        pokedex_crash_note(nil)
    }

    /// Every boundary of one sequence: byte by byte, and cut in two at each position.
    @Test func everyBoundaryOfAMouseReportAndAPaste() {
        let samples = [
            "\u{1B}[<0;-9223372036854775808;1M", "\u{1B}[<0;9223372036854775807;99999999999999999999M", "\u{1B}[<64;10;5M",
            "\u{1B}[200~hello\u{1B}[201~", "\u{1B}[<0;5;5m\u{1B}[A\u{1B}", "\u{1B}\u{1B}[5~", "é😀\u{1B}O", String(repeating: "9", count: 80),
            "\u{1B}[" + String(repeating: "1;", count: 40) + "~x",
        ]
        for sample in samples {
            let bytes = Array(sample.utf8)
            let whole = Self.decode([bytes])
            #expect(Self.decode(bytes.map { [$0] }) == whole, "\(sample.debugDescription) byte by byte")
            for cut in 0...bytes.count {
                #expect(Self.decode([Array(bytes[..<cut]), Array(bytes[cut...])]) == whole, "\(sample.debugDescription) cut at \(cut)")
            }
        }
    }

    /// Issue 22: `ESC [ < 0 ; -9223372036854775808 ; 1 M` trapped (`f[1] - 1`).
    @Test func theSmallestIntAsAMouseCoordinateDoesNotTrap() {
        var d = InputDecoder()
        let events = d.feed(Array("\u{1B}[<0;-9223372036854775808;1M".utf8))
        #expect(events == [.mouse(MouseEvent(.press, x: -1, y: 0))])
    }

    /// The model: keys encoded as a terminal encodes them, in any reads, come back as those keys.
    static let keyAlphabet: [(Key, String)] = [
        (.up, "\u{1B}[A"), (.down, "\u{1B}[B"), (.right, "\u{1B}[C"), (.left, "\u{1B}[D"), (.home, "\u{1B}[H"), (.end, "\u{1B}[F"),
        (.up, "\u{1B}OA"), (.home, "\u{1B}[1~"), (.end, "\u{1B}[4~"), (.pageUp, "\u{1B}[5~"), (.pageDown, "\u{1B}[6~"),
        (.delete, "\u{1B}[3~"), (.enter, "\r"), (.tab, "\t"), (.backTab, "\u{1B}[Z"), (.backspace, "\u{7F}"), (.escape, "\u{1B}"),
        (.char("a"), "a"), (.char("é"), "é"), (.char("😀"), "😀"), (.char("中"), "中"), (.char("/"), "/"), (.char("q"), "q"),
        (.control("c"), "\u{03}"), (.control("z"), "\u{1A}"),
    ]

    @Test func keysComeBackAsTheyWereTyped() async {
        let keys = Gen.int(in: 0...(Self.keyAlphabet.count - 1)).array(of: 0...30)
        await propertyCheck(count: PropertyCounts.sequences, input: zip(keys, Self.cuts)) { picks, cuts in
            // An Esc followed at once by `[` or `O` is a sequence, on every terminal: not generated.
            var typed: [Key] = [], bytes: [UInt8] = []
            for p in picks {
                let (key, text) = Self.keyAlphabet[p]
                if typed.last == .escape, text.hasPrefix("[") || text.hasPrefix("O") { continue }
                typed.append(key)
                bytes += Array(text.utf8)
            }
            var chunks: [[UInt8]] = [], last = 0
            for p in Set(cuts.map { bytes.isEmpty ? 0 : $0 * bytes.count / 1000 }).sorted() { chunks.append(Array(bytes[last..<p])); last = p }
            chunks.append(Array(bytes[last...]))
            #expect(Self.decode(chunks) == typed.map { .key($0) }, "keys \(typed) as \(chunks)")
        }
    }

    /// Each read fed as it comes; a lone Esc waiting at the end is given up (as the loop does
    /// after 30 ms of nothing).
    static func decode(_ reads: [[UInt8]]) -> [InputEvent] {
        var d = InputDecoder()
        var out: [InputEvent] = []
        for r in reads { out += d.feed(r) }
        return out + d.flush()
    }
}
