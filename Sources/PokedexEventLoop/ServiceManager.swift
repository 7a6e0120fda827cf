import CSystemd
import Glibc

/// The service manager's notify socket (`NOTIFY_SOCKET`): `READY=1`, `STOPPING=1`, `STATUS=`,
/// and the watchdog's `WATCHDOG=1`.
///
/// One datagram socket, made when the loop is, and sent through with `sendto` for the life of
/// the process, where `sd_notify(3)` makes a new one for each message: once the service has
/// refused itself new Unix sockets (the sandbox's last doors), `sd_notify` could no longer
/// reach the manager, and the watchdog would restart a healthy service. Unconnected, so a
/// manager that re-executes and binds its socket again is still reached.
public final class ServiceManager: Sendable {
    private let fd: Int32
    private let address: UnixAddress?

    /// From `NOTIFY_SOCKET` (a path, or `@` for an abstract name); without it, or with an
    /// address that is not a Unix one, every message is dropped, as `sd_notify` does.
    public init(notifySocket: String?) {
        address = notifySocket.flatMap(UnixAddress.init)
        fd = address == nil ? -1 : socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    }

    deinit { if fd >= 0 { close(fd) } }

    /// Sends `text` (`KEY=value` lines). Returns false when there is no manager to tell or
    /// it could not be told.
    @discardableResult
    public func notify(_ text: String) -> Bool {
        guard fd >= 0, let address else { return false }
        let bytes = Array(text.utf8)
        return address.withSockaddr { sa, len in
            bytes.withUnsafeBytes { sendto(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL), sa, len) } == bytes.count
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
