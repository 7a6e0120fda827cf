import PokedexLocks
import PokedexNetwork

/// Where a default sprite is guessed to be before a `pokemon` body names it: the
/// configured pattern, or PokeAPI's, refined by the bodies seen.
final class SpriteURLPattern: Sendable {
    private struct State {
        var template: String
        /// Whether a body confirmed the template: bodies then name sprites on its host.
        var confirmed: Bool
    }

    private let configured: Bool
    private let state: Mutex<State>

    init(configured: String?) {
        self.configured = configured != nil
        state = Mutex(State(template: configured ?? ServiceConfiguration.defaultSpriteURLTemplate, confirmed: false))
    }

    func guess(_ id: UInt32) -> String {
        state.withLock { $0.template }.replacing("{id}", with: String(id))
    }

    /// Whether the bodies seen name their sprites on this host (so fetching another body
    /// to find a sprite there is no use while the host is down).
    func bodiesName(host: String) -> Bool {
        state.withLock { $0.confirmed && HostHealth.authority($0.template) == host }
    }

    /// Where PokeAPI's sprite repository keeps the shiny sprite beside the default one:
    /// `…/pokemon/{id}.png` → `…/pokemon/shiny/{id}.png`; nil for a pattern of another shape.
    func shinyGuess(_ id: UInt32) -> String? {
        let still = guess(id), file = "/\(id).png"
        guard still.hasSuffix(file) else { return nil }
        return String(still.dropLast(file.count)) + "/shiny" + file
    }

    /// A body that names its sprite `…/{its id}.png` teaches the pattern; a configured
    /// pattern is only confirmed, by a body that names its host.
    func learn(from record: PokemonRecord) {
        guard let url = record.spriteURL, url.hasSuffix("/\(record.id).png") else { return }
        state.withLock { s in
            if configured {
                if HostHealth.authority(url) == HostHealth.authority(s.template) { s.confirmed = true }
            } else {
                s = State(template: String(url.dropLast("\(record.id).png".count)) + "{id}.png", confirmed: true)
            }
        }
    }
}

/// The default, animated and shiny sprites: paths known in memory, on disk, or fetched.
final class Sprites: Sendable {
    let still: SpriteCache
    let animated: SpriteCache
    let shiny: SpriteCache
    let cry: SpriteCache
    private let records: Records
    private let pattern: SpriteURLPattern
    private let log: Logger
    /// One body at a time per unreachable host, to learn whether bodies name it.
    private let learning = SingleFlight<String, Void>()

    init(still: SpriteCache, animated: SpriteCache, shiny: SpriteCache, cry: SpriteCache, records: Records, pattern: SpriteURLPattern,
         log: @escaping Logger) {
        self.still = still
        self.animated = animated
        self.shiny = shiny
        self.cry = cry
        self.records = records
        self.pattern = pattern
        self.log = log
    }

    /// The cache that keeps this variant.
    func cache(_ variant: SpriteVariant) -> SpriteCache {
        switch variant {
        case .still: return still
        case .animated: return animated
        case .shiny: return shiny
        case .cry: return cry
        }
    }

    /// The default sprite's path, fetching it if needed: from the URL the cached body names,
    /// else the guessed pattern (no 300–600 KB body needed), falling back to the body's URL
    /// when the guess fails. A body is not fetched when the guess failed because its host is
    /// down and the bodies seen name that same host: it would name the failing host again.
    func ensure(_ item: PokemonIndex.Item) async throws(PokedexError) -> String {
        let onDisk = still.pathOnDisk(item.id)
        if !onDisk.isEmpty { return onDisk }
        let known = records.pokemonOnHand(item.id)
        if let known, known.spriteURL == nil { throw .notFound(ServiceMessages.format(ServiceMessages.noDefaultSprite, item.name)) }
        var guess = known?.spriteURL ?? pattern.guess(item.id)
        var guessFailure: any Error
        var guesses = 0
        /// A body seen meanwhile may have taught a better pattern: that is tried before any body.
        func betterGuess() -> Bool {
            guard pattern.guess(item.id) != guess, guesses < 3 else { return false }
            guess = pattern.guess(item.id)
            return true
        }
        while true {
            do {
                return try await still.ensure(item.id, url: guess)
            } catch {
                guessFailure = error
            }
            guesses += 1
            guard known == nil, !Task.isCancelled else {
                throw PokedexError.wrap(guessFailure, context: ServiceMessages.format(ServiceMessages.spriteUnavailable, item.name))
            }
            if betterGuess() { continue }
            let worth = await worthABody(afterGuessFailed: guess, guessFailure, item)
            if betterGuess() { continue }
            guard worth else { throw PokedexError.wrap(guessFailure, context: ServiceMessages.format(ServiceMessages.spriteUnavailable, item.name)) }
            break
        }
        // The guess missed (404, a host that is not allowed, or one that bodies may not name):
        // the body names the URL.
        let record = try await records.pokemon(item)
        guard let url = record.spriteURL else { throw .notFound(ServiceMessages.format(ServiceMessages.noDefaultSprite, item.name)) }
        do {
            return try await still.ensure(item.id, url: url)
        } catch {
            throw PokedexError.wrap(error, context: ServiceMessages.format(ServiceMessages.spriteUnavailable, item.name))
        }
    }

