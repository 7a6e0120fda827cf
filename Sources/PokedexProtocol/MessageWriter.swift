import CBusShims
import CSystemd
import Glibc
import PokedexModels

/// Appends values to an `sd_bus_message*` (no ownership taken).
public struct MessageWriter {
    public let message: OpaquePointer

    public init(_ message: OpaquePointer) { self.message = message }

    public func append(_ v: UInt32) throws(BusError) {
        var v = v
        try busCheck(sd_bus_message_append_basic(message, CChar(UInt8(ascii: "u")), &v), "append u")
    }

    public func append(_ v: Int32) throws(BusError) {
        var v = v
        try busCheck(sd_bus_message_append_basic(message, CChar(UInt8(ascii: "i")), &v), "append i")
    }

    /// An `ay`, in one copy.
    public func append(bytes: [UInt8]) throws(BusError) {
        let r = bytes.withUnsafeBytes { sd_bus_message_append_array(message, CChar(UInt8(ascii: "y")), $0.baseAddress, $0.count) }
        try busCheck(r, "append ay")
    }

    public func append(_ v: UInt64) throws(BusError) {
        var v = v
        try busCheck(sd_bus_message_append_basic(message, CChar(UInt8(ascii: "t")), &v), "append t")
    }

    public func append(_ v: Double) throws(BusError) {
        var v = v
        try busCheck(sd_bus_message_append_basic(message, CChar(UInt8(ascii: "d")), &v), "append d")
    }

    public func append(_ v: Bool) throws(BusError) {
        var i: Int32 = v ? 1 : 0
        try busCheck(sd_bus_message_append_basic(message, CChar(UInt8(ascii: "b")), &i), "append b")
    }

    public func append(_ s: String) throws(BusError) {
        // D-Bus strings are UTF-8 without NUL; sd-bus rejects anything else. A C string
        // shorter than the Swift string holds a NUL (strlen is vectorized; this is every
        // string of every reply).
        var r = s.withCString { p in
            strlen(p) == s.utf8.count ? sd_bus_message_append_basic(message, CChar(UInt8(ascii: "s")), p) : .min
        }
        if r == .min {
            let clean = String(s.unicodeScalars.filter { $0 != "\0" }.map(Character.init))
            r = clean.withCString { sd_bus_message_append_basic(message, CChar(UInt8(ascii: "s")), $0) }
        }
        try busCheck(r, "append s")
    }

    /// Opens a container (`a`, `r`, `e`, `v`) with the given contents signature, runs `body`, closes it.
    public func container(_ type: Character, _ contents: String, _ body: () throws(BusError) -> Void) throws(BusError) {
        let r = contents.withCString { sd_bus_message_open_container(message, CChar(type.asciiValue!), $0) }
        try busCheck(r, "open \(type)\(contents)")
        try body()
        try busCheck(sd_bus_message_close_container(message), "close")
    }

    /// Appends an array of structs, `a(row)`: each element one struct, its fields appended by
    /// `fields` in `row`'s order.
    public func structs<T>(_ row: String, _ elements: [T], _ fields: (T) throws(BusError) -> Void) throws(BusError) {
        try container("a", "(\(row))") { () throws(BusError) in
            for e in elements { try container("r", row) { () throws(BusError) in try fields(e) } }
        }
    }

    /// Appends one `{sv}` entry of an `a{sv}`.
    public func entry(_ key: String, _ signature: String, _ value: () throws(BusError) -> Void) throws(BusError) {
        try container("e", "sv") { () throws(BusError) in
            try append(key)
            try container("v", signature, value)
        }
    }

    public func append(strings: [String]) throws(BusError) {
        try container("a", "s") { () throws(BusError) in for s in strings { try append(s) } }
    }

    /// An `a(uss)` of any length in one call to sd-bus: the strings packed back to back
    /// (NULs dropped, as ``append(_:)-(String)`` does), then appended by C. For thousands of
    /// entries on the loop thread (`DisplayNames`), about a tenth of the time of one call each.
    public func append(ussArray rows: [(UInt32, String, String)]) throws(BusError) {
        var ids: [UInt32] = []
        ids.reserveCapacity(rows.count)
        var packed: [UInt8] = []
        packed.reserveCapacity(rows.count * 24)
        func put(_ s: String) {
            let before = packed.count
            packed.append(contentsOf: s.utf8)
            if packed[before...].contains(0) {
                packed.removeSubrange(before...)
                packed.append(contentsOf: s.utf8.filter { $0 != 0 })
            }
            packed.append(0)
        }
        for (id, a, b) in rows {
            ids.append(id)
            put(a)
            put(b)
        }
        let r = ids.withUnsafeBufferPointer { i in
            packed.withUnsafeBufferPointer { p in
                p.withMemoryRebound(to: CChar.self) { pdx_append_uss_array(message, i.baseAddress, $0.baseAddress, rows.count) }
            }
        }
        try busCheck(r, "append a(uss)")
    }

    public func append(uints: [UInt32]) throws(BusError) {
        try container("a", "u") { () throws(BusError) in for u in uints { try append(u) } }
    }
}
