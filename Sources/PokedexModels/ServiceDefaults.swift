/// What the service and its clients must agree on without asking each other.
public enum ServiceDefaults {
    /// Seconds within which the service answers every call (`--timeout`), or fails it with
    /// `Unavailable`; `Sync` and `VerifyCache` are not bound by it.
    public static let callDeadline = 10.0
    /// Seconds a client waits for a call: the service's deadline and a margin for the bus. A
    /// service that does not answer by then is frozen or gone, not busy.
    public static let clientWait = callDeadline + 3
}
