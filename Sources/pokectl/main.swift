import PokectlKit

// pokectl, as the build's own binary (the tests' and a developer's). Installed, pokectl is a
// link to pokedexd, which runs the same PokectlProgram when started by that name (MultiCall).
PokectlProgram.main(Array(CommandLine.arguments.dropFirst()))
