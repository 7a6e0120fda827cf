import PokedexBusClient
import PokedexModels

extension Context {
    /// Runs a conversation with the service, turning any bus error into a ``Failure``.
    /// Unless `starting` is false, a service that cannot answer is reported at once, before
    /// anything is asked of it, with why: stopped (`SIGSTOP`), not starting (systemd's reason,
    /// ``PokedexClient/serviceProblem(activation:)``), rather than after a call's timeout. A call
    /// waits as long as the service's own deadline and a margin (``ServiceDefaults/clientWait``).
    func withClient<T>(starting: Bool = true, _ body: (any PokedexService) throws(BusError) -> T) throws -> T {
        let client: any PokedexService
        do { client = try connect() } catch { throw Failure(error, words: words) }
        if starting, let why = client.readiness(words: words) {
            throw Failure(message: why, code: .unavailable)
        }
        do {
            return try body(client)
        } catch where error.isTimeout {
            // It stopped while it answered (or the bus did): say which, and that the call may still land.
            let w = words
            let why = client.stoppedService(words: w) ?? w.trf("pokedexd did not answer within %s s; see 'journalctl --user -u pokedex'", String(Int(client.timeout)))
            throw Failure(message: why + "; " + w.tr("what was asked may still be done when it answers again"), code: .unavailable)
        } catch {
            throw Failure(error, words: words, naming: Self.naming(error, language: language, client))
        }
    }

    /// How the Pokémon an error's message names by identifier are named in `language`: looked
    /// up (two calls, from memory there) only where the service itself answered with the error.
    static func naming(_ error: BusError, language: String, _ c: any PokedexService) -> (String) -> String? {
        guard error.name.hasPrefix(PokedexError.namePrefix) else { return { _ in nil } }
        return { identifier in
            guard let entry = exactEntry(identifier, c), entry.name == identifier else { return nil }
            return names([entry.id], language: language, c)[entry.id]
        }
    }

    /// Decodes a reply already received; a shape this pokectl does not know is reported as such.
    func decoded<T>(_ body: () throws(BusError) -> T) throws -> T {
        do {
            return try body()
        } catch {
            throw Failure(message: words.trf("the service's reply was not what this pokectl expects (%s); are pokectl and pokedexd the same version?", error.message), code: .unavailable)
        }
    }

    /// The detail in ``language``, as the service sends it (every key, for `--json`); in English
    /// from a service started before an upgrade, which does not know `LocalizedDetail`.
    static func detail(_ pokemon: String, language: String, _ c: any PokedexService) throws(BusError) -> [BusValue] {
        do {
            return try c.values(Pokedex1.localizedDetail, (pokemon, language))
        } catch {
            guard error.name == BusError.Name.unknownMethod else { throw error }
            return try c.values(Pokedex1.detail, pokemon)
        }
    }

    /// The names of `ids` as the games write them, in `language`; empty from a service too old
    /// to give them (the identifiers are printed then).
    static func names(_ ids: [UInt32], language: String, _ c: any PokedexService) -> [UInt32: String] {
        guard !ids.isEmpty, let names = try? c.call(Pokedex1.displayNames, (ids, language)) else { return [:] }
        return Dictionary(names.map { ($0.id, $0.displayName) }, uniquingKeysWith: { a, _ in a })
    }

    func detail(_ pokemon: String, _ c: any PokedexService) throws(BusError) -> [BusValue] { try Self.detail(pokemon, language: language, c) }
    func names(_ ids: [UInt32], _ c: any PokedexService) -> [UInt32: String] { Self.names(ids, language: language, c) }

    /// Which Pokémon "No. 25" or "Pikachu" named, for --json: the exact match, from memory by
    /// the time a command asks (its own call resolved it).
    static func exactEntry(_ pokemon: String, _ c: any PokedexService) -> ListEntry? {
        (try? c.call(Pokedex1.searchDetailed, (pokemon, 1)))?.first.flatMap { $0.match == "exact" ? $0.entry : nil }
    }
}
