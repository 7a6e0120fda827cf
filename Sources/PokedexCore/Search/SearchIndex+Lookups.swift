/// What the index answers besides a search: the Pokémon a name names whole, a guess for a
/// name that names none, and what a query's filters keep.
extension SearchIndex {
    /// The Pokémon a name in any language names whole, as search would find it exactly
    /// ("glurak", "ピカチュウ", "Dracaufeu", "Mega-Glurak X"); where two Pokémon have that name
    /// in different languages, the one whose name it is in `language`. Nil when none has it.
    public func named(_ text: String, preferring language: String) -> PokemonIndex.Item? {
        let folded = TextFolding.fold(text)
        guard !folded.isEmpty, PokedexNumber.parse(text) == nil else { return nil }
        var query = SearchQuery(name: text)
        query.language = language
        let hits = search(query, limit: 32)
        let whole = hits.filter { $0.distance == 0 && TextFolding.fold($0.matched) == folded }
        let own = whole.first { !$0.language.isEmpty && LocalizedText.relative($0.language, of: language) }
        if let found = own ?? whole.first { return found.item }
        // Kana as typed ("ピカチユウ"): the one Pokémon they name, if only one.
        let typed = hits.filter { $0.distance == 0 && $0.kind == .fuzzy }
        return Set(typed.map(\.item.id)).count == 1 ? typed.first?.item : nil
    }

    /// The single best guess for a name that does not exist, for "did you mean": as the games
    /// write it in the reader's `language` ("ピカチュウ", "Glurak"), the name typed back finds it.
    public func suggestion(for text: String, language: String) -> String? {
        var query = SearchQuery(parsing: text)
        query.language = language
        return search(query, limit: 1).first.map { DisplayNames.name(id: $0.item.id, apiName: $0.item.name, language: language) }
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
