import PokectlKit

// One binary, two programs. Installed, /usr/bin/pokectl is a link to pokedexd, so the Swift
// runtime linked into it (about 13 MB) is shipped once: started as "pokectl" it is pokectl
// (PokectlProgram, as the build's own pokectl binary runs it), by any other name the service.
switch MultiCall.program(named: CommandLine.arguments.first ?? "") {
case .pokectl: PokectlProgram.main(Array(CommandLine.arguments.dropFirst()))
case .pokedexd: Pokedexd.main()
}
