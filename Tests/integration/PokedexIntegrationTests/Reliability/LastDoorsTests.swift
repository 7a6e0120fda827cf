import Foundation
import Glibc
import PokedexBusClient
import XCTest

/// The sandbox's last doors, tried from inside the running service (its self-check,
/// `POKEDEX_SANDBOX_SELFCHECK`, sandbox_probes.h): no new Unix socket by any spelling of the
/// family, no datagram pair, no socket left that sends where an address says, no raw, packet,
/// netlink or vsock socket, no io_uring, and TCP to exactly the ports its URLs name. What the
/// probes report is checked against what the test's own sockets received.
final class LastDoorsTests: DaemonTestCase {
    /// Every probe and what it is handed: a listening stream socket or a datagram one.
    static let streamProbes = ["unix", "unix-high", "unix-type-high"]
    static let datagramProbes = ["dgram-high", "pair-dgram", "pair-high", "pair-seqpacket", "pair-sendmsg", "pair-sendto", "held-dgram"]
    static let socketProbes = ["io-uring", "raw", "packet", "netlink", "vsock"]

    func testNoWayPastTheLastDoorsFromInsideTheService() throws {
        let dir = h.home + "/doors"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let agent = try UnixListener(dir + "/agent", type: SOCK_STREAM)
        let datagrams = try UnixListener(dir + "/dgram", type: SOCK_DGRAM)
        // The service manager's notify socket, as systemd makes it.
        let manager = try UnixListener(dir + "/notify", type: SOCK_DGRAM)
        let other = try TCPListener()
        let mockPort = try XCTUnwrap(URLComponents(string: h.mockURL)?.port)

        var checks = Self.streamProbes.map { "\($0):\(agent.path)" } + Self.datagramProbes.map { "\($0):\(datagrams.path)" }
        checks += Self.socketProbes.map { "\($0):-" }
        checks += ["connect:80", "connect:443", "connect:\(other.port)", "connect:\(mockPort)"]
        // Another process's secrets (this test's own; the tests run as root, where file modes
        // let root through): Landlock's ptrace scope shuts them, once the service has dropped
        // the capabilities that pass it.
        let secrets = ["environ", "maps", "mem"].map { "/proc/\(getpid())/\($0)" }
        checks += secrets.map { "read:\($0)" }
        try h.startDaemon([], env: ["POKEDEX_SANDBOX_SELFCHECK": checks.joined(separator: " "), "NOTIFY_SOCKET": manager.path])
        let report = h.home + "/cache/pokedex/sandbox-self-check"
        let lines = try waitFor("the self-check's report", seconds: 10) { () -> [String]? in
            let text = try? String(contentsOfFile: report, encoding: .utf8)
            let lines = text?.split(separator: "\n").map(String.init) ?? []
            return lines.count == checks.count ? lines : nil
        }
        for line in lines { print(line) }
        guard try PokedexClient().status().sandbox.unixSocketsClosed else {
            throw XCTSkip("this kernel has no Landlock: the service does not close the last doors")
        }
        // "sandbox self-check: KIND PATH: outcome", or "…: connect PORT: outcome".
        func outcome(_ kind: String) -> String {
            let prefix = "sandbox self-check: \(kind)"
            let line = lines.first { $0.hasPrefix(prefix + " ") || $0.hasPrefix(prefix + ":") }
            return line.map { String($0[$0.range(of: ": ", options: .backwards)!.lowerBound...].dropFirst()) } ?? "no line"
        }
        for kind in Self.streamProbes + Self.datagramProbes + Self.socketProbes {
            XCTAssertTrue(outcome(kind).hasPrefix(" denied"), "\(kind):\(outcome(kind))")
        }
        XCTAssertTrue(outcome("held-dgram").contains("holds none"), "the notify socket went to its own process: \(outcome("held-dgram"))")
        XCTAssertTrue(outcome("unix-high").contains("Address family not supported"), outcome("unix-high"))
        // Landlock: the API's port and no other, not even the scheme's default.
        XCTAssertEqual(outcome("connect \(mockPort)"), " ALLOWED")
        for port in [80, 443, Int(other.port)] {
            XCTAssertEqual(outcome("connect \(port)"), " denied (Permission denied)", "port \(port)")
        }
        for path in secrets {
            XCTAssertEqual(outcome("read \(path)"), " denied (Permission denied)", path)
        }
        let service = try XCTUnwrap(h.daemon?.processIdentifier)
        XCTAssertEqual(Self.status(service, "CapEff"), "0000000000000000", "the service keeps no capability")
        XCTAssertEqual(Self.status(service, "CapPrm"), "0000000000000000")
        if geteuid() == 0 {
            XCTAssertEqual(Self.status(service, "CapBnd"), "0000000000000000", "none to regain either")
        }
        // What reached the test's sockets: nothing, whatever the probes said.
        XCTAssertEqual(agent.pendingConnections(), 0, "no connection reached the agent")
        XCTAssertEqual(datagrams.received(), [], "no datagram reached the test's socket")
        XCTAssertEqual(other.pendingConnections(), 0)

        // The manager still hears the service, through the child that holds its socket: a process
        // of its own, so the message arrives when that child next runs (one run in twenty with
        // both cores busy found it not there yet when the name was already owned).
        _ = try waitFor("READY=1 to reach the manager", seconds: 10) { manager.received().contains { $0.hasPrefix("READY=1") } ? true : nil }
        let pid = try XCTUnwrap(h.daemon?.processIdentifier)
        let relay = try XCTUnwrap(Self.children(of: pid).first { $0.name == "pokedexd-notify" }, "the notify relay runs")
        XCTAssertEqual(Self.status(relay.pid, "Seccomp"), "2", "the relay is confined too")
        XCTAssertEqual(Self.openDescriptors(relay.pid).subtracting([0, 1, 2]).count, 2, "it holds the pair's end and the notify socket, nothing else")
        try PokedexClient().ping()  // still answering, with the relay beside it
        h.stopDaemon()
        _ = try waitFor("STOPPING=1 to reach the manager", seconds: 10) { manager.received().contains { $0.hasPrefix("STOPPING=1") } ? true : nil }
        _ = try waitFor("the relay to end with the service", seconds: 5) { kill(relay.pid, 0) != 0 ? true : nil }
    }

