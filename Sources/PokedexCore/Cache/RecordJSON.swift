import FoundationEssentials
import PokedexModels

/// Writes the cache's records (any `Encodable` of strings, whole numbers, `Double`s, `Bool`s,
/// arrays, dictionaries and structs of them) straight to JSON bytes, for `JSONDecoder` to read
/// back.
///
/// `JSONEncoder` builds a tree of every value and then writes it; during a sync that was 6 %
/// of the daemon's CPU (issue 38). This writes as it goes: each container knows its depth, and
/// writing at a depth first closes whatever a previous value left open deeper down, as the
/// synthesised `encode(to:)` methods use one container at a time. Keys come out in the order
/// they are encoded, so a record's bytes do not depend on hashing.
///
/// Differs from `JSONEncoder` only where the records never go: `URL` and `Data`, which
/// `JSONEncoder` writes its own way, are refused, as are a non-finite `Double` (which it
/// refuses too).
enum RecordJSON {
    static func encode<T: Encodable>(_ value: T) throws -> [UInt8] {
        // The records a sync writes most, written by hand (RecordJSON+Pokemon.swift,
        // RecordJSON+Species.swift).
        if T.self == PokemonRecord.self { return pokemon(value as! PokemonRecord) }
        if T.self == SpeciesRecord.self { return species(value as! SpeciesRecord) }
        if T.self == SpriteCache.Meta.self { return spriteMeta(value as! SpriteCache.Meta) }
        return try encodeWithEncoder(value)
    }

    /// ``encode(_:)`` through the `Encoder`, whatever the type (the test of a hand-written
    /// record's bytes compares with it).
    static func encodeWithEncoder<T: Encodable>(_ value: T) throws -> [UInt8] {
        let sink = Sink()
        try sink.value(value, depth: 0, path: [])
        sink.close(to: 0)
        return sink.bytes
    }

    /// The bytes written so far, and the containers still open.
    ///
    /// Its fields are not checked for exclusive access at run time (every byte appended was a
    /// check, 1% of a sync): one encoder owns a sink, and no method of it reaches a field while
    /// another access to it is under way.
    final class Sink {
        @exclusivity(unchecked) var bytes: [UInt8] = []
        /// Each open container: its closing byte, and how many values it holds.
        @exclusivity(unchecked) var open: [(closer: UInt8, count: Int)] = []
        /// A slot (the record, a key's, an element's) awaits its value. One whose encoder
        /// writes nothing is an empty object, as `JSONEncoder` has it.
        @exclusivity(unchecked) var pending = true

        init() { bytes.reserveCapacity(1024) }

        /// Ends every container deeper than `depth` (and an empty slot in them).
        func close(to depth: Int) {
            if pending {
                literal("{}")
                pending = false
            }
            while open.count > depth { bytes.append(open.removeLast().closer) }
        }

        /// A value starts in the slot at `depth`.
        func beginValue(depth: Int) {
            if pending {
                pending = false
            } else {
                close(to: depth)
            }
        }

        /// Opens a container as the value in the slot at `depth`.
        func openContainer(_ opener: UInt8, _ closer: UInt8, depth: Int) {
            beginValue(depth: depth)
            bytes.append(opener)
            open.append((closer, 0))
        }

        /// Starts the next element of the container whose values are at `depth` (its comma).
        func element(depth: Int) {
            close(to: depth)
            if open[depth - 1].count > 0 { bytes.append(UInt8(ascii: ",")) }
            open[depth - 1].count += 1
            pending = true
        }

        func key(_ key: String, depth: Int) {
            element(depth: depth)
            string(key)
            bytes.append(UInt8(ascii: ":"))
        }

