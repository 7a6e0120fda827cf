import PokedexLocks

/// Names that tell the desktop's rows apart. The games write a few forms exactly like another
/// of their species ("10% Zygarde" twice, "Mega Meowstic" for both, German "Magearna" for its
/// original colour): those get their identifier's own words ("10% Zygarde (Power Construct)").
enum DistinctNames {
    /// Per language: the ids whose table name is also another id's of the same species.
    private static let clashes = Mutex<[String: Set<UInt32>]>([:])

    /// `name` for `id`, with the words only its identifier has when another row of its
    /// species would read the same.
    static func name(_ name: String, id: UInt32, apiName: String, language: String) -> String {
        guard !PokemonID.isDefaultForm(id), clashing(language).contains(id),
              let entry = BundledNames.entry(id, apiName: apiName), let species = BundledNames.entries[entry.species] else { return name }
        // In a language of another script the identifier's words would be English: the
        // form's place among its species' rows instead ("イーブイ (2)").
        if DisplayNames.otherScript(language) {
            return BundledNames.rowsBySpecies[entry.species]?.firstIndex(of: id).map { name + " (\($0 + 1))" } ?? name
        }
        var words = apiName
        if words.hasPrefix(species.identifier + "-") { words.removeFirst(species.identifier.count + 1) }
        else if let dash = words.firstIndex(of: "-") { words = String(words[words.index(after: dash)...]) }
        return words.isEmpty ? name : name + " (" + PokemonNames.display(words) + ")"
    }

    /// The forms (never a species' default) whose table name in `language` another row of
    /// their species shares; worked out once per language (about 1,300 rows).
    static func clashing(_ language: String) -> Set<UInt32> {
        if let known = clashes.withLock({ $0[language] }) { return known }
        var byName: [UInt32: [String: [UInt32]]] = [:]
        for (id, entry) in BundledNames.entries {
            let name = DisplayNames.name(id: id, apiName: entry.identifier, language: language)
            byName[entry.species, default: [:]][name, default: []].append(id)
        }
        var out = Set<UInt32>()
        for names in byName.values {
            for ids in names.values where ids.count > 1 { out.formUnion(ids.filter { !PokemonID.isDefaultForm($0) }) }
        }
        clashes.withLock { if $0.count < 64 { $0[language] = out } }
        return out
    }
}
