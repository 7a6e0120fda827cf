/// Which program the one installed binary is, by the name it was started by (argv[0]'s last
/// component): pokectl only by that exact name, so a service started as /usr/bin/pokedexd, by a
/// unit, by D-Bus or by a renamed copy, is always the service.
enum MultiCall: Equatable {
    case pokedexd
    case pokectl

    static func program(named argv0: String) -> MultiCall {
        argv0.split(separator: "/", omittingEmptySubsequences: false).last == "pokectl" ? .pokectl : .pokedexd
    }
}
