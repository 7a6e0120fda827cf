import Foundation
@testable import PokedexCore
import PokedexModels
import PokedexTestKit
import PropertyBased
import Testing

/// The desktop's search as GNOME Shell 43 calls it (js/ui/search.js, remoteSearch.js), typed as
/// people type: a query drawn from the real names in several languages, numbers as written and
/// filters, typed in random bursts, with backspaces, pauses and restarts of the service.
///
/// GNOME waits 150 ms after a key before it searches. It then calls `GetSubsearchResultSet`
/// when the new text starts with the text it last searched, handing back what it kept of that
/// search: the answer, capped at 20; an empty list when that search was still pending as the
/// next key came (cancelled, it reads as `[]`); or the answer to other words (a backspace, then a
/// letter, within 150 ms). Else it calls `GetInitialResultSet`. It asks a row's metas once.
///
/// Invariants, however it was typed: the list GNOME ends with is what a fresh search for the
/// final words gives, and every row it shows is whole (name, types, sprite). A failure prints
/// the seed that replays it.
@Suite struct GnomeShellSearchProperties {
    /// One person typing one query: the keys, where they pause, where the service restarts.
    struct Typing: Sendable, CustomStringConvertible {
        var query: String
        var language: String
        /// Per key: 0 a burst (the next key within 150 ms), 1 a pause (GNOME searches), 2 a
        /// backspace then the key again within 150 ms, 3 a restart of the service after the key.
        var rhythm: [Int]
        /// Per search, what GNOME kept of the previous one: 0 the answer, 1 nothing (it was
        /// pending), 2 the answer capped to its first few.
        var kept: [Int]
        var description: String { "\(language) \"\(query)\" rhythm \(rhythm) kept \(kept)" }
    }

    static let languages = ["en", "de", "ja"]

    /// A query as a person would type it: a name, whole or its start, in one of the languages
    /// the table has; a number as written; or a filter.
    static func query(_ pick: Int, _ length: Int, _ language: Int, _ form: Int) -> String {
        let ids = TablePokeAPI.ids
        let id = ids[pick % ids.count]
        switch form % 10 {
        case 0: return ["#\(id % 1025 + 1)", "\(id % 1025 + 1)", "No. \(id % 1025 + 1)", "#0\(id % 99 + 1)"][pick % 4]
        case 1: return ["type:fire", "type:feuer", "type:water", "gen:1", "type:ghost"][pick % 5]
        default:
            let languages = ["en", "de", "ja", "fr", "ko", "zh-hant", "ja-hrkt"]
            let names = BundledNames.entries[id]!.names
            let name = names[languages[language % languages.count]] ?? names["en"]!
            let letters = Array(name)
            return String(letters.prefix(max(2, min(letters.count, length))))
        }
    }

    static let typing = zip(Gen.int(in: 0...100_000), Gen.int(in: 2...14), Gen.int(in: 0...100), Gen.int(in: 0...100),
                            Gen.int(in: 0...2), Gen.int(in: 0...11).array(of: 40), Gen.int(in: 0...2).array(of: 40))
        .map { pick, length, language, form, serviceLanguage, rhythm, kept in
            Typing(query: query(pick, length, language, form), language: languages[serviceLanguage],
                   rhythm: rhythm.map { $0 < 6 ? 0 : $0 < 9 ? 1 : $0 < 11 ? 2 : 3 }, kept: kept)
        }

    @Test(arguments: PropertyCounts.shards)
    func whateverTheRhythmTheListIsAFreshSearchsAndEveryRowIsWhole(shard: Int) async throws {
        let api = TablePokeAPI()
        await propertyCheck(count: PropertyCounts.share(of: PropertyCounts.services), input: Self.typing) { typing in
            let dir = temporaryDirectory()
            defer { try? FileManager.default.removeItem(atPath: dir) }
            let failures = await Self.type(typing, api: api, dir: dir)
            #expect(failures.isEmpty, "\(typing): \(failures.joined(separator: "; "))")
        }
    }

