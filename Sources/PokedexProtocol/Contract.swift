import PokedexModels

/// How one Swift value travels as one D-Bus value: its signature, and both directions.
///
/// `decode` reads a value already taken off the wire as a ``BusValue`` (what a generic
/// client holds); `read` takes it straight from a message, and defaults to `decode`.
public struct Codec<T>: Sendable {
    public let signature: String
    /// What a caller may send in this value, checked as it is read (nil: a fixed-size value).
    public let cap: ArgumentCap?
    let write: @Sendable (MessageWriter, T) throws(BusError) -> Void
    let decode: @Sendable (BusValue) throws(BusError) -> T
    let read: @Sendable (MessageReader) throws(BusError) -> T

    public init(_ signature: String,
                write: @escaping @Sendable (MessageWriter, T) throws(BusError) -> Void,
                decode: @escaping @Sendable (BusValue) throws(BusError) -> T,
                read: (@Sendable (MessageReader) throws(BusError) -> T)? = nil, cap: ArgumentCap? = nil) {
        self.signature = signature
        self.cap = cap
        self.write = write
        self.decode = decode
        if let read {
            self.read = read
        } else {
            self.read = { r throws(BusError) in try Self.readThenDecode(r, signature, decode) }
        }
    }

    private static func readThenDecode(_ r: MessageReader, _ signature: String,
                                       _ decode: @Sendable (BusValue) throws(BusError) -> T) throws(BusError) -> T {
        guard let v = try r.readValue() else { throw Coding.malformed("a missing \(signature)") }
        return try decode(v)
    }
}

/// The most a caller may send in one argument: how many elements an array may hold, and how
/// many bytes each string in it (or the string itself) may hold. Checked while the message is
/// read, element by element, before any ``BusValue`` is built; a call over it is answered
/// with `InvalidArgument` naming the argument and the cap.
public struct ArgumentCap: Sendable, Equatable, CustomStringConvertible {
    /// Most elements, for an array; nil for a single string.
    public let items: Int?
    /// Most bytes of each string.
    public let bytes: Int

    public init(items: Int? = nil, bytes: Int) {
        self.items = items
        self.bytes = bytes
    }

    public var description: String {
        items.map { "at most \($0) strings of at most \(bytes) bytes" } ?? "at most \(bytes) bytes"
    }
}

/// One named argument, reply value or signal value, as introspection shows it.
public struct Arg: Sendable, Equatable {
    public let name: String
    public let signature: String
    /// The cap on what a caller may send in it; nil for fixed-size values and for replies.
    public let cap: ArgumentCap?

    public init(name: String, signature: String, cap: ArgumentCap? = nil) {
        self.name = name
        self.signature = signature
        self.cap = cap
    }

    /// Introspection knows names and signatures only.
    public static func == (a: Arg, b: Arg) -> Bool { a.name == b.name && a.signature == b.signature }
}

/// The top-level values of a call, a reply or a signal, in order: their names and
/// signatures, and how the whole tuple is written and read.
public struct Fields<T>: Sendable {
    public let args: [Arg]
    let write: @Sendable (MessageWriter, T) throws(BusError) -> Void
    let read: @Sendable (MessageReader) throws(BusError) -> T
    let decode: @Sendable ([BusValue]) throws(BusError) -> T

    /// The whole signature, as a vtable takes it ("uu", "" for none).
    public var signature: String { args.map(\.signature).joined() }

    /// The same values, seen as another Swift type.
    public func map<U>(_ to: @escaping @Sendable (T) -> U, _ from: @escaping @Sendable (U) -> T) -> Fields<U> {
        let (write, read, decode) = (self.write, self.read, self.decode)
        return Fields<U>(args: args,
                         write: { w, u throws(BusError) in try write(w, from(u)) },
                         read: { r throws(BusError) in to(try read(r)) },
                         decode: { v throws(BusError) in to(try decode(v)) })
    }
}

extension Fields where T == Void {
    /// No values.
    public static var none: Fields<Void> {
        Fields(args: [], write: { _, _ throws(BusError) in }, read: { _ throws(BusError) in }, decode: { _ throws(BusError) in })
    }
}

