import CBusShims
import CSystemd
import Glibc
import PokedexModels

/// A D-Bus value of any type, as read from a message. Clients use it to decode
/// replies generically (and print them as JSON).
public indirect enum BusValue: Equatable, Sendable {
    case bool(Bool)
    case int(Int64)
    case uint(UInt64)
    case double(Double)
    case string(String)
    case array([BusValue])
    case dict([(key: BusValue, value: BusValue)])
    case structure([BusValue])
    case variant(BusValue)

    public static func == (a: BusValue, b: BusValue) -> Bool {
        switch (a, b) {
        case (.bool(let x), .bool(let y)): return x == y
        case (.int(let x), .int(let y)): return x == y
        case (.uint(let x), .uint(let y)): return x == y
        case (.double(let x), .double(let y)): return x == y
        case (.string(let x), .string(let y)): return x == y
        case (.array(let x), .array(let y)): return x == y
        case (.structure(let x), .structure(let y)): return x == y
        case (.variant(let x), .variant(let y)): return x == y
        case (.dict(let x), .dict(let y)):
            return x.count == y.count && zip(x, y).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        default: return false
        }
    }

    /// The value inside variants.
    public var unwrapped: BusValue { if case .variant(let v) = self { return v.unwrapped } else { return self } }
    public var string: String? { if case .string(let s) = unwrapped { return s } else { return nil } }
    public var uint: UInt64? { if case .uint(let u) = unwrapped { return u } else { return nil } }
    public var int: Int64? { if case .int(let i) = unwrapped { return i } else { return nil } }
    public var bool: Bool? { if case .bool(let b) = unwrapped { return b } else { return nil } }
    public var double: Double? { if case .double(let d) = unwrapped { return d } else { return nil } }
    public var array: [BusValue]? { if case .array(let a) = unwrapped { return a } else { return nil } }
    public var fields: [BusValue]? { if case .structure(let a) = unwrapped { return a } else { return nil } }

    /// An `a{s…}` as a Swift dictionary keyed by string.
    public var stringDict: [String: BusValue]? {
        switch unwrapped {
        case .dict(let pairs):
            var out: [String: BusValue] = [:]
            for p in pairs { if let k = p.key.string { out[k] = p.value.unwrapped } }
            return out
        case .array(let a) where a.isEmpty: return [:]
        default: return nil
        }
    }
}

/// Reads values out of an `sd_bus_message*` (no ownership taken).
public struct MessageReader {
    public let message: OpaquePointer

    public init(_ message: OpaquePointer) { self.message = message }

    public func readUInt32() throws(BusError) -> UInt32 {
        var v: UInt32 = 0
        try busCheck(sd_bus_message_read_basic(message, CChar(UInt8(ascii: "u")), &v), "read u")
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

/// A D-Bus error: a name and a message, as the bus carries it.
public struct BusError: Error, Equatable, Sendable, CustomStringConvertible {
    public var name: String
    public var message: String
    public init(name: String, message: String) {
        self.name = name
        self.message = message
    }
    public var description: String { "\(name): \(message)" }

    /// From a negative errno returned by sd-bus.
    public init(errno code: Int32, _ what: String) {
        name = "org.freedesktop.DBus.Error.Failed"
        message = "\(what): \(String(cString: strerror(-code)))"
    }
}

@inline(__always)
/// Throws a ``BusError`` when an sd-bus call returned a negative errno.
public func busCheck(_ r: Int32, _ what: @autoclosure () -> String) throws(BusError) {
    if r < 0 { throw BusError(errno: r, what()) }
}
