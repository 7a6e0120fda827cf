@testable import PokedexCore
import PropertyBased
import Testing

/// Issue 58: flavour texts are cleaned on their UTF-8 bytes; what comes out is what cleaning
/// them a scalar at a time gave, for texts of every space, soft hyphen, and letter of one to
/// four bytes (among them those whose bytes are near a space's or a soft hyphen's).
@Suite struct FlavorTextProperties {
    /// The scalar-at-a-time cleaning the byte one replaced.
    static func reference(_ text: String) -> String {
        var out = ""
        var lastWasSpace = true
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\u{0C}", "\n", "\r", "\t", " ", "\u{A0}":
                if !lastWasSpace { out.unicodeScalars.append(" "); lastWasSpace = true }
            case "\u{AD}":
                continue
            default:
                out.unicodeScalars.append(scalar)
                lastWasSpace = false
            }
        }
        if out.hasSuffix(" ") { out.removeLast() }
        return out
    }

    @Test func cleaningBytesIsCleaningScalars() async {
        let pieces: [String] = ["\u{0C}", "\n", "\r", "\t", " ", "\u{A0}", "\u{AD}", "a", "é", "\u{A1}", "\u{BF}", "\u{C2}", "\u{100}",
                                "\u{2A0}", "ピ", "カ", "\u{1F600}", "\u{200B}", "\u{3000}", "\u{0B}", "\u{1F}", "-", "POKéMON"]
        await propertyCheck(count: PropertyCounts.cases(2000), input: Gen.uint64()) { seed in
            var rng = SplitMix64(seed: seed)
            let text = (0..<Int.random(in: 0...40, using: &rng)).map { _ in pieces.randomElement(using: &rng)! }.joined()
            #expect(APIDecoding.cleanFlavorText(text) == Self.reference(text), "seed \(seed): \(Array(text.unicodeScalars))")
        }
    }
}
