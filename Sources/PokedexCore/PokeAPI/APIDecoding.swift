/// Says what a body held that is not PokeAPI's shape and was dropped: one line per entry.
public typealias Dropped = (String) -> Void

/// Turns PokeAPI's JSON bodies into the compact records the service keeps.
/// Only the fields the service answers with are decoded; the rest is skipped.
///
/// Nothing in a body is trusted. A machine name that is not PokeAPI's shape (``APIName``) is
/// dropped with its entry, and a display text over its cap is dropped too, each said to
/// `dropped`; a record whose own name is not a name is refused whole. What is dropped is never
/// stored.
public enum APIDecoding {
    /// Display text caps, in bytes: far over any real genus (`Mouse Pokémon`), flavour text or
    /// localized name.
    public static let maxGenusBytes = 256
    public static let maxFlavorBytes = 2048
    public static let maxLocalizedNameBytes = 128
    /// The most types, abilities and stats a Pokémon keeps (the games have 2, 3 and 6): each
    /// is a resource `LocalizedDetail` reads, so a body cannot make one call a storm of requests.
    public static let maxTypes = 8
    public static let maxAbilities = 16
    public static let maxStats = 16

    /// `name` if it is a PokeAPI name; otherwise nil, said to `dropped`.
    static func checked(_ name: String, _ what: String, _ dropped: Dropped) -> String? {
        if APIName.isValid(name) { return name }
        dropped("dropped \(what) \"\(name.prefix(80))\": not a PokeAPI name")
        return nil
    }

    /// Display text within its cap; otherwise empty, said to `dropped`.
    static func capped(_ text: String, _ cap: Int, _ what: String, _ dropped: Dropped) -> String {
        guard text.utf8.count > cap else { return text }
        dropped("dropped \(what): \(text.utf8.count) bytes, over its cap of \(cap)")
        return ""
    }

    /// The first `cap` of a list; the rest dropped, said to `dropped`.
    static func capped<T>(_ items: [T], _ cap: Int, _ what: String, _ dropped: Dropped) -> [T] {
        guard items.count > cap else { return items }
        dropped("dropped \(items.count - cap) \(what): over the cap of \(cap)")
        return Array(items.prefix(cap))
    }

    /// Whether texts by language (a record's, read back from the disk) hold only languages
    /// names are shown in, each within `cap` bytes.
    static func withinCaps(_ texts: [String: String]?, _ cap: Int) -> Bool {
        guard let texts else { return true }
        return texts.count <= NameLanguage.available.count
            && texts.allSatisfy { NameLanguage.available.contains($0.key) && $0.value.utf8.count <= cap }
    }

    /// A record's own name: one that is not a name makes the body unusable.
    static func ownName(_ name: String, _ what: String) throws -> String {
        guard APIName.isValid(name) else { throw PokedexError.unavailable("\(what) is named \"\(name.prefix(80))\", which is not a PokeAPI name") }
        return name
    }
    /// A `{"name": …, "url": …}` the API points at another resource with.
    struct NamedResource { var name: String; var url: String? }

    /// Reads `body` as one JSON value with `read`; a body that is not JSON, or not the shape
    /// `read` asks for, is refused with where and why.
    static func reading<T>(_ body: [UInt8], _ read: (inout JSONReader) throws(JSONReader.Failure) -> T) throws(PokedexError) -> T {
        do {
            return try JSONReader.read(body, read)
        } catch {
            throw PokedexError.unavailable("not PokeAPI's JSON: \(error)")
        }
    }

    /// The id at the end of a resource URL: `…/pokemon/25/` → 25.
    static func trailingID(_ url: String) -> UInt32? {
        // The last non-empty part between slashes, found from the end (a warm card reads two).
        var end = url.utf8.endIndex
        while end > url.utf8.startIndex, url.utf8[url.utf8.index(before: end)] == UInt8(ascii: "/") { end = url.utf8.index(before: end) }
        let start = url.utf8[..<end].lastIndex(of: UInt8(ascii: "/")).map { url.utf8.index(after: $0) } ?? url.utf8.startIndex
        return UInt32(Substring(url.utf8[start..<end]))
    }

    private static let listKeys = JSONReader.Keys("count", "results")

    /// Decodes `GET /pokemon/?limit=N`.
    public static func index(_ body: [UInt8], dropped: Dropped = { _ in }) throws -> PokemonIndex {
        let (count, results) = try reading(body) { (r) throws(JSONReader.Failure) -> (UInt32, [NamedResource]) in
            var count: UInt32?, results: [NamedResource]?
            try r.object(listKeys) { (k, r) throws(JSONReader.Failure) in
                switch k {
                case 0: count = try r.uint32()
                default: results = try r.namedResources()
                }
            }
            guard let count, let results else { throw r.missing(count == nil ? "count" : "results") }
            return (count, results)
        }
        var items: [PokemonIndex.Item] = []
        items.reserveCapacity(results.count)
        var seen = Set<String>()
        for r in results {
            guard let url = r.url, let id = trailingID(url), id > 0 else { continue }
            guard let name = checked(r.name, "a list entry", dropped) else { continue }
            guard seen.insert(name).inserted else { dropped("dropped a second list entry named \(name)"); continue }
            items.append(.init(id: id, name: name))
        }
        return PokemonIndex(items: items, total: count)
    }

    /// Removes the API's form feeds, soft hyphens and hard line breaks, and folds spaces (a
    /// line break between Chinese or Japanese letters is joined as they are read:
    /// ``FlavorText/joined(_:)``).
    ///
    /// On the text's UTF-8 bytes (a string built a scalar at a time was 1.5 % of a sync): the
    /// spaces are ASCII but for U+00A0, which with U+00AD is `C2` and one byte, and no other
    /// scalar's bytes are `C2` or below `0x21` but its own.
    public static func cleanFlavorText(_ text: String) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        var lastWasSpace = true, afterC2 = false
        func space() {
            if !lastWasSpace { out.append(0x20); lastWasSpace = true }
        }
        for b in text.utf8 {
            if afterC2 {
                afterC2 = false
                switch b {
                case 0xA0: space()  // no-break space
                case 0xAD: break  // soft hyphen
                default: out += [0xC2, b]; lastWasSpace = false
                }
                continue
            }
            switch b {
            case 0x0C, 0x0A, 0x0D, 0x09, 0x20: space()
            case 0xC2: afterC2 = true
            default: out.append(b); lastWasSpace = false
            }
        }
        if out.last == 0x20 { out.removeLast() }
        return String(decoding: out, as: UTF8.self)
    }
}
