import PokedexLocks
import PokedexNetwork

/// `RandomSprite`: a Pokémon drawn at random with its sprite, for a fetch tool's logo at
/// shell start-up, where every millisecond shows.
///
/// Answered from the sprites already on disk: among the candidates (every Pokémon, or the
/// favorites) only those whose sprite is cached are drawn from, so a warm cache answers
/// without the network. Only a cache with none of them fetches one, within the call's deadline.
///
/// With probability `shinyChance` the shiny sprite is drawn, among the candidates whose shiny
/// sprite is cached; while none is, the default one is shown. Shiny sprites are not part of
/// a sync: after each answer that may draw one (a chance above 0) the shiny sprite of the
/// Pokémon shown is fetched in the background (unless pre-warming is off), so the pool grows
/// with use; a Pokémon without one is remembered by the fetcher's 404s.
final class RandomSprites: Sendable {
    /// A number in `0..<1`; injected so tests decide the draws.
    typealias Draw = @Sendable () -> Double

    private let catalog: Catalog
    private let favorites: FavoritesBook
    private let sprites: Sprites
    private let warmsShiny: Bool
    private let draw: Draw
    private let log: Logger
    private let background: BackgroundWork

    init(catalog: Catalog, favorites: FavoritesBook, sprites: Sprites, warmsShiny: Bool, background: BackgroundWork,
         draw: @escaping Draw = RandomSprites.fastDraw(), log: @escaping Logger) {
        self.background = background
        self.catalog = catalog
        self.favorites = favorites
        self.sprites = sprites
        self.warmsShiny = warmsShiny
        self.draw = draw
        self.log = log
    }

    /// Draws from a SplitMix64 generator seeded once from the system's: a shuffle of 1,351
    /// takes microseconds, where asking the kernel for each number took milliseconds.
    static func fastDraw() -> Draw {
        let generator = Mutex(SplitMix64(seed: UInt64.random(in: .min ... .max)))
        return {
            let z = generator.withLock { $0.next() }
            return Double(z >> 11) * 0x1.0p-53
        }
    }

    /// Checks `shinyChance` (a probability, 0…1).
    static func check(shinyChance: Double) throws(PokedexError) {
        guard shinyChance.isFinite, (0...1).contains(shinyChance) else {
            throw .invalidArgument("the shiny chance must be a probability between 0 and 1, not \(shinyChance)")
        }
    }

    func pick(favoritesOnly: Bool, shinyChance: Double) async throws(PokedexError) -> RandomSprite {
        let candidates: [PokemonIndex.Item]
        if favoritesOnly {
            candidates = await favorites.all().map { PokemonIndex.Item(id: $0.id, name: $0.name) }
            guard !candidates.isEmpty else {
                throw .notFound(ServiceMessages.noFavoritesToPick)
            }
        } else {
            candidates = try await catalog.index().items
            guard !candidates.isEmpty else { throw .unavailable("the Pokémon list is empty") }
        }
        let order = shuffled(candidates)
        if shinyChance > 0, draw() < shinyChance, let (item, path) = firstOnDisk(order, in: sprites.shiny) {
            return RandomSprite(id: item.id, name: item.name, path: path, shiny: true)
        }
        if let (item, path) = firstOnDisk(order, in: sprites.still) {
            if shinyChance > 0 { warmShiny(item) }
            return RandomSprite(id: item.id, name: item.name, path: path, shiny: false)
        }
        // A cache with none of them: one from the network, within the call's deadline.
        let item = order[0]
        let path = try await sprites.ensure(item)
        if shinyChance > 0 { warmShiny(item) }
        return RandomSprite(id: item.id, name: item.name, path: path, shiny: false)
    }

    /// The first item in `order` whose sprite is on disk: those known absent are skipped
    /// without touching the disk, the others cost a `stat` or a read of one small file.
    private func firstOnDisk(_ order: [PokemonIndex.Item], in cache: SpriteCache) -> (PokemonIndex.Item, String)? {
        for item in order where cache.knownPath(item.id) != "" {
            let path = cache.pathOnDisk(item.id)
            if !path.isEmpty { return (item, path) }
        }
        return nil
    }

    /// Fisher–Yates with the injected draw.
    private func shuffled(_ items: [PokemonIndex.Item]) -> [PokemonIndex.Item] {
        var a = items
        for i in stride(from: a.count - 1, to: 0, by: -1) {
            a.swapAt(i, min(i, Int(draw() * Double(i + 1))))
        }
        return a
    }

    /// Fetches the shiny sprite of `item` at background priority, unless it is on disk.
    private func warmShiny(_ item: PokemonIndex.Item) {
        guard warmsShiny, sprites.shiny.knownPath(item.id)?.isEmpty ?? true else { return }
        background.run(.background) { [sprites, log] in
            await withPriority(.background) {
                do { _ = try await sprites.ensureShiny(item) } catch { log(.debug, "no shiny sprite for \(item.name): \(error)") }
            }
        }
    }
}
