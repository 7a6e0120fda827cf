/// The project's version, shared by pokedexd and pokectl.
public enum PokedexVersion {
    public static let current = "0.1.0"
    /// The User-Agent every request of pokedexd sends.
    public static let userAgent = "pokedexd/\(current) (+https://github.com/pokedexd/pokedexd)"
}
