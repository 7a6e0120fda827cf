/// The project's version, shared by pokedexd and pokectl. debian/changelog's newest entry is
/// the release's version: `make check-generated`, `make release` and the Debian build refuse a
/// tree where this differs from it (tools/changelog-version --check).
public enum PokedexVersion {
    public static let current = "0.1.0"
    /// The User-Agent every request of pokedexd sends.
    public static let userAgent = "pokedexd/\(current) (+https://github.com/pokedexd/pokedexd)"
}
