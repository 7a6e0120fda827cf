import FoundationEssentials
import PokedexModels

/// Reading a favorites file: the whole list when it is sound, else every entry that can still
/// be read from what is left of it (a truncated write, a hand edit gone wrong, a bad entry,
/// bytes that are not UTF-8, garbage appended).
///
/// A salvage finds each JSON object in the bytes (strings and their escapes skipped, so a
/// brace inside a name counts for nothing) and keeps the ones that decode as a favorite with a
/// valid id and name, the first of each id. It never fails: no entry is an empty list.
enum FavoritesSalvage {
    /// What was read: the favorites kept, how many entries the bytes held (kept or not), and
    /// whether the file was sound, so that nothing needs rewriting.
    struct Result: Equatable {
        var favorites: [Favorite]
        var entries: Int
        var sound: Bool
    }

    /// The file's shape, version 1. `notice` says what was done to the list the last time the
    /// file was found damaged, for as long as the damaged copy it names is kept.
    struct Body: Codable {
        var version: Int
        var favorites: [Favorite]
        var notice: FavoritesNotice?
    }

    /// The most read of a favorites file: a list of every Pokémon and form is about 130 KB, so a
    /// larger file is damaged, and its entries are salvaged from this much of its start.
    static let maxBytes = 4 << 20
    /// The most objects a salvage tries to decode: far more than any list holds, and a bound
    /// on the time a file of garbage can cost.
    static let maxAttempts = 50_000

    /// The list in `bytes`, whole or salvaged.
    static func read(_ bytes: [UInt8]) -> (Result, FavoritesNotice?) {
        if let body = try? JSONDecoder().decode(Body.self, from: Data(bytes)),
           body.favorites.allSatisfy(isValid), Set(body.favorites.map(\.id)).count == body.favorites.count {
            return (Result(favorites: body.favorites, entries: body.favorites.count, sound: true), body.notice)
        }
        return (salvage(bytes), nil)
    }

    /// A favorite this service could have written: a Pokédex id and PokeAPI's name for it.
    static func isValid(_ f: Favorite) -> Bool {
        f.id >= 1 && APIName.isValid(f.name) && f.added.isFinite
    }

    /// Every object in `bytes` that decodes as a valid favorite, in order, each id once;
    /// `entries` counts the objects found in a list (complete or cut off), and a lone one.
    static func salvage(_ bytes: [UInt8]) -> Result {
        struct Lenient: Decodable {
            var id: UInt32
            var name: String
            var added: Double?
        }
        var kept: [Favorite] = []
        var seen: Set<UInt32> = []
        // The containers open at this point: their opening byte and where it is.
        var open: [(byte: UInt8, at: Int)] = []
        var entries = 0
        var inString = false
        var escaped = false
        var attempts = 0
        scan: for (i, byte) in bytes.enumerated() {
            if inString {
                if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inString = false }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "["): open.append((byte, i))
            case UInt8(ascii: "{"):
                if open.last?.byte == UInt8(ascii: "[") { entries += 1 }
                open.append((byte, i))
            case UInt8(ascii: "]"):
                if open.last?.byte == UInt8(ascii: "[") { open.removeLast() }
            case UInt8(ascii: "}"):
                guard let last = open.last, last.byte == UInt8(ascii: "{") else { continue }
                open.removeLast()
                attempts += 1
                if attempts > maxAttempts { break scan }
                // Lossy: an entry with bytes that are not UTF-8 decodes with U+FFFD in its
                // name, which is then not valid: that entry alone is dropped.
                let text = String(decoding: bytes[last.at...i], as: UTF8.self)
                guard let e = try? JSONDecoder().decode(Lenient.self, from: Data(text.utf8)) else { continue }
                if open.isEmpty { entries += 1 }  // an entry with no list around it
                let f = Favorite(id: e.id, name: e.name, added: e.added ?? 0)
                if isValid(f), seen.insert(f.id).inserted { kept.append(f) }
            default: continue
            }
        }
        return Result(favorites: kept, entries: max(entries, kept.count), sound: false)
    }
}

/// What the service did the last time it found the favorites file damaged: `text` says it in
/// the service's words, `kept` is where the damaged original was kept. It is shown until that
/// copy is deleted or moved: the person has then seen it and chosen.
public struct FavoritesNotice: Codable, Sendable, Equatable {
    public var text: String
    public var kept: String

    public init(text: String, kept: String) {
        self.text = text
        self.kept = kept
    }
}
