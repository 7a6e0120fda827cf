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

    /// The D-Bus error name this error is sent as.
    public var dbusName: String {
        switch self {
        case .notFound: return Self.namePrefix + "NotFound"
        case .invalidArgument: return Self.namePrefix + "InvalidArgument"
        case .unavailable: return Self.namePrefix + "Unavailable"
        case .storage: return Self.namePrefix + "Storage"
        }
    }

    /// The human message.
    public var message: String {
        switch self {
        case .notFound(let m), .invalidArgument(let m), .unavailable(let m), .storage(let m): return m
        }
    }

    public var description: String { message }

    /// Rebuilds an error from its D-Bus name and message (used by clients).
    public init?(dbusName: String, message: String) {
        switch dbusName {
        case Self.namePrefix + "NotFound": self = .notFound(message)
        case Self.namePrefix + "InvalidArgument": self = .invalidArgument(message)
        case Self.namePrefix + "Unavailable": self = .unavailable(message)
        case Self.namePrefix + "Storage": self = .storage(message)
        default: return nil
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
