import Glibc
import PokectlKit

// pokectl: parse the arguments, build the context the command runs in (the terminal, the
// reader's language, stdout and stderr, the session bus), run it, exit with its code.
// Everything else is PokectlKit's, where XCTests run each command with a fake service.
switch PokectlProgram.parse(Array(CommandLine.arguments.dropFirst())) {
case .exit(let code):
    exit(code)
case .run(let command):
    let context = PokectlProgram.context(for: command)
    let code = PokectlProgram.run(command, in: context)
    fflush(nil)
    exit(code)
}
