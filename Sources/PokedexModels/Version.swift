/// The project's version, shared by pokedexd and pokectl.
public enum PokedexVersion {
    public static let current = "0.1.0"
}
