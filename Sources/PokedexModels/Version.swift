/// The project's version, shared by pokedexd and pokectl. `changelogVersion` is generated at
/// build time from debian/changelog (Plugins/ChangelogVersion): a release changes only the
/// changelog.
public enum PokedexVersion {
    public static let current = changelogVersion
    /// The User-Agent every request of pokedexd sends.
    public static let userAgent = "pokedexd/\(current) (+https://github.com/pokedexd/pokedexd)"
}