    static func service(_ api: TablePokeAPI, dir: String, language: String) throws -> PokedexService {
        var config = ServiceConfiguration(apiURL: TablePokeAPI.base, spriteHosts: [TablePokeAPI.spriteHost],
                                          cacheDirectory: dir + "/cache", dataDirectory: dir + "/data",
                                          spriteURLTemplate: "https://\(TablePokeAPI.spriteHost)/{id}.png", prefetch: false)
        config.language = language
        return PokedexService(configuration: config, client: api, store: try FileCacheStore(directory: config.cacheDirectory, capacity: 1 << 26),
                              favorites: try FavoritesBook(persistence: MemoryFavoritesPersistence()))
    }

    /// Types `typing.query` as GNOME Shell hears it; returns what went wrong.
    static func type(_ typing: Typing, api: TablePokeAPI, dir: String) async -> [String] {
        guard var s = try? service(api, dir: dir, language: typing.language) else { return ["no service"] }
        var text = ""
        var lastSearched: String?
        var kept: [String]?
        var searches = 0
        var shown: [String] = []
        func search(final: Bool) async -> String? {
            let terms = text.split(whereSeparator: \.isWhitespace).map(String.init)
            guard !terms.isEmpty else { lastSearched = nil; kept = nil; return nil }
            let sub = lastSearched.map { text.hasPrefix($0) } == true && kept != nil
            do {
                let answer = try await (sub ? s.desktopSubsearch(kept!, terms) : s.desktopResults(terms)).value()
                let how = final ? 0 : typing.kept[searches % typing.kept.count]
                kept = how == 1 ? [] : how == 2 ? Array(answer.prefix(searches % 5)) : answer
                searches += 1
                lastSearched = text
                shown = answer
                return nil
            } catch {
                return "\(sub ? "GetSubsearchResultSet" : "GetInitialResultSet")(\(terms)) failed: \(error.message)"
            }
        }
        let keys = Array(typing.query)
        for (i, key) in keys.enumerated() {
            let rhythm = typing.rhythm[i % typing.rhythm.count]
            if rhythm == 2 {
                text.append("x")  // a slip of the finger, taken back within 150 ms
                if let e = await search(final: false) { return [e] }
                text.removeLast()
            }
            text.append(key)
            if rhythm == 1, i < keys.count - 1, let e = await search(final: false) { return [e] }
            if rhythm == 3 {
                s.finishWrites()
                guard let restarted = try? service(api, dir: dir, language: typing.language) else { return ["no service after a restart"] }
                s = restarted
            }
        }
        if let e = await search(final: true) { return [e] }
        var failures: [String] = []
        let terms = text.split(whereSeparator: \.isWhitespace).map(String.init)
        let fresh = (try? await s.desktopResults(terms).value()) ?? ["(failed)"]
        if shown != fresh { failures.append("GNOME ends with \(shown.prefix(8)), a fresh search gives \(fresh.prefix(8))") }
        // The rows GNOME draws (its list shows five), asked once: each whole.
        let metas = (try? await s.desktopMetas(Array(shown.prefix(5))).value()) ?? []
        if metas.map({ String($0.id) }) != Array(shown.prefix(5)) { failures.append("metas for \(shown.prefix(5)) gave \(metas.map(\.id))") }
        for m in metas {
            let types = TablePokeAPI.types(of: m.id).count
            if m.name.isEmpty { failures.append("#\(m.id) has no name") }
            if m.description.components(separatedBy: " · ").count < 2 { failures.append("#\(m.id) has no types: \"\(m.description)\"") }
            if types == 2, !m.description.contains(" / ") { failures.append("#\(m.id) lost a type: \"\(m.description)\"") }
            if m.spritePath.isEmpty || !FileManager.default.fileExists(atPath: m.spritePath) { failures.append("#\(m.id) has no sprite") }
        }
        return failures
    }
}
