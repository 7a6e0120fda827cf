/// What the index answers besides a search: the Pokémon a name names whole, a guess for a
/// name that names none, and what a query's filters keep.
extension SearchIndex {
    /// The Pokémon a name in any language names whole, as search would find it exactly
    /// ("glurak", "ピカチュウ", "Dracaufeu", "Mega-Glurak X"); where two Pokémon have that name
    /// in different languages, the one whose name it is in `language`. Nil when none has it.
    public func named(_ text: String, preferring language: String) -> PokemonIndex.Item? {
        let folded = TextFolding.fold(text)
        guard !folded.isEmpty, PokedexNumber.parse(text) == nil else { return nil }
        let whole = search(SearchQuery(name: text), limit: 32).filter { $0.distance == 0 && TextFolding.fold($0.matched) == folded }
        let own = whole.first { !$0.language.isEmpty && LocalizedText.relative($0.language, of: language) }
        return (own ?? whole.first)?.item
    }

    /// The single best guess for a name that does not exist, for "did you mean".
    public func suggestion(for text: String) -> String? {
        search(SearchQuery(parsing: text), limit: 1).first.map(\.item.name)
    }

    /// What a filter names that does not exist, in words (`no type named "feu": …`); nil when
    /// every filter names a type or a generation there is.
    public func unknownFilter(_ query: SearchQuery) -> String? {
        for t in query.types where typeMembers[t] == nil && typeNames[TextFolding.fold(t)] == nil {
            return ServiceMessages.format(ServiceMessages.noType, "\"\(t)\"", typeMembers.keys.sorted().joined(separator: ", "))
        }
        if let g = query.generation, generationMembers[g] == nil, let first = generationMembers.keys.min(), let last = generationMembers.keys.max() {
            return g < 0 ? ServiceMessages.format(ServiceMessages.noGenerationNamed, String(first), String(last))
                : ServiceMessages.format(ServiceMessages.noGeneration, String(g), String(first), String(last))
        }
        return nil
    }

    func filterIDs(_ query: SearchQuery) -> Set<UInt32>? {
        guard query.hasFilters else { return nil }
        var ids: Set<UInt32>?
        for t in query.types {
            let members = typeMembers[t] ?? typeNames[TextFolding.fold(t)].flatMap { typeMembers[$0] } ?? []
            ids = ids.map { $0.intersection(members) } ?? members
        }
        if let g = query.generation {
            let members = generationMembers[g] ?? []
            ids = ids.map { $0.intersection(members) } ?? members
        }
        return ids ?? []
    }
}
