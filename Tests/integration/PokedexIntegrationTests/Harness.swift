import Foundation
import XCTest
import PokedexBusClient
import PokedexTestKit

/// Runs the real pieces for a test: a private dbus-daemon, the project's mock PokeAPI,
/// and `pokedexd` built next to this test binary, in a throwaway HOME.
final class Harness {
    static let packageRoot = PackageRoot.path
    static var buildDir: String {
        ProcessInfo.processInfo.environment["POKEDEX_BUILD_DIR"]
            ?? URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().path
    }

    /// What the daemons the tests start multiply their retry schedules by
    /// (`POKEDEX_TEST_SCHEDULE_SCALE`): Sync's pauses of 1 to 30 s become 10 to 300 ms.
    static let scheduleScale = 0.01

    let home: String
    private(set) var busAddress = ""
    private(set) var mockURL = ""
    /// The mock's second listener, for a sprite host of its own (`sprite_base`).
    private(set) var spritePort: String?
    private var bus: Process?
    private var mock: Process?
    private(set) var daemon: Process?
    var daemonLog: String { (try? String(contentsOfFile: home + "/pokedexd.log", encoding: .utf8)) ?? "" }

    init() throws {
        home = NSTemporaryDirectory() + "pokedex-it-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        try startBus()
        try startMock()
    }

    deinit { shutdown() }

    func shutdown() {
        stopDaemon()
        for p in [mock, bus].compactMap({ $0 }) where p.isRunning { p.terminate(); p.waitUntilExit() }
        try? FileManager.default.removeItem(atPath: home)
    }

    private func startBus() throws {
        let started = try PrivateDBus.start()
        bus = started.daemon
        busAddress = started.address
    }

    private func startMock() throws {
        let portFile = home + "/mock.port"
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        let spritePortFile = home + "/mock-sprites.port"
        p.arguments = ["python3", Self.packageRoot + "/Tests/support/mockapi/mock_pokeapi.py", "--port", "0", "--port-file", portFile,
                       "--sprite-port-file", spritePortFile]
        p.standardOutput = FileHandle.nullDevice
        try p.run()
        mock = p
        let port = try waitFor("the mock PokeAPI", seconds: 10) { try? String(contentsOfFile: portFile, encoding: .utf8) }
        mockURL = "http://127.0.0.1:\(port)"
        spritePort = try waitFor("the mock's sprite listener", seconds: 10) { try? String(contentsOfFile: spritePortFile, encoding: .utf8) }
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Starts pokedexd against the mock and waits until it owns its name.
    func startDaemon(_ extra: [String] = [], env: [String: String] = [:], directory: String? = nil) throws {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: Self.buildDir + "/pokedexd")
        if let directory { p.currentDirectoryURL = URL(fileURLWithPath: directory) }
        p.arguments = ["--api-url", mockURL + "/api/v2", "--idle-timeout", "0", "--sprite-host", "127.0.0.1",
                       "--sprite-url-template", mockURL + "/sprites/{id}.png"] + extra
        var environment = ProcessInfo.processInfo.environment
        environment["HOME"] = home
        environment["XDG_CACHE_HOME"] = home + "/cache"
        environment["XDG_DATA_HOME"] = home + "/data"
        environment["DBUS_SESSION_BUS_ADDRESS"] = busAddress
        // Retry pauses, backoffs and probes at a hundredth: no test waits out a real backoff.
        environment["POKEDEX_TEST_SCHEDULE_SCALE"] = String(Self.scheduleScale)
        Self.englishLocale(&environment)
        environment.merge(env) { $1 }
        p.environment = environment
        _ = FileManager.default.createFile(atPath: home + "/pokedexd.log", contents: nil)
        let log = FileHandle(forWritingAtPath: home + "/pokedexd.log")!
        log.seekToEndOfFile()
        p.standardError = log
        p.standardOutput = log
        try p.run()
        daemon = p
        _ = try waitFor("pokedexd to own its name", seconds: 15) { () -> Bool? in
            guard p.isRunning else { return false }
            return (try? PokedexClient(timeout: 1).ping()) != nil ? true : nil
        }
        guard p.isRunning else { throw HarnessError("pokedexd exited: \(daemonLog)") }
        // The name's owner must be the daemon started here, not one activated from elsewhere.
        let owner = try PokedexClient(timeout: 2).call(destination: FreedesktopBus.daemonName, path: FreedesktopBus.daemonPath,
                                                       interface: FreedesktopBus.daemonName, "GetConnectionUnixProcessID") { w throws(BusError) in
            try w.append(Pokedex1.busName)
        }
        guard owner.first?.uint == UInt64(p.processIdentifier) else {
            throw HarnessError("\(Pokedex1.busName) is owned by pid \(owner.first?.uint ?? 0), not by the pokedexd this test started (\(p.processIdentifier))")
        }
    }

