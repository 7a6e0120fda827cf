import Foundation
import Glibc
import PokedexProtocol

/// One caller on a connection of its own, as a script is: `busctl call` in the background. It
/// can leave the bus mid-call (killed), as a person's Ctrl-C does.
final class BusCaller {
    private let process = Process()
    private let out = Pipe()
    private let err = Pipe()

    /// Calls `member` of the service with `signature` and `args`, as busctl spells them.
    init(bus: PrivateBus, _ member: String, _ signature: String = "", _ args: [String] = []) throws {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/busctl")
        process.arguments = ["--address=" + bus.address, "--timeout=60", "call", Pokedex1.busName, Pokedex1.objectPath,
                             Pokedex1.interfaceName, member] + (signature.isEmpty ? [] : [signature] + args)
        process.standardOutput = out
        process.standardError = err
        try process.run()
    }

    /// Leaves the bus now, the call unanswered.
    func leave() {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// Whether the call was answered (busctl exited).
    var answered: Bool { !process.isRunning }

    /// The answer: busctl's exit status, what it printed and what it said on stderr.
    func answer() -> (status: Int32, out: String, err: String) {
        let o = out.fileHandleForReading.readDataToEndOfFile()
        let e = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: o, as: UTF8.self), String(decoding: e, as: UTF8.self))
    }
}
