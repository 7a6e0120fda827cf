import Glibc
import PokedexLocks
import PokedexModels

/// The service's own words in a caller's language, not the session's: a `LocalizedDetail` in
/// Japanese gets its family's conditions in Japanese whatever the service's locale. Each
/// language's compiled catalogue (`LANG/LC_MESSAGES/pokedexd.mo`) is read once, on first use,
/// by this reader (gettext has one language a process); a missing or damaged one is English.
public final class Catalogues: Sendable {
    private let directory: String
    private let loaded = Mutex<[String: Words]>([:])
    /// Far over the catalogues' size (about 60 KB): a file past it is not read.
    static let maxBytes = 4 << 20

    /// - Parameter directory: where the catalogues are (`Words.localeDirectory`).
    public init(directory: String) { self.directory = directory }

    /// The words of `language` (a PokeAPI code: "de", "ja-hrkt", "zh-hant"); English where no
    /// catalogue is installed for it.
    public func words(_ language: String) -> Words {
        guard let folder = Self.folder(language) else { return .english }
        if let known = loaded.withLock({ $0[folder] }) { return known }
        let table = Self.read("\(directory)/\(folder)/LC_MESSAGES/pokedexd.mo").map(MOCatalogue.parse) ?? [:]
        let words = table.isEmpty ? Words.english : Words(decimalSeparator: Self.decimalSeparator(folder)) { table[$0] ?? $0 }
        loaded.withLock { $0[folder] = words }
        return words
    }

    /// The catalogue's folder of a PokeAPI language code; nil for English.
    static func folder(_ language: String) -> String? {
        switch language.lowercased() {
        case "en", "ja-roma", "": return nil
        case "ja-hrkt": return "ja"
        case "zh-hans": return "zh_CN"
        case "zh-hant": return "zh_TW"
        case "es-419": return "es"
        case let code where code.allSatisfy({ $0.isASCII && $0.isLetter }) && code.count <= 3: return code
        default: return nil
        }
    }

    /// The languages that write a decimal comma.
    static func decimalSeparator(_ folder: String) -> String {
        ["de", "fr", "es", "it"].contains(folder) ? "," : "."
    }

    static func read(_ path: String) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0, errno == EINTR { continue }
            guard n >= 0 else { return nil }
            if n == 0 { return out }
            out += chunk[..<n]
            if out.count > maxBytes { return nil }
        }
    }
}

/// GNU gettext's compiled catalogue: msgid → msgstr, each up to its first NUL (a plural's
/// first form; the conditions have no plurals). Every offset is checked: a damaged file is
/// an empty table, never a trap.
enum MOCatalogue {
    static func parse(_ b: [UInt8]) -> [String: String] {
        guard b.count >= 28 else { return [:] }
        let little: Bool
        switch (b[0], b[1], b[2], b[3]) {
        case (0xde, 0x12, 0x04, 0x95): little = true
        case (0x95, 0x04, 0x12, 0xde): little = false
        default: return [:]
        }
        func word(_ at: Int) -> Int? {
            guard at >= 0, at <= b.count - 4 else { return nil }
            // The word's k-th byte from its low end (a function of fixed types: the eight
            // conversions and shifts written out took Swift 6.0 4.5 s to type-check).
            func byte(_ k: Int) -> UInt32 { UInt32(b[little ? at + k : at + 3 - k]) }
            let low: UInt32 = byte(0) | byte(1) << 8, high: UInt32 = byte(2) << 16 | byte(3) << 24
            return Int(low | high)
        }
        func string(_ table: Int, _ i: Int) -> String? {
            guard let length = word(table + 8 * i), let offset = word(table + 8 * i + 4),
                  offset <= b.count, length <= b.count - offset else { return nil }
            let bytes = b[offset..<(offset + length)]
            return String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
        }
        guard let count = word(8), let originals = word(12), let translations = word(16), count <= b.count / 8 else { return [:] }
        var out: [String: String] = [:]
        for i in 0..<count {
            guard let id = string(originals, i), let text = string(translations, i) else { return [:] }
            if !id.isEmpty, !text.isEmpty { out[id] = text }
        }
        return out
    }
}
