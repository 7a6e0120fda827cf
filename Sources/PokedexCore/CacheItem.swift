/// What one file of the disk tier holds, as `CacheStats` counts it and `VerifyCache` repairs it.
enum CacheItem: Hashable, Sendable {
    case index
    case pokemon(UInt32)
    case species(UInt32)
    case filters
    /// A sprite's image file.
    case sprite(UInt32, animated: Bool)
    /// A sprite's metadata record (`sprite/{id}`, `sprite-animated/{id}`).
    case spriteMeta(UInt32, animated: Bool)
    /// A record under a key this service does not write.
    case otherRecord(String)
    /// A file that belongs to nothing: a stray, a sprite file of no kind.
    case orphan

    /// Which item a file is; the sprite caches know their files' names.
    static func of(_ file: CachedFile, still: SpriteCache, animated: SpriteCache) -> CacheItem {
        switch file.kind {
        case .stray: return .orphan
        case .sprite:
            if let id = still.id(ofFile: file.name) { return .sprite(id, animated: false) }
            if let id = animated.id(ofFile: file.name) { return .sprite(id, animated: true) }
            return .orphan
        case .record: return of(key: file.name, still: still, animated: animated)
        }
    }

    /// Which item a record key is: the inverse of the keys the tiers write.
    static func of(key: String, still: SpriteCache, animated: SpriteCache) -> CacheItem {
        if key == APIRoutes.indexKey { return .index }
        if key == ResourceLoader.filtersKey { return .filters }
        if let id = still.id(ofMetaKey: key) { return .spriteMeta(id, animated: false) }
        if let id = animated.id(ofMetaKey: key) { return .spriteMeta(id, animated: true) }
        if let last = key.split(separator: "/").last, let id = UInt32(last) {
            if APIRoutes.pokemonKey(id) == key { return .pokemon(id) }
            if APIRoutes.speciesKey(id) == key { return .species(id) }
        }
        return .otherRecord(key)
    }

    var kind: CacheKind {
        switch self {
        case .index: return .list
        case .pokemon: return .pokemon
        case .species: return .species
        case .filters: return .filters
        case .sprite(_, let animated), .spriteMeta(_, let animated): return animated ? .animatedSprites : .sprites
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
