import CBusShims
import CSystemd
import Glibc
import PokedexModels

/// Reads values out of an `sd_bus_message*` (no ownership taken).
public struct MessageReader {
    public let message: OpaquePointer

    public init(_ message: OpaquePointer) { self.message = message }

    public func readUInt32() throws(BusError) -> UInt32 {
        var v: UInt32 = 0
        try busCheck(sd_bus_message_read_basic(message, CChar(UInt8(ascii: "u")), &v), "read u")
        return v
    }

    public func readInt32() throws(BusError) -> Int32 {
        var v: Int32 = 0
        try busCheck(sd_bus_message_read_basic(message, CChar(UInt8(ascii: "i")), &v), "read i")
        return v
    }

    public func readBool() throws(BusError) -> Bool {
        var v: Int32 = 0
        try busCheck(sd_bus_message_read_basic(message, CChar(UInt8(ascii: "b")), &v), "read b")
        return v != 0
    }

    public func readString() throws(BusError) -> String {
        var p: UnsafePointer<CChar>?
        try busCheck(sd_bus_message_read_basic(message, CChar(UInt8(ascii: "s")), &p), "read s")
        return p.map { String(cString: $0) } ?? ""
    }

    /// A caller's string, refused unless it holds at most `maxBytes` bytes. The length is
    /// measured on the message's own bytes (strnlen), so a 16 MB string is never copied.
    public func readString(maxBytes: Int) throws(BusError) -> String {
        var p: UnsafePointer<CChar>?
        try busCheck(sd_bus_message_read_basic(message, CChar(UInt8(ascii: "s")), &p), "read s")
        guard let p else { return "" }
        let n = strnlen(p, maxBytes + 1)
        guard n <= maxBytes else { throw Self.overCap("an argument of \(strlen(p)) bytes is longer than", maxBytes: maxBytes) }
        return String(cString: p)
    }

    /// A caller's `au`, refused when it holds more than `maxCount` numbers: read in place, in
    /// one step, so the work done does not grow with what the message holds.
    public func readUInt32s(maxCount: Int) throws(BusError) -> [UInt32] {
        var p: UnsafeRawPointer?
        var size = 0
        try busCheck(sd_bus_message_read_array(message, CChar(UInt8(ascii: "u")), &p, &size), "read au")
        let count = size / MemoryLayout<UInt32>.size
        guard count <= maxCount else {
            throw BusError(name: PokedexError.Kind.invalidArgument.dbusName,
                           message: "\(count) numbers, over the cap of \(maxCount)")
        }
        guard let p, count > 0 else { return [] }
        return Array(UnsafeBufferPointer(start: p.assumingMemoryBound(to: UInt32.self), count: count))
    }

    /// A caller's `as`, refused at its `maxCount + 1`th element or at the first string over
    /// `maxBytes`: the work done is bounded by the cap, whatever the message holds.
    public func readStrings(maxCount: Int, maxBytes: Int) throws(BusError) -> [String] {
        try busCheck(sd_bus_message_enter_container(message, CChar(UInt8(ascii: "a")), "s"), "read as")
        var out: [String] = []
        while true {
            var p: UnsafePointer<CChar>?
            let r = sd_bus_message_read_basic(message, CChar(UInt8(ascii: "s")), &p)
            try busCheck(r, "read as")
            if r == 0 { break }
            guard out.count < maxCount else {
                throw BusError(name: PokedexError.Kind.invalidArgument.dbusName,
                               message: "more than \(maxCount) strings; the cap is \(maxCount) strings of at most \(maxBytes) bytes")
            }
            guard let p else { out.append(""); continue }
            guard strnlen(p, maxBytes + 1) <= maxBytes else {
                throw Self.overCap("string \(out.count + 1) of \(strlen(p)) bytes is longer than", maxBytes: maxBytes)
            }
            out.append(String(cString: p))
        }
        try busCheck(sd_bus_message_exit_container(message), "read as")
        return out
    }

    static func overCap(_ what: String, maxBytes: Int) -> BusError {
        BusError(name: PokedexError.Kind.invalidArgument.dbusName, message: "\(what) the cap of \(maxBytes) bytes")
    }

    /// Reads every remaining value at this level.
    public func readAll() throws(BusError) -> [BusValue] {
        var out: [BusValue] = []
        while let v = try readValue() { out.append(v) }
        return out
    }

    /// Reads the next value of whatever type, or nil at the end of the current container.
    public func readValue() throws(BusError) -> BusValue? {
        var type: CChar = 0
        var contents: UnsafePointer<CChar>?
        let r = sd_bus_message_peek_type(message, &type, &contents)
        try busCheck(r, "peek")
        if r == 0 { return nil }
        let t = UInt8(bitPattern: type)
        switch t {
        case UInt8(ascii: "a"), UInt8(ascii: "r"), UInt8(ascii: "v"), UInt8(ascii: "e"):
            try busCheck(sd_bus_message_enter_container(message, type, contents), "enter")
            let items = try readAll()
            try busCheck(sd_bus_message_exit_container(message), "exit")
            switch t {
            case UInt8(ascii: "v"): return .variant(items.first ?? .structure([]))
            case UInt8(ascii: "r"), UInt8(ascii: "e"): return .structure(items)
            default:
                if let c = contents, c.pointee == CChar(UInt8(ascii: "{")) {
                    return .dict(items.compactMap { item in
                        guard case .structure(let kv) = item, kv.count == 2 else { return nil }
                        return (kv[0], kv[1])
                    })
                }
                return .array(items)
            }
        case UInt8(ascii: "s"), UInt8(ascii: "o"), UInt8(ascii: "g"):
            var p: UnsafePointer<CChar>?
            try busCheck(sd_bus_message_read_basic(message, type, &p), "read")
            return .string(p.map { String(cString: $0) } ?? "")
        case UInt8(ascii: "b"):
            return .bool(try readBool())
        case UInt8(ascii: "y"): var v: UInt8 = 0; try busCheck(sd_bus_message_read_basic(message, type, &v), "read"); return .uint(UInt64(v))
        case UInt8(ascii: "q"): var v: UInt16 = 0; try busCheck(sd_bus_message_read_basic(message, type, &v), "read"); return .uint(UInt64(v))
        case UInt8(ascii: "u"): var v: UInt32 = 0; try busCheck(sd_bus_message_read_basic(message, type, &v), "read"); return .uint(UInt64(v))
        case UInt8(ascii: "t"): var v: UInt64 = 0; try busCheck(sd_bus_message_read_basic(message, type, &v), "read"); return .uint(v)
        case UInt8(ascii: "n"): var v: Int16 = 0; try busCheck(sd_bus_message_read_basic(message, type, &v), "read"); return .int(Int64(v))
        case UInt8(ascii: "i"), UInt8(ascii: "h"): var v: Int32 = 0; try busCheck(sd_bus_message_read_basic(message, type, &v), "read"); return .int(Int64(v))
        case UInt8(ascii: "x"): var v: Int64 = 0; try busCheck(sd_bus_message_read_basic(message, type, &v), "read"); return .int(v)
        case UInt8(ascii: "d"): var v: Double = 0; try busCheck(sd_bus_message_read_basic(message, type, &v), "read"); return .double(v)
        default:
            throw BusError(name: "org.freedesktop.DBus.Error.InvalidSignature", message: "unsupported D-Bus type '\(Character(UnicodeScalar(t)))'")
        }
    }
}
