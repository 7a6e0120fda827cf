/// What one file of the disk tier holds, as `CacheStats` counts it and `VerifyCache` repairs it.
enum CacheItem: Hashable, Sendable {
    case index
    case pokemon(UInt32)
    case species(UInt32)
    case filters
    /// A type's, an ability's or a stat's names (`names-{kind}/{name}`).
    case names(NamedKind, String)
    /// A Pokémon's form record (`form/{id}`).
    case form(UInt32)
    /// An evolution family (`evolution/{chain id}`).
    case evolution(UInt32)
    /// A move's record.
    case move(UInt32)
    /// A sprite's image file.
    case sprite(UInt32, SpriteVariant)
    /// A sprite's metadata record (`sprite/{id}`, `sprite-animated/{id}`, `sprite-shiny/{id}`).
    case spriteMeta(UInt32, SpriteVariant)
    /// A record under a key this service does not write.
    case otherRecord(String)
    /// A file that belongs to nothing: a stray, a sprite file of no kind.
    case orphan

    /// Which item a file is; the sprite caches know their files' names.
    static func of(_ file: CachedFile, sprites: Sprites) -> CacheItem {
        switch file.kind {
        case .stray: return .orphan
        case .sprite:
            for variant in SpriteVariant.allCases {
                if let id = sprites.cache(variant).id(ofFile: file.name) { return .sprite(id, variant) }
            }
            return .orphan
        case .record: return of(key: file.name, sprites: sprites)
        }
    }

    /// Which item a record key is: the inverse of the keys the tiers write.
    static func of(key: String, sprites: Sprites) -> CacheItem {
        if key == APIRoutes.indexKey { return .index }
        if key == ResourceLoader.filtersKey { return .filters }
        for variant in SpriteVariant.allCases {
            if let id = sprites.cache(variant).id(ofMetaKey: key) { return .spriteMeta(id, variant) }
        }
        if let last = key.split(separator: "/").last, let id = UInt32(last) {
            if APIRoutes.pokemonKey(id) == key { return .pokemon(id) }
            if APIRoutes.speciesKey(id) == key { return .species(id) }
            if APIRoutes.formKey(id) == key { return .form(id) }
            if APIRoutes.evolutionKey(id) == key { return .evolution(id) }
            if APIRoutes.moveKey(id) == key { return .move(id) }
        }
        for kind in NamedKind.allCases {
            let prefix = APIRoutes.namesKey(kind, "")
            if key.hasPrefix(prefix), APIName.isValid(String(key.dropFirst(prefix.count))) {
                return .names(kind, String(key.dropFirst(prefix.count)))
            }
        }
        return .otherRecord(key)
    }

    var kind: CacheKind {
        switch self {
        case .index: return .list
        case .pokemon: return .pokemon
        case .species: return .species
        case .filters: return .filters
        case .names, .form: return .names
        case .evolution: return .evolutionChains
        case .move: return .moves
        case .sprite(_, .still), .spriteMeta(_, .still): return .sprites
        case .sprite(_, .animated), .spriteMeta(_, .animated): return .animatedSprites
        case .sprite(_, .shiny), .spriteMeta(_, .shiny): return .shinySprites
        case .sprite(_, .cry), .spriteMeta(_, .cry): return .cries
        case .otherRecord, .orphan: return .other
        }
    }

    /// Whether it counts as one resource of its kind: a sprite's metadata record only adds
    /// its bytes, and its dates to its image's.
    var counts: Bool {
        if case .spriteMeta = self { return false }
        return true
    }
}