        /// Any value in the slot at `depth`. `path` is built only where it is needed (a nested
        /// encoder, an error): not an array a key for a record's thousands of plain values.
        ///
        /// The plain values come through the containers' own methods for them; what reaches here
        /// is told apart by its type's identity (a comparison), and cast only once it is known:
        /// a struct went through twelve failing casts before it was encoded.
        func value<T: Encodable>(_ value: T, depth: Int, path: @autoclosure () -> [any CodingKey]) throws {
            guard Self.plainTypes.contains(ObjectIdentifier(T.self)) else {
                return try value.encode(to: Writer(sink: self, depth: depth, codingPath: path()))
            }
            switch value {
            case let s as String: beginValue(depth: depth); string(s)
            case let b as Bool: beginValue(depth: depth); literal(b ? "true" : "false")
            case let n as Int: beginValue(depth: depth); integer(n)
            case let n as UInt32: beginValue(depth: depth); integer(n)
            case let n as UInt8: beginValue(depth: depth); integer(n)
            case let n as Int8: beginValue(depth: depth); integer(n)
            case let n as UInt16: beginValue(depth: depth); integer(n)
            case let n as UInt64: beginValue(depth: depth); integer(n)
            case let n as Int64: beginValue(depth: depth); integer(n)
            case let n as Double: beginValue(depth: depth); try double(n, path: path())
            // A learnset's arrays of move ids (a Pokémon has up to 2,700): written at once, not a
            // value at a time through an encoder.
            case let a as [UInt32]: beginValue(depth: depth); integers(a)
            case let a as [Int]: beginValue(depth: depth); integers(a)
            case is URL, is Data:
                throw EncodingError.invalidValue(value, .init(codingPath: path(), debugDescription: "RecordJSON does not write \(T.self)"))
            default:
                try value.encode(to: Writer(sink: self, depth: depth, codingPath: path()))
            }
        }

        /// The types ``value(_:depth:path:)`` writes itself.
        private static let plainTypes: Set<ObjectIdentifier> = [
            ObjectIdentifier(String.self), ObjectIdentifier(Bool.self), ObjectIdentifier(Int.self), ObjectIdentifier(UInt32.self),
            ObjectIdentifier(UInt8.self), ObjectIdentifier(Int8.self), ObjectIdentifier(UInt16.self), ObjectIdentifier(UInt64.self),
            ObjectIdentifier(Int64.self), ObjectIdentifier(Double.self), ObjectIdentifier([UInt32].self), ObjectIdentifier([Int].self),
            ObjectIdentifier(URL.self), ObjectIdentifier(Data.self),
        ]

        func null(depth: Int) {
            beginValue(depth: depth)
            literal("null")
        }

        func literal(_ s: StaticString) {
            s.withUTF8Buffer { bytes.append(contentsOf: $0) }
        }

