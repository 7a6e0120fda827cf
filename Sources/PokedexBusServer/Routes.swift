import CSystemd
import PokedexCore
import PokedexProtocol

/// One method bound to its handler: reads the arguments its description names, asks the
/// handler, and replies now or, for work that must wait, through ``PendingCalls``.
public struct MethodRoute {
    public let name: String
    let dispatch: (OpaquePointer, PendingCalls) -> Void
}

/// One property bound to its getter.
public struct PropertyRoute {
    public let name: String
    let get: (MessageWriter) throws(BusError) -> Void
}

extension Method where Args: Sendable, Reply: Sendable {
    /// Binds this method to `handler`.
    /// - Parameters:
    ///   - bounded: whether the call ends at the service's deadline (false for work that takes
    ///     minutes by design, such as a whole sync).
    ///   - heavy: for work that grows with the arguments (names for 4,096 ids), whether these
    ///     arguments make it too much for the loop thread: then the handler itself runs off the
    ///     loop, in the heavy lane, in turn with other callers' (``CallAdmission``), even when
    ///     every answer is in memory. Nil: always bounded, answered on the loop when in memory.
    public func route(bounded: Bool = true, heavy: (@Sendable (Args) -> Bool)? = nil,
                      _ handler: @escaping @Sendable (Args) throws(PokedexError) -> Answer<Reply>) -> MethodRoute {
        route(bounded: bounded, heavy: heavy) { (args: Args, _: String?) throws(PokedexError) in try handler(args) }
    }

    /// Binds this method to `handler`, which also gets the caller's unique bus name (for what
    /// must go only with the caller who asked, such as an activation token).
    public func route(bounded: Bool = true, heavy: (@Sendable (Args) -> Bool)? = nil,
                      _ handler: @escaping @Sendable (Args, String?) throws(PokedexError) -> Answer<Reply>) -> MethodRoute {
        MethodRoute(name: name) { m, pending in
            let args: Args
            do throws(BusError) {
                args = try readArgs(MessageReader(m))
            } catch {
                // The service's own InvalidArgument (an argument over its cap), or the bus's
                // InvalidArgs (a wrong signature).
                let ours = error.name.hasPrefix(PokedexError.namePrefix)
                return Replies.fail(m, name: ours ? error.name : "org.freedesktop.DBus.Error.InvalidArgs", message: error.message)
            }
            let caller = sd_bus_message_get_sender(m).map { String(cString: $0) }
            let encode: @Sendable (MessageWriter, Reply) throws(BusError) -> Void = { w, value throws(BusError) in try writeReply(w, value) }
            if let heavy, heavy(args) {
                return pending.start(m, member: name, bounded: bounded, lane: .heavy, { () async throws(PokedexError) in
                    try await handler(args, caller).value()
                }, encode)
            }
            do throws(PokedexError) {
                switch try handler(args, caller) {
                case .now(let value):
                    Replies.send(m) { w throws(BusError) in try writeReply(w, value) }
                case .later(let work):
                    pending.start(m, member: name, bounded: bounded, lane: .light, work, encode)
                }
            } catch {
                Replies.fail(m, name: error.dbusName, message: error.message)
            }
        }
    }
}

extension Property {
    /// Binds this property to `getter`, which must never wait.
    public func route(_ getter: @escaping () -> Value) -> PropertyRoute {
        PropertyRoute(name: name) { w throws(BusError) in try write(w, getter()) }
    }
}
