/// The names of the Pokédex D-Bus API.
public enum PokedexBusNames {
    /// The well-known bus name on the session bus.
    public static let busName = "io.github.pokedexd.Pokedex1"
    /// The one object.
    public static let objectPath = "/io/github/pokedexd/Pokedex1"
    /// The one interface.
    public static let interface = "io.github.pokedexd.Pokedex1"
}
