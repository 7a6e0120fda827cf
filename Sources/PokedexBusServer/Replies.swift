import CSystemd
import PokedexModels
import PokedexProtocol

/// Sending a method's one reply: a value or an error.
enum Replies {
    static func send(_ m: OpaquePointer, _ body: (MessageWriter) throws(BusError) -> Void) {
        var out: OpaquePointer?
        guard sd_bus_message_new_method_return(m, &out) >= 0, let out else { return }
        defer { sd_bus_message_unref(out) }
        do {
            try body(MessageWriter(out))
            sd_bus_send(nil, out, nil)
        } catch {
            fail(m, name: "org.freedesktop.DBus.Error.Failed", message: "cannot encode the reply: \(error.message)")
        }
    }

    /// An error's message is read by people (busctl prints it as it is), and it can quote a
    /// server's text or a URL from a body: it goes out as one printable line.
    static func fail(_ m: OpaquePointer, name: String, message: String) {
        var e = sd_bus_error()
        sd_bus_error_set(&e, name, UntrustedText.terminal(message))
        sd_bus_reply_method_error(m, &e)
        sd_bus_error_free(&e)
    }
}
