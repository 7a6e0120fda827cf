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
