import PokedexLocks

/// Where a default sprite is guessed to be before a `pokemon` body names it: the
/// configured pattern, or PokeAPI's, refined by the bodies seen.
final class SpriteURLPattern: Sendable {
    private let configured: Bool
    private let template: Mutex<String>

    init(configured: String?) {
        self.configured = configured != nil
        template = Mutex(configured ?? ServiceConfiguration.defaultSpriteURLTemplate)
    }

    func guess(_ id: UInt32) -> String {
        template.withLock { $0 }.replacingOccurrences(of: "{id}", with: String(id))
    }

    /// A body that names its sprite `…/{its id}.png` teaches the pattern (unless configured).
    func learn(from record: PokemonRecord) {
        guard !configured, let url = record.spriteURL, url.hasSuffix("/\(record.id).png") else { return }
        let learned = String(url.dropLast("\(record.id).png".count)) + "{id}.png"
        template.withLock { $0 = learned }
    }
}

/// The default and animated sprites: paths known in memory, on disk, or fetched.
final class Sprites: Sendable {
    let still: SpriteCache
    let animated: SpriteCache
    private let records: Records
    private let pattern: SpriteURLPattern
    private let log: Logger

    init(still: SpriteCache, animated: SpriteCache, records: Records, pattern: SpriteURLPattern, log: @escaping Logger) {
        self.still = still
        self.animated = animated
        self.records = records
        self.pattern = pattern
        self.log = log
    }

    /// The default sprite's path, fetching it if needed: from the URL the cached body names,
    /// else the guessed pattern (no 300–600 KB body needed), falling back to the body's URL
    /// when the guess fails.
    func ensure(_ item: PokemonIndex.Item) async throws(PokedexError) -> String {
        let onDisk = still.pathOnDisk(item.id)
        if !onDisk.isEmpty { return onDisk }
        let known = records.pokemonOnHand(item.id)
        if let known, known.spriteURL == nil { throw .notFound("\(item.name) has no default sprite") }
        do {
            return try await still.ensure(item.id, url: known?.spriteURL ?? pattern.guess(item.id))
        } catch where known == nil && !Task.isCancelled {
            // The guess missed (404, or a host that is not allowed): the body names the URL.
            let record = try await records.pokemon(item)
            guard let url = record.spriteURL else { throw .notFound("\(item.name) has no default sprite") }
            do {
                return try await still.ensure(item.id, url: url)
            } catch {
                throw PokedexError.wrap(error, context: "the sprite of \(item.name) is not available")
            }
        } catch {
            throw PokedexError.wrap(error, context: "the sprite of \(item.name) is not available")
        }
    }

    /// The default sprite's path, or "" where the API names none or it cannot be had now.
    func stillPathIfAny(_ record: PokemonRecord) async -> String {
        await pathIfAny(in: still, record.id, url: record.spriteURL, for: record.name)
    }

    /// The animated GIF's path, fetched on demand; "" where the API names none or it cannot be had now.
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
