import CSeccomp
import Foundation
import Glibc
import PokedexEventLoop
import XCTest

/// The service manager's notify socket, and its hand-over to a process of its own before the
/// sandbox's last doors close (pdx_notify_relay): the manager still hears every message, the
/// service keeps no datagram socket, and the relay ends with the service.
final class ServiceManagerTests: XCTestCase {
    var dir = ""
    override func setUp() {
        dir = NSTemporaryDirectory() + "pokedex-notify-" + UUID().uuidString.prefix(8)
        mkdir(dir, 0o700)
    }
    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    /// A datagram socket bound at `path`, as systemd's notify socket is.
    func managerSocket(_ path: String) throws -> Int32 {
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var sa = sockaddr_un()
        sa.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &sa.sun_path) { for (i, b) in path.utf8.enumerated() { $0[i] = b } }
        let r = withUnsafePointer(to: &sa) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) } }
        guard fd >= 0, r == 0 else { throw POSIXError(.EINVAL) }
        var tv = timeval(tv_sec: 10, tv_usec: 0)  // a test that failed ends; nothing waits on it otherwise
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        return fd
    }

    func receive(_ fd: Int32) -> String? {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let n = recv(fd, &buffer, buffer.count, 0)
        return n < 0 ? nil : String(decoding: buffer[..<n], as: UTF8.self)
    }

    /// This process's children: (pid, name).
    func children() -> [(pid_t, String)] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        let pids = tasks.flatMap { task in
            ((try? String(contentsOfFile: "/proc/self/task/\(task)/children", encoding: .utf8)) ?? "").split(separator: " ").compactMap { pid_t($0) }
        }
        return pids.map { ($0, ((try? String(contentsOfFile: "/proc/\($0)/comm", encoding: .utf8)) ?? "").trimmingCharacters(in: .newlines)) }
    }

    func testMessagesGoStraightToTheManagerUntilHandedOver() throws {
        let path = dir + "/notify"
        let manager = try managerSocket(path)
        defer { close(manager) }
        let service = ServiceManager(notifySocket: path)
        XCTAssertTrue(service.notify("READY=1"))
        XCTAssertEqual(receive(manager), "READY=1")
        XCTAssertFalse(ServiceManager(notifySocket: nil).notify("READY=1"), "no manager: dropped, as sd_notify does")
        XCTAssertFalse(ServiceManager(notifySocket: "relative/path").notify("READY=1"))
    }

    func testTheRelayPassesEveryMessageOnHoldsNothingElseAndEndsWithTheService() throws {
        let path = dir + "/notify"
        let manager = try managerSocket(path)
        defer { close(manager) }
        let before = Set(children().map(\.0))
        var service: ServiceManager? = ServiceManager(notifySocket: path)
        XCTAssertNil(service!.handOver { fd, address, length in pdx_notify_relay(fd, address, length) })
        // Every message, in order, whole.
        let messages = ["READY=1\nSTATUS=Serving io.github.pokedexd.Pokedex1", "WATCHDOG=1", String(repeating: "STATUS=x", count: 400), "STOPPING=1"]
        for m in messages { XCTAssertTrue(service!.notify(m)) }
        for m in messages { XCTAssertEqual(receive(manager), m) }
        // (It named itself and confined itself before it read the first.)
        let relay = try XCTUnwrap(children().first { !before.contains($0.0) && $0.1 == "pokedexd-notify" }, "\(children())")
        // No datagram socket left here; the relay holds its two descriptors and the standard three.
        let held = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(relay.0)/fd").compactMap { Int32($0) }
        XCTAssertEqual(Set(held).subtracting([0, 1, 2]).count, 2, "\(held)")
        let status = try String(contentsOfFile: "/proc/\(relay.0)/status", encoding: .utf8)
        XCTAssertTrue(status.contains("Seccomp:\t2"), "confined by its own filter")
        XCTAssertTrue(status.contains("NoNewPrivs:\t1"))
        XCTAssertNil(service!.handOver { _, _, _ in XCTFail("handed over twice"); return -1 }, "once only")
        // The service goes: its end of the pair closes, the relay exits 0.
        service = nil
        var exit: Int32 = 0
        XCTAssertEqual(waitpid(relay.0, &exit, 0), relay.0)
        XCTAssertTrue(exit & 0x7f == 0 && (exit >> 8) & 0xff == 0, "exited 0 (status \(exit))")
    }

    func testAHandOverThatFailsKeepsTheSocket() throws {
        let path = dir + "/notify"
        let manager = try managerSocket(path)
        defer { close(manager) }
        let service = ServiceManager(notifySocket: path)
        XCTAssertEqual(service.handOver { _, _, _ in -EMFILE }, EMFILE)
        XCTAssertTrue(service.notify("READY=1"))
        XCTAssertEqual(receive(manager), "READY=1", "still told, through its own socket")
    }
}
