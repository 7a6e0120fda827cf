import Glibc

/// What a bus error means for a client, by its name (never by its message text): one place for
/// pokectl's messages, browse's status line and the widgets' clients alike.
extension BusError {
    /// The names of the bus's and systemd's errors clients meet.
    public enum Name {
        public static let serviceUnknown = "org.freedesktop.DBus.Error.ServiceUnknown"
        public static let nameHasNoOwner = "org.freedesktop.DBus.Error.NameHasNoOwner"
        public static let spawnChildExited = "org.freedesktop.DBus.Error.Spawn.ChildExited"
        public static let spawnFailed = "org.freedesktop.DBus.Error.Spawn.Failed"
        public static let noSuchUnit = "org.freedesktop.systemd1.NoSuchUnit"
        public static let noReply = "org.freedesktop.DBus.Error.NoReply"
        public static let timeout = "org.freedesktop.DBus.Error.Timeout"
        public static let timedOut = "org.freedesktop.DBus.Error.TimedOut"
        public static let disconnected = "org.freedesktop.DBus.Error.Disconnected"
        public static let noServer = "org.freedesktop.DBus.Error.NoServer"
        public static let unknownMethod = "org.freedesktop.DBus.Error.UnknownMethod"
    }

    /// The connection to the bus dropped, while processing or waiting (sd-bus's errno).
    public static func disconnected(errno code: Int32) -> BusError {
        BusError(name: Name.disconnected, message: "lost the bus connection: \(String(cString: strerror(-code)))")
    }

    /// The bus tried to start the service and could not (its unit failed, or is not there).
    public var isStartFailure: Bool { [Name.spawnChildExited, Name.spawnFailed, Name.noSuchUnit].contains(name) }

    /// Nobody owns the name now: not running and not activatable, not started yet, or its start
    /// failed; or the service left without answering (`NoReply`: it exited or crashed mid-call).
    public var isServiceGone: Bool { [Name.serviceUnknown, Name.nameHasNoOwner, Name.noReply].contains(name) || isStartFailure }

    /// The call's time ran out with the service still there.
    public var isTimeout: Bool { [Name.timeout, Name.timedOut].contains(name) }

    /// The bus itself is gone (or there is none): nothing more can be asked on this connection.
    public var isBusGone: Bool { [Name.disconnected, Name.noServer].contains(name) }
}
