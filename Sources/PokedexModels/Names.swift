/// Names as people read them.
public enum PokemonNames {
    /// An API name for display: `mr-mime` → `Mr Mime`, `lightning-rod` → `Lightning Rod`.
    public static func display(_ apiName: String) -> String {
        apiName.split(separator: "-").map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined(separator: " ")
    }

    /// An item's, a move's or a place's name from its identifier, as titles are written:
    /// `scroll-of-darkness` → `Scroll of Darkness`, `kings-rock` → `Kings Rock`.
    public static func title(_ apiName: String) -> String {
        let small: Set<Substring> = ["of", "the", "in", "on", "at", "to", "and", "a", "an"]
        return apiName.split(separator: "-").enumerated().map { i, w in
            i > 0 && small.contains(w) ? String(w) : w.prefix(1).uppercased() + w.dropFirst()
        }.joined(separator: " ")
    }
}

/// What PokeAPI's ids mean.
public enum PokemonID {
    /// Ids from here on are alternate forms (megas, regional forms); below it, a species'
    /// default form, whose id is the species' id.
    public static let firstAlternateForm: UInt32 = 10_000

    /// Whether `id` is a species' default form (and so also a species id).
    public static func isDefaultForm(_ id: UInt32) -> Bool { id < firstAlternateForm }

    /// The number as the games print it: `#025`, `#151`, `#1025`.
    public static func display(_ id: UInt32) -> String {
        "#" + String(repeating: "0", count: max(0, 3 - String(id).count)) + String(id)
    }
}

/// The shape of PokeAPI's machine names (`pikachu`, `mr-mime`, `special-attack`,
/// `generation-iv`): lowercase ASCII letters, digits and hyphens, of bounded length. A name of any
/// other shape did not come from PokeAPI; it is dropped where a body is decoded.
public enum APIName {
    /// The longest real name is 26 bytes (`zygarde-10-power-construct`).
    public static let maxBytes = 64

    public static func isValid(_ s: String) -> Bool {
        !s.isEmpty && s.utf8.count <= maxBytes && s.utf8.allSatisfy { isNameByte($0, upper: false) }
    }

    /// A language code: the same, with capitals (`ja-Hrkt`, `zh-Hans`).
    public static func isLanguageCode(_ s: String) -> Bool {
        !s.isEmpty && s.utf8.count <= 16 && s.utf8.allSatisfy { isNameByte($0, upper: true) }
    }

    private static func isNameByte(_ b: UInt8, upper: Bool) -> Bool {
        (0x61...0x7A).contains(b) || (0x30...0x39).contains(b) || b == 0x2D || (upper && (0x41...0x5A).contains(b))
    }
}

/// A Pokédex number: the one the games give a Pokémon (``of(_:)``: a form has its species',
/// Alolan Raichu is #026, not PokeAPI's 10100), and as people write one: `25`, `025`, `#025`,
/// `#25`, `No. 25`, `no25`, `N°25`, `Nº 25`, `№25`, and in full-width or other decimal digits
/// (`２５`).
public enum PokedexNumber {
    /// The number the games give Pokémon `id` (PokeAPI's: a species' default form, or a form):
    /// a form's is its species' (``formSpecies``, generated); nil for a form newer than the
    /// table, whose species only its record says.
    public static func of(_ id: UInt32) -> UInt32? {
        guard !PokemonID.isDefaultForm(id) else { return id }
        guard id >= firstForm, id - firstForm < UInt32(formSpecies.count) else { return nil }
        let species = formSpecies[Int(id - firstForm)]
        return species == 0 ? nil : UInt32(species)
    }

    /// ``of(_:)``, else `id` itself: what a row shows where nothing better is known.
    public static func shown(_ id: UInt32) -> UInt32 { of(id) ?? id }

    /// The number of Pokémon `id` as the games print it: "#026" for Alolan Raichu.
    public static func label(_ id: UInt32) -> String { PokemonID.display(shown(id)) }

    /// The number, or nil when `text` is not one of those forms (a name, a number with words).
    public static func parse(_ text: String) -> UInt32? {
        var s = Substring(text.trimmingWhitespace().lowercased())
        for prefix in ["#", "no.", "no", "n°", "nº", "n.º", "№", "n."] where s.hasPrefix(prefix) {
            s = s.dropFirst(prefix.count)
            break
        }
        s = s.drop { $0 == " " || $0 == "." || $0 == "\u{3000}" }
        guard !s.isEmpty, s.count <= 10 else { return nil }
        var value: UInt64 = 0
        for ch in s {
            // Decimal digits of any script (ASCII, full-width, Arabic-Indic…), not ① or ½.
            guard ch.unicodeScalars.count == 1, ch.unicodeScalars.first!.properties.numericType == .decimal,
                  let d = ch.wholeNumberValue else { return nil }
            value = value * 10 + UInt64(d)
        }
        return value <= UInt64(UInt32.max) ? UInt32(value) : nil
    }
}

extension String {
    /// Without leading and trailing white space (PokedexModels links no Foundation).
    func trimmingWhitespace() -> String {
        let scalars = unicodeScalars
        guard let start = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
              let end = scalars.lastIndex(where: { !$0.properties.isWhitespace }) else { return "" }
        return String(scalars[start...end])
    }
}
