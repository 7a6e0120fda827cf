import Foundation
import Glibc
import PokedexTestKit

/// A dbus-daemon of the test's own, with the project's test configuration (no service
/// directories: nothing installed is activated onto it), its address in
/// `DBUS_SESSION_BUS_ADDRESS` for the test's process; and `dbus-monitor` on it, recording every
/// reply, so a test can tell that each call was answered once.
final class PrivateBus {

    let address: String
    private let daemon: Process
    private var monitor: Process?
    private let monitorLines = MonitorLines()

    init() throws {
        let started = try PrivateDBus.start()
        daemon = started.daemon
        address = started.address
    }

    deinit {
        thaw()
        for p in [monitor, daemon].compactMap({ $0 }) where p.isRunning {
            p.terminate()
            p.waitUntilExit()
        }
    }

    /// Stops the bus daemon (SIGSTOP): nothing is relayed until ``thaw()``.
    func freeze() { kill(daemon.processIdentifier, SIGSTOP) }
    func thaw() { kill(daemon.processIdentifier, SIGCONT) }

    /// Starts recording every message on the bus (`dbus-monitor --profile`); returns once it
    /// records.
    func startMonitor() throws {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/dbus-monitor")
        p.arguments = ["--address", address, "--profile"]
        let out = Pipe()
        p.standardOutput = out
        p.standardError = FileHandle.nullDevice
        let lines = monitorLines
        out.fileHandleForReading.readabilityHandler = { handle in lines.append(handle.availableData) }
        try p.run()
        monitor = p
        // It records once it has become a monitor: its own call to BecomeMonitor is the first line.
        try eventually("dbus-monitor to record") { !lines.all.isEmpty }
    }

    /// The method calls recorded: sender, serial, destination, member.
    var calls: [(sender: String, serial: String, destination: String, member: String)] {
        fields("mc", 8).map { ($0[3], $0[2], $0[4], $0[7]) }
    }

    /// The replies recorded (method returns and errors): destination, reply serial, whether it
    /// is an error (`--profile` does not name it).
    var replies: [(destination: String, replySerial: String, isError: Bool)] {
        fields("mr", 6).map { ($0[4], $0[5], false) } + fields("err", 6).map { ($0[4], $0[5], true) }
    }

    /// The destinations of the replies the service (the owner of the first name it took, not
    /// the bus) sent, in the order it sent them.
    var serviceReplies: [String] {
        var destinations: [String] = []
        for line in monitorLines.all {
            let f = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard f.count >= 6, f[0] == "mr" || f[0] == "err", f[3] != "org.freedesktop.DBus" else { continue }
            destinations.append(String(f[4]))
        }
        return destinations
    }

    /// `--profile` lines of one type: type, time, serial, sender, destination, then the path,
    /// interface and member of a call or signal, the reply serial of a reply.
    private func fields(_ type: String, _ count: Int) -> [[String]] {
        monitorLines.all.map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
            .filter { $0.first == type && $0.count >= count }
    }

    /// Every line the monitor printed.
    var monitored: [String] { monitorLines.all }
}

/// dbus-monitor's output, line by line, collected on its pipe's thread.
final class MonitorLines: @unchecked Sendable {
    private let lock = NSLock()
    private var buffer = Data()
    private var lines: [String] = []

    func append(_ data: Data) {
        lock.withLock {
            buffer.append(data)
            while let nl = buffer.firstIndex(of: 0x0A) {
                lines.append(String(decoding: buffer[buffer.startIndex..<nl], as: UTF8.self))
                buffer.removeSubrange(buffer.startIndex...nl)
            }
        }
    }

    var all: [String] { lock.withLock { lines } }
}

struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ d: String) { description = d }
}

/// Waits until `condition` holds, polling every millisecond, for something that happens at once
/// (a reply on its way, a task that unwinds): the limit only ends a test that went wrong.
func eventually(_ what: String, seconds: Double = 10, _ condition: () throws -> Bool) throws {
    let end = Date().addingTimeInterval(seconds)
    while try !condition() {
        guard Date() < end else { throw TestFailure("timed out waiting for \(what)") }
        usleep(1000)
    }
}
