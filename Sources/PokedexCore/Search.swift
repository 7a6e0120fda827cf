/// Baseline search over the index: an exact number or name ranks first, then names
/// that start with the query, then names that contain it; API order within a rank.
public enum Search {
    /// Items matching `query` (already trimmed and lower-cased), best first, at most `limit`.
    public static func rank(_ query: String, in index: PokemonIndex, limit: Int) -> [PokemonIndex.Item] {
        var exact: [PokemonIndex.Item] = []
        var prefix: [PokemonIndex.Item] = []
        var substring: [PokemonIndex.Item] = []
        let number = UInt32(query)
        for item in index.items {
            if item.name == query || item.id == number {
                exact.append(item)
            } else if item.name.hasPrefix(query) {
                prefix.append(item)
            } else if item.name.contains(query) {
                substring.append(item)
            }
        }
        return Array((exact + prefix + substring).prefix(limit))
    }
}