    /// Stops the daemon with `signal` and returns its exit status. A sanitizer report in its
    /// log fails the test that ran it.
    @discardableResult
    func stopDaemon(_ signal: Int32 = SIGTERM) -> Int32 {
        guard let p = daemon else { return 0 }
        if p.isRunning { kill(p.processIdentifier, signal) }
        p.waitUntilExit()
        daemon = nil
        let log = daemonLog
        for marker in ["ERROR: AddressSanitizer", "ERROR: LeakSanitizer", "WARNING: ThreadSanitizer", "runtime error:"]
        where log.contains(marker) {
            XCTFail("pokedexd's log has a sanitizer report (\(marker)):\n\(log.suffix(6000))")
        }
        return p.terminationStatus
    }

    /// The running daemon's resident memory in KiB and its number of open file descriptors.
    func daemonResources() -> (rssKiB: Int, fds: Int) {
        guard let pid = daemon?.processIdentifier else { return (0, 0) }
        let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        let rss = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") }
            .flatMap { Int($0.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") } ?? 0
        let fds = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd"))?.count ?? 0
        return (rss, fds)
    }

    var daemonIsRunning: Bool { daemon?.isRunning == true }

    /// Runs the pokectl built next to the daemon, on this test's bus, without colour: its exit
    /// status, standard output and standard error.
    @discardableResult
    func pokectl(_ args: [String], env extra: [String: String] = [:]) throws -> (status: Int32, out: String, err: String) {
        let p = pokectlProcess(args, env: extra)
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        let o = out.fileHandleForReading.readDataToEndOfFile(), e = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: o, as: UTF8.self), String(decoding: e, as: UTF8.self))
    }

    /// ``pokectl(_:env:)`` left running, for a test that acts while it waits; its output goes to
    /// `output`.
    func startPokectl(_ args: [String], output: URL) throws -> Process {
        let p = pokectlProcess(args, env: [:])
        FileManager.default.createFile(atPath: output.path, contents: nil)
        let out = try FileHandle(forWritingTo: output)
        p.standardOutput = out
        p.standardError = out
        try p.run()
        return p
    }

    /// The pokectl built next to the daemon, on this test's bus, without colour, in English
    /// unless `extra` says otherwise; not started.
    private func pokectlProcess(_ args: [String], env extra: [String: String]) -> Process {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: Self.buildDir + "/pokectl")
        p.arguments = args
        var env = ProcessInfo.processInfo.environment
        env["DBUS_SESSION_BUS_ADDRESS"] = busAddress
        env["NO_COLOR"] = "1"
        Self.englishLocale(&env)
        env.merge(extra) { $1 }
        p.environment = env
        return p
    }

    /// The tests' expectations are English, whatever the machine's locale: a test that wants
    /// another language says so.
    static func englishLocale(_ env: inout [String: String]) {
        for name in ["LANGUAGE", "LC_ALL", "LC_MESSAGES", "LC_NUMERIC"] { env[name] = nil }
        env["LANG"] = "C.UTF-8"
    }

    // MARK: Mock control

    func control(_ settings: [String: Any]) throws {
        _ = try http("POST", "/__control", body: try JSONSerialization.data(withJSONObject: settings))
    }

    /// A path from the mock, as the daemon would get it.
    func get(_ path: String) throws -> Data { try http("GET", path) }

    func resetStats() throws { _ = try http("POST", "/__stats/reset", body: Data("{}".utf8)) }

    func stats() throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: try http("GET", "/__stats")) as! [String: Any]
    }

    func requests(_ kind: String) throws -> Int { ((try stats()["by_kind"] as? [String: Any])?[kind] as? Int) ?? 0 }

    private func http(_ method: String, _ path: String, body: Data? = nil) throws -> Data {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        var args = ["curl", "-sf", "-X", method, mockURL + path]
        if let body { args += ["--data-binary", String(decoding: body, as: UTF8.self)] }
        p.arguments = args
        let out = Pipe()
        p.standardOutput = out
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        guard p.terminationStatus == 0 else { throw HarnessError("curl \(method) \(path) failed") }
        return data
    }
}

struct HarnessError: Error, CustomStringConvertible {
    let description: String
    init(_ d: String) { description = d }
}

/// Polls `probe` every 20 ms until it gives a value, or fails after `seconds`.
func waitFor<T>(_ what: String, seconds: Double, _ probe: () throws -> T?) throws -> T {
    let end = Date().addingTimeInterval(seconds)
    while Date() < end {
        if let v = try probe() { return v }
        usleep(20_000)
    }
    throw HarnessError("timed out waiting for \(what)")
}

/// Asserts that `body` throws a BusError with this D-Bus error name; returns its message.
@discardableResult
func assertBusError(_ name: String, file: StaticString = #filePath, line: UInt = #line,
                    _ body: () throws(BusError) -> Void) -> String {
    do {
        try body()
        XCTFail("expected \(name), got success", file: file, line: line)
    } catch {
        XCTAssertEqual(error.name, name, error.message, file: file, line: line)
        return error.message
    }
    return ""
}

let errorPrefix = "io.github.pokedexd.Pokedex1.Error."

/// Whether pokedexd was built with a sanitizer (`make check-sanitizers`): its RSS means nothing then.
let underSanitizer = ProcessInfo.processInfo.environment["POKEDEX_SANITIZER"] != nil

/// Monotonic seconds.
func now() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}
