import CSeccomp
import Glibc

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
}