        func integer<N: BinaryInteger>(_ n: N) {
            if n < 0 { bytes.append(UInt8(ascii: "-")) }
            var m = n.magnitude
            // The digits, last first, into a buffer long enough for any 64-bit magnitude.
            var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)
            var count = 0
            withUnsafeMutableBytes(of: &digits) { d in
                repeat {
                    d[count] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: m % 10)
                    m /= 10
                    count += 1
                } while m > 0 && count < d.count
                for i in stride(from: count - 1, through: 0, by: -1) { bytes.append(d[i]) }
            }
        }

        func integers<N: BinaryInteger>(_ a: [N]) {
            bytes.append(UInt8(ascii: "["))
            for (k, n) in a.enumerated() {
                if k > 0 { bytes.append(UInt8(ascii: ",")) }
                integer(n)
            }
            bytes.append(UInt8(ascii: "]"))
        }

        func double(_ d: Double, path: [any CodingKey]) throws {
            guard d.isFinite else {
                throw EncodingError.invalidValue(d, .init(codingPath: path, debugDescription: "\(d) is not a JSON number"))
            }
            // The shortest text that reads back as the same Double ("0.1", "1795747294.7618415").
            bytes.append(contentsOf: d.description.utf8)
        }

        private static let hexDigits = Array("0123456789abcdef".utf8)

        /// `s` quoted: `"` and `\` escaped, the C0 controls as JSON's escapes.
        func string(_ s: String) {
            bytes.append(UInt8(ascii: "\""))
            var s = s
            s.withUTF8 { utf8 in
                var run = 0
                for (i, c) in utf8.enumerated() where c < 0x20 || c == UInt8(ascii: "\"") || c == UInt8(ascii: "\\") {
                    bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[run..<i]))
                    run = i + 1
                    bytes.append(UInt8(ascii: "\\"))
                    switch c {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"): bytes.append(c)
                    case 0x0A: bytes.append(UInt8(ascii: "n"))
                    case 0x0D: bytes.append(UInt8(ascii: "r"))
                    case 0x09: bytes.append(UInt8(ascii: "t"))
                    default:
                        bytes.append(contentsOf: [UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), Self.hexDigits[Int(c >> 4)], Self.hexDigits[Int(c & 0xF)]])
                    }
                }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[run...]))
            }
            bytes.append(UInt8(ascii: "\""))
        }
    }

    /// The `Encoder` for the value in one slot: the slot's depth is that of the container
    /// holding it (0 for the whole record).
    struct Writer: Encoder {
        let sink: Sink
        let depth: Int
        var codingPath: [any CodingKey]
        var userInfo: [CodingUserInfoKey: Any] { [:] }

        func container<Key: CodingKey>(keyedBy: Key.Type) -> KeyedEncodingContainer<Key> {
            sink.openContainer(UInt8(ascii: "{"), UInt8(ascii: "}"), depth: depth)
            return KeyedEncodingContainer(Keyed<Key>(sink: sink, depth: depth + 1, codingPath: codingPath))
        }

        func unkeyedContainer() -> any UnkeyedEncodingContainer {
            sink.openContainer(UInt8(ascii: "["), UInt8(ascii: "]"), depth: depth)
            return Unkeyed(sink: sink, depth: depth + 1, codingPath: codingPath)
        }

        func singleValueContainer() -> any SingleValueEncodingContainer { Single(sink: sink, depth: depth, codingPath: codingPath) }
    }

    struct Keyed<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let sink: Sink
        /// The depth of the values it holds.
        let depth: Int
        var codingPath: [any CodingKey]

        mutating func encodeNil(forKey key: Key) throws {
            sink.key(key.stringValue, depth: depth)
            sink.null(depth: depth)
        }

        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
            sink.key(key.stringValue, depth: depth)
            try sink.value(value, depth: depth, path: codingPath + [key])
        }

        // A record's plain fields, as the synthesised `encode(to:)` writes them: straight to
        // the sink, not through the generic method.
        mutating func encode(_ value: String, forKey key: Key) throws {
            sink.key(key.stringValue, depth: depth)
            sink.beginValue(depth: depth)
            sink.string(value)
        }
        mutating func encode(_ value: Bool, forKey key: Key) throws {
            sink.key(key.stringValue, depth: depth)
            sink.beginValue(depth: depth)
            sink.literal(value ? "true" : "false")
        }
        mutating func encode(_ value: Int, forKey key: Key) throws { integer(value, key) }
        mutating func encode(_ value: UInt32, forKey key: Key) throws { integer(value, key) }
        mutating func encode(_ value: UInt8, forKey key: Key) throws { integer(value, key) }
        mutating func encode(_ value: UInt16, forKey key: Key) throws { integer(value, key) }

        private func integer<N: BinaryInteger>(_ value: N, _ key: Key) {
            sink.key(key.stringValue, depth: depth)
            sink.beginValue(depth: depth)
            sink.integer(value)
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
            sink.key(key.stringValue, depth: depth)
            return Writer(sink: sink, depth: depth, codingPath: codingPath + [key]).container(keyedBy: NestedKey.self)
        }

        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            sink.key(key.stringValue, depth: depth)
            return Writer(sink: sink, depth: depth, codingPath: codingPath + [key]).unkeyedContainer()
        }

        mutating func superEncoder() -> any Encoder { superEncoder(named: "super") }
        mutating func superEncoder(forKey key: Key) -> any Encoder { superEncoder(named: key.stringValue) }

        private func superEncoder(named name: String) -> any Encoder {
            sink.key(name, depth: depth)
            return Writer(sink: sink, depth: depth, codingPath: codingPath)
        }
    }

    struct Unkeyed: UnkeyedEncodingContainer {
        let sink: Sink
        let depth: Int
        var codingPath: [any CodingKey]
        var count: Int { sink.open.count >= depth ? sink.open[depth - 1].count : 0 }

        mutating func encodeNil() throws {
            sink.element(depth: depth)
            sink.null(depth: depth)
        }

        mutating func encode<T: Encodable>(_ value: T) throws {
            sink.element(depth: depth)
            try sink.value(value, depth: depth, path: codingPath)
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
            sink.element(depth: depth)
            return Writer(sink: sink, depth: depth, codingPath: codingPath).container(keyedBy: NestedKey.self)
        }

        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
            sink.element(depth: depth)
            return Writer(sink: sink, depth: depth, codingPath: codingPath).unkeyedContainer()
        }

        mutating func superEncoder() -> any Encoder {
            sink.element(depth: depth)
            return Writer(sink: sink, depth: depth, codingPath: codingPath)
        }
    }

    struct Single: SingleValueEncodingContainer {
        let sink: Sink
        let depth: Int
        var codingPath: [any CodingKey]

        mutating func encodeNil() throws { sink.null(depth: depth) }

        mutating func encode<T: Encodable>(_ value: T) throws { try sink.value(value, depth: depth, path: codingPath) }
    }
}
