/// The API's texts in several languages: a species' genera and flavour text, and the names of
/// types, abilities, stats and forms.
extension APIDecoding {
    private static let namesKeys = JSONReader.Keys("name", "names", "form_names")

    /// Decodes the `names` (and a form's `form_names`) of `GET /type/{name}`, `/ability/{name}`,
    /// `/stat/{name}` or `/pokemon-form/{id}`: only the languages names are shown in.
    public static func names(_ body: [UInt8], dropped: Dropped = { _ in }) throws -> NamesRecord {
        var ownName: String?, names: [LanguageText]?, formNames: [LanguageText]?
        try reading(body) { (r) throws(JSONReader.Failure) in
            try r.object(namesKeys) { (k, r) throws(JSONReader.Failure) in
                switch k {
                case 0: ownName = try r.string()
                case 1: names = try r.null() ? nil : r.languageTexts("name")
                default: formNames = try r.null() ? nil : r.languageTexts("name")
                }
            }
            if ownName == nil { throw r.missing("name") }
        }
        guard let ownName else { throw PokedexError.unavailable("not PokeAPI's named resource") }
        let name = try self.ownName(ownName, "a named resource")
        return NamesRecord(name: name,
                           names: byLanguage(names ?? [], \.text, \.language, maxLocalizedNameBytes, "name of \(name)", dropped),
                           formNames: byLanguage(formNames ?? [], \.text, \.language, maxLocalizedNameBytes,
                                                 "form name of \(name)", dropped))
    }

    /// Texts by language, the last of each language winning (the API lists flavour text oldest
    /// game first). Only languages names are shown in are kept, so a body cannot make a record
    /// grow with languages; a text over `cap` is dropped, said to `dropped`.
    static func byLanguage<E>(_ entries: [E], _ text: KeyPath<E, String>, _ language: KeyPath<E, String>, _ cap: Int,
                              _ what: String, _ dropped: Dropped) -> [String: String] {
        var out: [String: String] = [:]
        for e in entries {
            let code = e[keyPath: language].lowercased()
            guard NameLanguage.available.contains(code) else { continue }
            let t = capped(e[keyPath: text], cap, "the \(code) \(what)", dropped)
            if !t.isEmpty { out[code] = t }
        }
        return out
    }
}
