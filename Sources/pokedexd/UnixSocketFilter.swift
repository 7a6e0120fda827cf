import CSeccomp
import Glibc
import PokedexEventLoop

/// The sandbox's last door: once the service has its connections to the bus, the service
/// manager's notify socket and the journal's stream, it refuses itself new Unix sockets
/// (`pdx_refuse_new_unix_sockets`, a seccomp filter), so nothing running in it can reach the
/// user's other services (an ssh agent, a keyring, the display server, a new bus connection).
/// Landlock cannot: it does not mediate connecting to a socket's path.
enum UnixSocketFilter {
    /// Applies the filter to the whole process (every thread, and what it would start).
    /// Returns nil, or why it could not.
    static func apply() -> String? {
        let r = pdx_refuse_new_unix_sockets()
        return r == 0 ? nil : String(cString: strerror(-r))
    }

    /// A datagram socket sends to any path it is given: the notify socket goes to a process of
    /// its own (`pdx_notify_relay`) before the filter, so none is left in the service. Nil, or
    /// why it could not.
    static func handOverNotifySocket(_ manager: ServiceManager) -> String? {
        manager.handOver { fd, address, length in pdx_notify_relay(fd, address, length) }
            .map { String(cString: strerror($0)) }
    }
}
