import CSystemd
import Glibc
import PokedexLocks

/// The service manager's notify socket (`NOTIFY_SOCKET`): `READY=1`, `STOPPING=1`, `STATUS=`,
/// and the watchdog's `WATCHDOG=1`.
///
/// One datagram socket, made when the loop is, and sent through with `sendto` for the life of
/// the process, where `sd_notify(3)` makes a new one for each message: once the service has
/// refused itself new Unix sockets (the sandbox's last doors), `sd_notify` could no longer
/// reach the manager, and the watchdog would restart a healthy service. Unconnected, so a
/// manager that re-executes and binds its socket again is still reached.
///
/// A datagram socket can send to any path, though; before the last doors close, the sandbox
/// hands it to a process of its own (``handOver(_:)``), and the service sends through a
/// connected pair that reaches nothing else.
public final class ServiceManager: Sendable {
    private enum Way {
        /// The datagram socket, sent through to `address`.
        case socket(Int32, UnixAddress)
        /// A connected socket whose reader passes each message on.
        case relay(Int32)
        case none
    }
    private let way: PokedexLocks.Mutex<Way>

    /// From `NOTIFY_SOCKET` (a path, or `@` for an abstract name); without it, or with an
    /// address that is not a Unix one, every message is dropped, as `sd_notify` does.
    public init(notifySocket: String?) {
        let address = notifySocket.flatMap(UnixAddress.init)
        let fd = address == nil ? -1 : socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        way = .init(address.flatMap { fd >= 0 ? .socket(fd, $0) : nil } ?? .none)
    }

    deinit {
        switch way.withLock({ $0 }) {
        case .socket(let fd, _), .relay(let fd): close(fd)
        case .none: break
        }
    }

    /// Sends `text` (`KEY=value` lines). Returns false when there is no manager to tell or
    /// it could not be told. Never waits: a relay that does not keep up loses the message.
    @discardableResult
    public func notify(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        return way.withLock { way in
            switch way {
            case .socket(let fd, let address):
                return address.withSockaddr { sa, len in
                    bytes.withUnsafeBytes { sendto(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL), sa, len) } == bytes.count
                }
            case .relay(let fd):
                return bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) } == bytes.count
            case .none:
                return false
            }
        }
    }

    /// Hands the datagram socket to `start` (given it and the manager's address; it returns the
    /// descriptor to send through from now on, or a negative errno), then closes it here.
    /// Nil when done or when there is no socket to hand over; else the errno, and the socket
    /// stays.
    public func handOver(_ start: (Int32, UnsafePointer<sockaddr>, socklen_t) -> Int32) -> Int32? {
        way.withLock { way in
            guard case .socket(let fd, let address) = way else { return nil }
            let relay = address.withSockaddr { start(fd, $0, $1) }
            guard relay >= 0 else { return -relay }
            close(fd)
            way = .relay(relay)
            return nil
        }
    }

    /// The watchdog interval the manager asked for (`WATCHDOG_USEC`, for this process's
    /// `WATCHDOG_PID`), in microseconds; nil when none.
    public static func watchdogInterval() -> UInt64? {
        var usec: UInt64 = 0
        return sd_watchdog_enabled(0, &usec) > 0 && usec > 0 ? usec : nil
    }
}

/// A Unix socket's address: a path, or an abstract name written with a leading `@`.
public struct UnixAddress: Sendable {
    private let bytes: [UInt8]

    /// Nil for an empty text, one too long for `sun_path`, or one that is neither a path nor `@name`.
    public init?(_ text: String) {
        var b = Array(text.utf8)
        guard b.first == UInt8(ascii: "/") || b.first == UInt8(ascii: "@"), !b.contains(0) else { return nil }
        if b[0] == UInt8(ascii: "@") { b[0] = 0 }
        guard b.count < MemoryLayout.size(ofValue: sockaddr_un().sun_path) else { return nil }
        bytes = b
    }

    /// Calls `body` with the `sockaddr_un` and its length (a path's with its NUL; an abstract
    /// name's without).
    public func withSockaddr<R>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> R) -> R {
        var sa = sockaddr_un()
        sa.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &sa.sun_path) { dst in
            for (i, byte) in bytes.enumerated() { dst[i] = byte }
        }
        let offset = MemoryLayout<sockaddr_un>.offset(of: \.sun_path)!
        let length = offset + bytes.count + (bytes.first == 0 ? 0 : 1)
        return withUnsafePointer(to: &sa) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(length)) } }
    }
}
