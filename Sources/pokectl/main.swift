import PokectlKit

// pokectl: parse the arguments, build the context the command runs in, run it, exit with its
// code (PokectlProgram.main). Everything else is PokectlKit's, where XCTests run each command.
PokectlProgram.main(Array(CommandLine.arguments.dropFirst()))
