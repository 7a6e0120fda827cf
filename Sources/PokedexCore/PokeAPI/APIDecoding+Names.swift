/// The API's texts in several languages: a species' genera and flavour text, and the names of
/// types, abilities, stats and forms.
extension APIDecoding {
    struct Name: Decodable { var name: String; var language: NamedResource }

    struct NamesBody: Decodable {
        var name: String
        var names: [Name]?
        var form_names: [Name]?
    }

    /// Decodes the `names` (and a form's `form_names`) of `GET /type/{name}`, `/ability/{name}`,
    /// `/stat/{name}` or `/pokemon-form/{id}`: only the languages names are shown in.
    public static func names(_ body: [UInt8], dropped: Dropped = { _ in }) throws -> NamesRecord {
        let b = try decode(NamesBody.self, body)
        let name = try ownName(b.name, "a named resource")
        return NamesRecord(name: name,
                           names: byLanguage(b.names ?? [], \.name, \.language.name, maxLocalizedNameBytes, "name of \(name)", dropped),
                           formNames: byLanguage(b.form_names ?? [], \.name, \.language.name, maxLocalizedNameBytes,
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