extension Fields {
    /// Reads one value; a refusal names the argument it is about.
    static func read<V>(_ r: MessageReader, _ name: String, _ c: Codec<V>) throws(BusError) -> V {
        do throws(BusError) {
            return try c.read(r)
        } catch {
            guard error.name == PokedexError.Kind.invalidArgument.dbusName else { throw error }
            throw BusError(name: error.name, message: "\(name): \(error.message)")
        }
    }

    static func arg<V>(_ name: String, _ c: Codec<V>) -> Arg { Arg(name: name, signature: c.signature, cap: c.cap) }

    static func value<V>(_ values: [BusValue], _ i: Int, _ c: Codec<V>) throws(BusError) -> V {
        guard i < values.count else { throw Coding.malformed("a reply with \(values.count) value(s)") }
        return try c.decode(values[i])
    }

    public static func one(_ name: String, _ c: Codec<T>) -> Fields<T> {
        Fields(args: [arg(name, c)],
               write: { w, v throws(BusError) in try c.write(w, v) },
               read: { r throws(BusError) in try read(r, name, c) },
               decode: { v throws(BusError) in try value(v, 0, c) })
    }

    public static func two<A, B>(_ a: String, _ ca: Codec<A>, _ b: String, _ cb: Codec<B>) -> Fields<(A, B)> where T == (A, B) {
        Fields(args: [arg(a, ca), arg(b, cb)],
               write: { w, v throws(BusError) in try ca.write(w, v.0); try cb.write(w, v.1) },
               read: { r throws(BusError) in (try read(r, a, ca), try read(r, b, cb)) },
               decode: { v throws(BusError) in (try value(v, 0, ca), try value(v, 1, cb)) })
    }

    public static func three<A, B, C>(_ a: String, _ ca: Codec<A>, _ b: String, _ cb: Codec<B>, _ c: String, _ cc: Codec<C>)
        -> Fields<(A, B, C)> where T == (A, B, C) {
        Fields(args: [arg(a, ca), arg(b, cb), arg(c, cc)],
               write: { w, v throws(BusError) in try ca.write(w, v.0); try cb.write(w, v.1); try cc.write(w, v.2) },
               read: { r throws(BusError) in (try read(r, a, ca), try read(r, b, cb), try read(r, c, cc)) },
               decode: { v throws(BusError) in (try value(v, 0, ca), try value(v, 1, cb), try value(v, 2, cc)) })
    }

    public static func four<A, B, C, D>(_ a: String, _ ca: Codec<A>, _ b: String, _ cb: Codec<B>, _ c: String, _ cc: Codec<C>,
                                        _ d: String, _ cd: Codec<D>) -> Fields<(A, B, C, D)> where T == (A, B, C, D) {
        Fields(args: [arg(a, ca), arg(b, cb),
                      arg(c, cc), arg(d, cd)],
               write: { w, v throws(BusError) in try ca.write(w, v.0); try cb.write(w, v.1); try cc.write(w, v.2); try cd.write(w, v.3) },
               read: { r throws(BusError) in (try read(r, a, ca), try read(r, b, cb), try read(r, c, cc), try read(r, d, cd)) },
               decode: { v throws(BusError) in (try value(v, 0, ca), try value(v, 1, cb), try value(v, 2, cc), try value(v, 3, cd)) })
    }
}

/// A method: its name, its arguments and reply, and the errors it may answer with.
public struct Method<Args, Reply>: Sendable {
    public let name: String
    public let args: Fields<Args>
    public let reply: Fields<Reply>
    public let errors: [PokedexError.Kind]

    public init(_ name: String, args: Fields<Args>, reply: Fields<Reply>, errors: [PokedexError.Kind]) {
        self.name = name
        self.args = args
        self.reply = reply
        self.errors = errors
    }

