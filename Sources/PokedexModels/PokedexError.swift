/// The one error type the core throws to callers.
///
/// Each case maps to exactly one D-Bus error name (see ``dbusName``), and
/// pokectl maps the same names to its exit codes. Messages are written for a
/// person: they say what went wrong and, where it helps, what to do.
public enum PokedexError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No Pokémon, or no resource, by that name or number.
    case notFound(String)
    /// The caller's argument is out of range or malformed.
    case invalidArgument(String)
    /// The network failed and nothing usable is cached.
    case unavailable(String)
    /// The service's own files could not be written (disk full, permissions).
    case storage(String)

    /// The D-Bus error interface prefix shared by every error.
    public static let namePrefix = "io.github.pokedexd.Pokedex1.Error."

    /// The cases without their messages: what a member may fail with, and the last part
    /// of the D-Bus error name.
    public enum Kind: String, Sendable, CaseIterable {
        case notFound = "NotFound", invalidArgument = "InvalidArgument", unavailable = "Unavailable", storage = "Storage"

        /// The whole D-Bus error name.
        public var dbusName: String { PokedexError.namePrefix + rawValue }
    }

    public var kind: Kind {
        switch self {
        case .notFound: return .notFound
        case .invalidArgument: return .invalidArgument
        case .unavailable: return .unavailable
        case .storage: return .storage
        }
    }

    /// The D-Bus error name this error is sent as.
    public var dbusName: String { kind.dbusName }

    /// The human message.
    public var message: String {
        switch self {
        case .notFound(let m), .invalidArgument(let m), .unavailable(let m), .storage(let m): return m
        }
    }

    public var description: String { message }

    /// Rebuilds an error from its D-Bus name and message (used by clients).
    public init?(dbusName: String, message: String) {
        switch Kind.allCases.first(where: { $0.dbusName == dbusName }) {
        case .notFound?: self = .notFound(message)
        case .invalidArgument?: self = .invalidArgument(message)
        case .unavailable?: self = .unavailable(message)
        case .storage?: self = .storage(message)
        case nil: return nil
        }
    }
}

/// Quotes a caller-supplied string for an error message: control characters
/// escaped, and long input cut, so a 1 MB name never becomes a 1 MB message.
public func quoted(_ text: String, limit: Int = 48) -> String {
    var out = ""
    var count = 0
    for scalar in text.unicodeScalars {
        if count == limit { out += "…"; break }
        switch scalar {
        case "\"": out += "\\\""
        case "\\": out += "\\\\"
        case _ where scalar.properties.generalCategory == .control:
            out += "\\u{\(String(scalar.value, radix: 16))}"
        default: out.unicodeScalars.append(scalar)
        }
        count += 1
    }
    return "\"\(out)\""
}