    static func children(of pid: pid_t) -> [(pid: pid_t, name: String)] {
        let all = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return all.compactMap { Int32($0) }.compactMap { child in
            guard let stat = try? String(contentsOfFile: "/proc/\(child)/stat", encoding: .utf8),
                  let open = stat.firstIndex(of: "("), let close = stat.lastIndex(of: ")") else { return nil }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            guard fields.count > 2, Int32(fields[1]) == pid else { return nil }
            return (child, String(stat[stat.index(after: open)..<close]))
        }
    }

    static func status(_ pid: pid_t, _ key: String) -> String? {
        let text = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        return text.split(separator: "\n").first { $0.hasPrefix(key + ":") }.map { $0.split(separator: "\t").last.map(String.init) ?? "" }
    }

    static func openDescriptors(_ pid: pid_t) -> Set<Int> {
        Set(((try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd")) ?? []).compactMap { Int($0) })
    }
}

/// A Unix socket of the test's, bound at `path`, never blocking.
final class UnixListener {
    let path: String
    let fd: Int32
    private var seen: [String] = []

    init(_ path: String, type: __socket_type) throws {
        self.path = path
        unlink(path)
        fd = socket(AF_UNIX, Int32(type.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        var sa = sockaddr_un()
        sa.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard fd >= 0, bytes.count < MemoryLayout.size(ofValue: sa.sun_path) else { throw HarnessError("socket \(path)") }
        withUnsafeMutableBytes(of: &sa.sun_path) { for (i, b) in bytes.enumerated() { $0[i] = b } }
        let bound = withUnsafePointer(to: &sa) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) } }
        guard bound == 0, type == SOCK_DGRAM || listen(fd, 8) == 0 else { throw HarnessError("bind \(path): \(errno)") }
    }

    deinit { close(fd); unlink(path) }

    /// Connections waiting to be accepted (each accepted and closed).
    func pendingConnections() -> Int {
        var n = 0
        while case let c = accept(fd, nil, nil), c >= 0 { close(c); n += 1 }
        return n
    }

    /// Every datagram received so far, as text.
    func received() -> [String] {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while case let n = recv(fd, &buffer, buffer.count, 0), n >= 0 {
            seen.append(String(decoding: buffer[..<n], as: UTF8.self))
        }
        return seen
    }
}

/// A TCP socket of the test's listening on 127.0.0.1 at a port the kernel picks.
final class TCPListener {
    let fd: Int32
    let port: UInt16

    init() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        self.fd = fd
        var sa = sockaddr_in()
        sa.sin_family = sa_family_t(AF_INET)
        sa.sin_addr.s_addr = UInt32(0x7f00_0001).bigEndian
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ok = withUnsafeMutablePointer(to: &sa) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, len) == 0 && listen(fd, 8) == 0 && getsockname(fd, $0, &len) == 0 }
        }
        port = UInt16(bigEndian: sa.sin_port)
        guard fd >= 0, ok else { throw HarnessError("tcp listener: \(errno)") }
    }

    deinit { close(fd) }

    func pendingConnections() -> Int {
        var n = 0
        while case let c = accept(fd, nil, nil), c >= 0 { close(c); n += 1 }
        return n
    }
}