    public func writeArgs(_ w: MessageWriter, _ a: Args) throws(BusError) { try args.write(w, a) }
    public func readArgs(_ r: MessageReader) throws(BusError) -> Args { try args.read(r) }
    public func writeReply(_ w: MessageWriter, _ v: Reply) throws(BusError) { try reply.write(w, v) }
    public func readReply(_ r: MessageReader) throws(BusError) -> Reply { try reply.read(r) }
    /// The reply from values a generic client already read (``MessageReader/readAll()``).
    public func decodeReply(_ values: [BusValue]) throws(BusError) -> Reply { try reply.decode(values) }

    public var shape: MemberShape { .method(name, args.args, reply.args) }
    public var member: Member { Member(shape: shape, errors: errors) }
}

/// A signal and its values.
public struct Signal<Value>: Sendable {
    public let name: String
    public let values: Fields<Value>

    public init(_ name: String, values: Fields<Value>) {
        self.name = name
        self.values = values
    }

    public func write(_ w: MessageWriter, _ v: Value) throws(BusError) { try values.write(w, v) }
    public func decode(_ v: [BusValue]) throws(BusError) -> Value { try values.decode(v) }

    public var shape: MemberShape { .signal(name, values.args) }
    public var member: Member { Member(shape: shape, errors: []) }
}

/// How clients learn that a property changed.
public enum PropertyChange: Sendable, Equatable {
    /// `PropertiesChanged` carries the new value.
    case emits
    /// Never changes while the service runs.
    case const
    /// Read it again when needed.
    case none
}

/// A read-only property.
public struct Property<Value>: Sendable {
    public let name: String
    public let codec: Codec<Value>
    public let change: PropertyChange

    public init(_ name: String, _ codec: Codec<Value>, change: PropertyChange) {
        self.name = name
        self.codec = codec
        self.change = change
    }

    public func write(_ w: MessageWriter, _ v: Value) throws(BusError) { try codec.write(w, v) }
    public func decode(_ v: BusValue) throws(BusError) -> Value { try codec.decode(v.unwrapped) }

    public var shape: MemberShape { .property(name, codec.signature, change) }
    public var member: Member { Member(shape: shape, errors: []) }
}

/// A member as its interface lists it: its shape, and the errors it may answer with (a method's).
public struct Member: Sendable {
    public let shape: MemberShape
    public let errors: [PokedexError.Kind]
}

/// One member as the vtable and introspection see it, whatever its Swift types.
public enum MemberShape: Sendable, Equatable {
    case method(String, [Arg], [Arg])
    case signal(String, [Arg])
    case property(String, String, PropertyChange)

    public var name: String {
        switch self {
        case .method(let n, _, _), .signal(let n, _), .property(let n, _, _): return n
        }
    }

    /// One line per member, as introspection XML gives it (see the tests' `InterfaceShape`):
    /// `method ListPage in:u:offset in:u:limit out:u:total out:a(ussb):entries`.
    public var introspectionLine: String {
        switch self {
        case .method(let n, let ins, let outs):
            return (["method \(n)"] + ins.map { "in:\($0.signature):\($0.name)" } + outs.map { "out:\($0.signature):\($0.name)" })
                .joined(separator: " ")
        case .signal(let n, let values):
            return (["signal \(n)"] + values.map { "out:\($0.signature):\($0.name)" }).joined(separator: " ")
        case .property(let n, let signature, _):
            return "property \(n) \(signature) read"
        }
    }
}

/// One published interface: where it lives and every member it has.
public struct Interface: Sendable {
    public let name: String
    public let objectPath: String
    public let members: [MemberShape]

    /// Each method's errors, by name (what the documentation lists).
    public let errors: [String: [PokedexError.Kind]]

    public init(name: String, objectPath: String, members: [MemberShape]) {
        self.name = name
        self.objectPath = objectPath
        self.members = members
        self.errors = [:]
    }

    public init(name: String, objectPath: String, listing: [Member]) {
        self.name = name
        self.objectPath = objectPath
        self.members = listing.map(\.shape)
        self.errors = Dictionary(listing.map { ($0.shape.name, $0.errors) }, uniquingKeysWith: { a, _ in a })
    }

    /// Every member as introspection lines, sorted.
    public var introspectionLines: [String] { members.map(\.introspectionLine).sorted() }
}
