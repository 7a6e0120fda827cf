import PokedexModels
import PropertyBased
import Testing

/// Whatever the API or the cache holds, the sanitiser's output is safe for where it goes.
@Suite struct UntrustedTextProperties {
    /// Scalars a hostile server would pick, and ordinary ones.
    static let scalar = Gen.oneOf(
        Gen.int(in: 0x00...0x20), Gen.int(in: 0x7E...0xA0), Gen.int(in: 0x2000...0x206F),
        Gen.int(in: 0x20...0x7E), Gen.int(in: 0xE0...0x17F), Gen.int(in: 0x3040...0x30FF), Gen.int(in: 0x1F300...0x1F5FF)
    ).map { Unicode.Scalar(UInt32($0)) ?? "?" }
    static let text = scalar.array(of: 0...40).map { String(String.UnicodeScalarView($0)) }

    @Test func terminalTextHasNoControlsAndKeepsEveryPrintable() async {
        await propertyCheck(count: PropertyCounts.cases(1000), input: Self.text) { s in
            let safe = UntrustedText.terminal(s)
            #expect(!safe.unicodeScalars.contains(where: UntrustedText.isControl))
            let printable = s.unicodeScalars.filter { !UntrustedText.isControl($0) }
            #expect(Array(safe.unicodeScalars.filter { $0 != " " }) == Array(printable.filter { $0 != " " }))
        }
    }

    @Test func logLinesAreOneLineAndSayWhatWasSent() async {
        await propertyCheck(count: PropertyCounts.cases(1000), input: Self.text) { s in
            let line = UntrustedText.logLine(s)
            #expect(!line.unicodeScalars.contains(where: UntrustedText.isControl))
            // Nothing printable is lost (counted in scalars: graphemes can merge across a removal).
            let kept = s.unicodeScalars.filter { !UntrustedText.isControl($0) && $0 != "\\" }
            #expect(Array(line.unicodeScalars.filter { kept.contains($0) }).count >= kept.count)
        }
    }

    @Test func markupHasNoTagsOrStrayAmpersands() async {
        await propertyCheck(count: PropertyCounts.cases(1000), input: Self.text) { s in
            let m = UntrustedText.markup(s)
            #expect(!m.contains("<") && !m.contains(">"))
            // Every & starts one of the five entities (compared in bytes: a combining mark after
            // the ';' would merge with it into one Character).
            let bytes = Array(m.utf8)
            for (i, b) in bytes.enumerated() where b == UInt8(ascii: "&") {
                #expect(["&amp;", "&lt;", "&gt;", "&quot;", "&apos;"].contains { bytes[i...].starts(with: $0.utf8) })
            }
        }
    }

    /// Text made of what the bars' markup reads (`%{`, `${`, `$$`, `#`, `\\`, "template") among
    /// ordinary and hostile scalars.
    static let barText = Gen.oneOf(
        Gen.oneOf(Gen.always("$"), Gen.always("#"), Gen.always("\\"), Gen.always("%{"), Gen.always("${"),
                  Gen.always("{"), Gen.always("}"), Gen.always("template"), Gen.always("TEMPLATE1"), Gen.always("% {")),
        scalar.map { String($0) }
    ).array(of: 0...30).map { $0.joined() }

    @Test func polybarLabelsHaveNoTagFromData() async {
        await propertyCheck(count: PropertyCounts.cases(2000), input: Self.barText) { s in
            let p = UntrustedText.polybar(s)
            #expect(!p.contains("%{"), "\(s.debugDescription) → \(p.debugDescription)")
            #expect(!p.unicodeScalars.contains(where: UntrustedText.isControl))
            // Only spaces were added: every printable scalar is kept, in order.
            #expect(Array(p.unicodeScalars.filter { $0 != " " }) == Array(UntrustedText.terminal(s).unicodeScalars.filter { $0 != " " }))
        }
    }

    @Test func conkyTextHasNoVariableCommentOrEscapeFromData() async {
        await propertyCheck(count: PropertyCounts.cases(2000), input: Self.barText) { s in
            let c = UntrustedText.conky(s)
            #expect(!c.unicodeScalars.contains(where: UntrustedText.isControl))
            // As conky reads it: "$$" is a "$", "\#" a "#"; a lone "$" would start a variable, a
            // lone "#" a comment, a lone "\" an escape.
            var read = ""
            var u = Array(c.unicodeScalars)[...]
            while let first = u.popFirst() {
                switch first {
                case "$": #expect(u.popFirst() == "$", "a variable from data: \(s.debugDescription) → \(c.debugDescription)"); read += "$"
                case "\\": #expect(u.popFirst() == "#", "an escape from data: \(c.debugDescription)"); read += "#"
                case "#": Issue.record("a comment from data: \(s.debugDescription) → \(c.debugDescription)")
                default: read.unicodeScalars.append(first)
                }
            }
            // $template is expanded before anything else, even after "$$".
            #expect(c.lowercased().firstRange(of: "$template") == nil && c.lowercased().firstRange(of: "${template") == nil)
            // What conky shows is the text, but a backslash (a slash) and a space after a "$" before "template".
            // (Compared in scalars: a combining mark after the backslash makes one Character of both.)
            let expected = UntrustedText.terminal(s).unicodeScalars.map { $0 == "\\" ? "/" : $0 }.filter { $0 != " " }
            #expect(Array(read.unicodeScalars.filter { $0 != " " }) == expected, "\(s.debugDescription) → \(c.debugDescription)")
        }
    }
}