    /// Whether a body may still name a sprite elsewhere after the guess failed with `error`:
    /// not when the guess's host is unreachable and the bodies name that host. Until a body
    /// has said which host they name, one body (for all the guesses failing at once, on an
    /// unreachable host or one not allowed) finds out, and the pattern it teaches is tried next.
    private func worthABody(afterGuessFailed guess: String, _ error: any Error, _ item: PokemonIndex.Item) async -> Bool {
        guard let host = HostHealth.authority(guess) else { return true }
        switch error as? FetchError {
        case .hostDown?, .transport?, .deadline?, .hostNotAllowed?, .insecure?: break
        default: return true  // a 404: the body names the real URL
        }
        if !pattern.bodiesName(host: host) {
            _ = try? await learning.run(host) { [records, pattern] in
                // A body fetched since this guess was made may have taught the pattern already
                // (its flight ended a moment ago): the new guess goes first, not another body.
                guard pattern.guess(item.id) == guess else { return }
                _ = try await records.pokemon(item)
            }
        }
        return !pattern.bodiesName(host: host)
    }

    /// The default sprite's path, or "" where the API names none or it cannot be had now.
    func stillPathIfAny(_ record: PokemonRecord) async -> String {
        await pathIfAny(in: still, record.id, url: record.spriteURL, for: record.name)
    }

    /// The shiny sprite's path, fetching it if needed: from the URL the cached body names,
    /// else where PokeAPI keeps shiny sprites beside the default ones (`…/shiny/{id}.png`),
    /// so no 300–600 KB body is fetched for a 1 KB image.
    func ensureShiny(_ item: PokemonIndex.Item) async throws(PokedexError) -> String {
        let onDisk = shiny.pathOnDisk(item.id)
        if !onDisk.isEmpty { return onDisk }
        let url: String
        switch records.pokemonOnHand(item.id)?.shinySpriteURL {
        case ""?: throw .notFound(ServiceMessages.format(ServiceMessages.noShinySprite, item.name))
        case let named?: url = named
        case nil:
            guard let guess = pattern.shinyGuess(item.id) else { throw .notFound("where the shiny sprite of \(item.name) is is not known") }
            url = guess
        }
        do {
            return try await shiny.ensure(item.id, url: url)
        } catch {
            throw PokedexError.wrap(error, context: ServiceMessages.format(ServiceMessages.shinyUnavailable, item.name))
        }
    }

    /// The animated GIF's path, fetched on demand; "" where the API names none or it cannot be had now.
    /// The cry's path, fetching it if needed (`CryPath`): from the URL the record names; a
    /// record kept before cries were read is fetched again for it, once.
    func ensureCry(_ item: PokemonIndex.Item) async throws(PokedexError) -> String {
        let onDisk = cry.pathOnDisk(item.id)
        if !onDisk.isEmpty { return onDisk }
        var record = try await records.pokemon(item)
        if record.cryURL == nil { record = try await records.refetchPokemon(item) }
        guard let url = record.cryURL, !url.isEmpty else { throw .notFound(ServiceMessages.format(ServiceMessages.noCry, item.name)) }
        do {
            return try await cry.ensure(item.id, url: url)
        } catch {
            // The URL the record names answered 404: PokeAPI has no cry there, whatever the name.
            if case .notFound? = error as? FetchError { throw .notFound(ServiceMessages.format(ServiceMessages.noCry, item.name)) }
            throw PokedexError.wrap(error, context: ServiceMessages.format(ServiceMessages.cryUnavailable, item.name))
        }
    }

    func animatedPathIfAny(_ record: PokemonRecord) async -> String {
        await pathIfAny(in: animated, record.id, url: record.animatedSpriteURL, for: record.name)
    }

    private func pathIfAny(in cache: SpriteCache, _ id: UInt32, url: String?, for name: String) async -> String {
        guard let url else { return "" }
        do {
            return try await cache.ensure(id, url: url)
        } catch {
            log(.debug, "no \(cache.kind.noun) for \(name): \(error)")
            return ""
        }
    }

    /// A list row's sprite path from memory, or nil when it needs the disk.
    func knownPaths(_ ids: some Sequence<UInt32>) -> [String?] { still.knownPaths(ids) }

    /// A list row's sprite path, checking the disk when memory does not know.
    func pathCheckingDisk(_ id: UInt32) -> String { still.knownPath(id) ?? still.pathOnDisk(id) }

    /// Whether a valid default sprite is known to be on disk; never touches the disk.
    func isKnownOnDisk(_ id: UInt32) -> Bool {
        if case let path? = still.knownPath(id), !path.isEmpty { return true }
        return false
    }
}
