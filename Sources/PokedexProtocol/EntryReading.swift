import CSystemd

/// Typed reads of the dictionaries the service answers with: a client that knows a reply's
/// shape takes each value straight off the message, with no ``BusValue`` tree between.
extension MessageReader {
    /// Reads an `a{sv}` entry by entry. `value(key, type)` reads the entry's value, whose
    /// D-Bus type is `type`, whole, and returns true; or returns false, and the value is
    /// skipped: a key this client does not know (a newer service's) or a type it did not expect.
    public func readEntries(_ value: (String, String) throws(BusError) -> Bool) throws(BusError) {
        try busCheck(sd_bus_message_enter_container(message, CChar(UInt8(ascii: "a")), "{sv}"), "read a{sv}")
        while true {
            let r = sd_bus_message_enter_container(message, CChar(UInt8(ascii: "e")), "sv")
            try busCheck(r, "read {sv}")
            if r == 0 { break }
            let key = try readString()
            var type: CChar = 0
            var contents: UnsafePointer<CChar>?
            try busCheck(sd_bus_message_peek_type(message, &type, &contents), "peek v")
            guard let contents else { throw BusError(name: "org.freedesktop.DBus.Error.InvalidSignature", message: "a variant without a type") }
            let signature = String(cString: contents)
            try busCheck(sd_bus_message_enter_container(message, CChar(UInt8(ascii: "v")), signature), "enter v")
            if try !value(key, signature) { try busCheck(sd_bus_message_skip(message, signature), "skip \(signature)") }
            try busCheck(sd_bus_message_exit_container(message), "exit v")
            try busCheck(sd_bus_message_exit_container(message), "exit {sv}")
        }
        try busCheck(sd_bus_message_exit_container(message), "exit a{sv}")
    }

    /// Reads an `a{s…}` whose values are of type `valueType`: `value(key)` reads each one.
    public func readPairs(_ valueType: String, _ value: (String) throws(BusError) -> Void) throws(BusError) {
        try busCheck(sd_bus_message_enter_container(message, CChar(UInt8(ascii: "a")), "{s\(valueType)}"), "read a{s\(valueType)}")
        let entry = "s" + valueType
        while true {
            let r = sd_bus_message_enter_container(message, CChar(UInt8(ascii: "e")), entry)
            try busCheck(r, "read {s\(valueType)}")
            if r == 0 { break }
            try value(try readString())
            try busCheck(sd_bus_message_exit_container(message), "exit {s\(valueType)}")
        }
        try busCheck(sd_bus_message_exit_container(message), "exit a{s\(valueType)}")
    }

    /// Reads an `a(…)` of structs of `fields` (such as "ussuss"): `row()` reads each one's fields.
    public func readStructs(_ fields: String, _ row: () throws(BusError) -> Void) throws(BusError) {
        try busCheck(sd_bus_message_enter_container(message, CChar(UInt8(ascii: "a")), "(\(fields))"), "read a(\(fields))")
        while true {
            let r = sd_bus_message_enter_container(message, CChar(UInt8(ascii: "r")), fields)
            try busCheck(r, "read (\(fields))")
            if r == 0 { break }
            try row()
            try busCheck(sd_bus_message_exit_container(message), "exit (\(fields))")
        }
        try busCheck(sd_bus_message_exit_container(message), "exit a(\(fields))")
    }

    /// An `as` of the service's, capped as a caller's is but generously: a reply no service
    /// of ours comes near (types, abilities, their names).
    public func readStringArray() throws(BusError) -> [String] { try readStrings(maxCount: 4096, maxBytes: 1 << 16) }

    public func readDouble() throws(BusError) -> Double {
        var v: Double = 0
        try busCheck(sd_bus_message_read_basic(message, CChar(UInt8(ascii: "d")), &v), "read d")
        return v
    }
}
