/// A desktop search's rows: what GNOME Shell's overview and KRunner show of a Pokémon (its
/// display name, `#025 · Electric · Mouse Pokémon`, its sprite), and when a row is whole.
extension DesktopSearch {
    /// `#025 · Electric · Mouse Pokémon`, the display name, the sprite, from memory only; a
    /// form with no sprite of its own shows its species'.
    func describe(_ item: PokemonIndex.Item) -> DesktopResult {
        let row = rows.fromMemory(item)
        let record = records.cachedPokemon(item.id)
        let species: SpeciesRecord? = record.flatMap { records.cachedSpecies(for: $0) ?? nil }
        let types = record.map { r in r.types.map { terms.typeName($0, language: language) }.joined(separator: " / ") }
        let name = DistinctNames.name(DisplayNames.name(id: item.id, apiName: item.name, species: species,
                                                        form: record.flatMap(terms.cachedForm), language: language),
                                      id: item.id, apiName: item.name, language: language)
        let number = Self.pokedexNumber(item, species: species), genus = species?.genus(in: language)
        // Where the record names no sprite, its species' stands in, whatever a guess found.
        var spritePath = row.spritePath
        if let record, record.spriteURL == nil { spritePath = rows.sprites.still.knownPath(number) ?? "" }
        return DesktopResult(id: item.id, name: name, description: Self.subtext(number: number, types: types, genus: genus),
                             brief: Self.krunnerSubtext(name: name, number: number, types: types, genus: genus),
                             card: Self.subtext(number: number, types: types, genus: genus, within: .max),
                             spritePath: spritePath, favorite: row.favorite)
    }

    /// A ranked result, described (``describe(_:)``) with its rank's relevance.
    public func describe(_ r: Ranked) -> DesktopResult {
        var d = describe(r.item)
        d.exact = r.exact
        d.relevance = r.relevance
        return d
    }

    /// Whether memory holds everything a row of `item` shows: its record (the types, named
    /// from the bundled chart), its species (the genus, the number of a form), outside English
    /// the names of a form the bundled table does not name, and its sprite, or, for a form the
    /// API draws none of, its species'. A sprite that is known to be missing where the API
    /// names one is not whole: it is worth a fetch.
    func isWhole(_ item: PokemonIndex.Item) -> Bool {
        guard let record = records.cachedPokemon(item.id), case .some(let species) = records.cachedSpecies(for: record) else { return false }
        if language != "en", terms.lacksFormNames(record) { return false }
        let own = rows.sprites.still.knownPath(item.id) ?? ""
        if record.spriteURL != nil { return !own.isEmpty }
        let number = Self.pokedexNumber(item, species: species)
        return number == item.id || !(rows.sprites.still.knownPath(number) ?? "").isEmpty
    }

    /// The most characters of a result's subtext: what GNOME's row shows.
    static let subtextLength = 32
    /// The columns KRunner's list (Plasma 5.27, at its default width) shows of a name and its
    /// subtext together on the row that shows the subtext: the selected one, with its three
    /// action buttons. Measured there: "Glurak" and "#006 · Feuer / Flug · Flammen-Pokémon"
    /// showed as "Glurak #006 · Feu…en-Pokémon". CJK letters count two.
    static let krunnerColumns = 27

    /// KRunner's subtext: the first of these that fits beside the name in ``krunnerColumns``:
    /// the number, the types and the genus (`#025 · Electric · Mouse Pokémon`); the number and
    /// the types (`#094 · Ghost / Poison`); the same, closer (`#006 · Fire/Flying`); the types
    /// alone (`Fire/Flying`), which also stand when nothing fits: they tell rows apart first.
    static func krunnerSubtext(name: String, number: UInt32, types: String?, genus: String?) -> String {
        let numbered = subtext(number: number, types: types, genus: nil, within: .max)
        guard let types, !types.isEmpty else {
            return subtext(number: number, types: nil, genus: genus, within: krunnerColumns - TextWidth.columns(name))
        }
        let close = types.replacing(" / ", with: "/")
        var candidates = [numbered, PokemonID.display(number) + " · " + close, close]
        if let genus, !genus.isEmpty { candidates.insert(numbered + " · " + genus, at: 0) }
        let room = krunnerColumns - TextWidth.columns(name)
        return candidates.first { TextWidth.columns($0) <= room } ?? close
    }

    /// `#025 · Electric / Flying · Mouse Pokémon`, in that order, what tells rows apart first:
    /// the number, the types, then the genus only where it fits within `limit` characters.
    static func subtext(number: UInt32, types: String?, genus: String?, within limit: Int = subtextLength) -> String {
        var text = PokemonID.display(number)
        for part in [types, genus] {
            guard let part, !part.isEmpty else { continue }
            let longer = text + " · " + part
            if longer.count <= limit { text = longer } else { break }
        }
        return text
    }

    /// The Pokédex number a result shows: a form's is its species' (Pikachu Rock Star is #025,
    /// not #10080), from its species record, else the bundled table's row for it.
    static func pokedexNumber(_ item: PokemonIndex.Item, species: SpeciesRecord?) -> UInt32 {
        guard !PokemonID.isDefaultForm(item.id) else { return item.id }
        return species?.id ?? BundledNames.entry(item.id, apiName: item.name)?.species ?? item.id
    }
}

