import Glibc
import PokectlKit

// pokectl: the arguments parsed, the command run, its exit code. Everything else (the commands,
// their context, their output, browse) is PokectlKit's, where XCTests reach it.
exit(PokectlProgram.run(Array(CommandLine.arguments.dropFirst())))
