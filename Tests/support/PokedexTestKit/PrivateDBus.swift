import Foundation
import Glibc
import PokedexLocks

/// A dbus-daemon of a test's own, from `Tests/support/dbus/test-bus.conf` (no service
/// directories: an installed pokedexd is never activated in place of this build's), its address
/// exported as `DBUS_SESSION_BUS_ADDRESS` for the test's process. The integration harness and
/// the bus server's unit tests both start theirs here.
///
/// Each daemon is also stopped when the test process exits: XCTest keeps test-case objects
/// alive to the end, and a fixture that outlives its test (captured by a closure or a thread)
/// never runs its deinit, so its dbus-daemon was left running, 71 of them after one CI run.
public enum PrivateDBus {
    public struct NoAddress: Error, CustomStringConvertible {
        public var description: String { "dbus-daemon printed no address" }
    }

    /// The running daemon and its address.
    public static func start() throws -> (daemon: Process, address: String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/dbus-daemon")
        p.arguments = ["--config-file=" + PackageRoot.path + "/Tests/support/dbus/test-bus.conf", "--nofork", "--print-address=1"]
        let out = Pipe()
        p.standardOutput = out
        p.standardError = FileHandle.nullDevice
        try p.run()
        Started.keep(p)
        var line = Data()
        while !line.contains(0x0A) {
            let chunk = out.fileHandleForReading.availableData
            guard !chunk.isEmpty else {
                p.terminate()
                throw NoAddress()
            }
            line.append(chunk)
        }
        let address = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        setenv("DBUS_SESSION_BUS_ADDRESS", address, 1)
        return (p, address)
    }
}

/// Every dbus-daemon started in this process, stopped at its exit.
private enum Started {
    private static let daemons = Mutex<[Process]?>(nil)

    static func keep(_ p: Process) {
        let first = daemons.withLock { d -> Bool in
            defer { d = (d ?? []) + [p] }
            return d == nil
        }
        if first { atexit { Started.stopAll() } }
    }

    static func stopAll() {
        for p in daemons.withLock({ $0 ?? [] }) where p.isRunning { kill(p.processIdentifier, SIGTERM) }
    }
}
