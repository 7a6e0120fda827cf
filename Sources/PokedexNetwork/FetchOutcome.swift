import FoundationEssentials
import PokedexModels

/// Why the ``Fetcher`` gave up.
package enum FetchError: Error, Equatable, Sendable {
    /// The API answered 404 (or 410).
    case notFound(url: String)
    /// The URL's host is not on the allowlist.
    case hostNotAllowed(String)
    /// The API kept failing with this status.
    case http(status: Int, url: String)
    /// No answer arrived.
    case transport(TransportFailure, url: String)
    /// The deadline passed before an answer.
    case deadline(url: String)
    /// `304 Not Modified` to a request that sent no validator: nothing to reuse.
    case unexpectedNotModified(url: String)
    /// Nobody waits for the answer any more.
    case cancelled(url: String)
    /// A plain-http URL while the API is https: a downgrade, refused.
    case insecure(url: String)
    /// The host is down and this request does not need it enough to try (see ``HostHealth``).
    case hostDown(host: String, message: String)
    /// The body is larger than any real one of its kind: a permanent error, never retried.
    case tooLarge(url: String, limit: Int)
    /// The body arrived but is not what was asked for (``message`` says why).
    case unusable(url: String, message: String)

    package func asPokedexError(context: String) -> PokedexError {
        switch self {
        case .notFound: return .notFound(context)
        case .hostNotAllowed(let host):
            return .unavailable("\(context): refusing to fetch from \(host), which is not an allowed host")
        case .http(let status, let url):
            return .unavailable(ServiceMessages.format(ServiceMessages.httpStatus, context, String(status), url))
        case .transport(let failure, let url):
            return .unavailable(ServiceMessages.format(ServiceMessages.cannotReach, context, HostHealth.authority(url) ?? url, "\(failure)"))
        case .deadline(let url):
            return .unavailable(ServiceMessages.format(ServiceMessages.noAnswerInTime, context, HostHealth.authority(url) ?? url))
        case .unexpectedNotModified(let url):
            return .unavailable("\(context): PokeAPI answered 304 Not Modified for \(url) without being asked to revalidate")
        case .cancelled:
            return .unavailable(ServiceMessages.format(ServiceMessages.cancelled, context))
        case .hostDown(_, let message):
            return .unavailable(ServiceMessages.format(ServiceMessages.notCached, context, message))
        case .insecure(let url):
            return .unavailable("\(context): refusing \(url): the API is https, so nothing is fetched over plain http")
        case .tooLarge(let url, let limit):
            return .unavailable("\(context): \(url) sent a body over \(limit >> 10) KiB, larger than any real one; refused")
        case .unusable(_, let message):
            return .unavailable("\(context): \(message)")
        }
    }

    /// Whether trying again cannot help.
    package var isPermanent: Bool {
        switch self {
        case .notFound, .hostNotAllowed, .tooLarge, .unusable, .unexpectedNotModified: return true
        default: return false
        }
    }
}

/// What a successful fetch brought: the body as `transform` made it, or `304`.
package enum Fetched<Value: Sendable>: Sendable {
    /// A new body, with its validator and lifetime.
    case body(Value, etag: String?, maxAge: Double)
    /// `304`: the cached copy is still good for `maxAge` more seconds.
    case notModified(etag: String?, maxAge: Double)
}
extension Fetched: Equatable where Value: Equatable {}

/// A fetch that keeps the raw bytes.
package typealias FetchOutcome = Fetched<[UInt8]>

/// What kind of body a request expects: its size cap and what it is budgeted at while it
/// waits to be decoded.
package struct BodyKind: Sendable, Equatable {
    /// Larger than this is refused (permanently): PokeAPI's largest body is Mew's, 1.3 MB.
    public let maxBytes: Int
    /// Held in the decode budget from the request's start until its body is decoded.
    public let expectedBytes: Int

    /// API bodies: the largest real one is `pokemon/151`, 1.34 MB; three times that.
    public static let json = BodyKind(maxBytes: 4 << 20, expectedBytes: 64 << 10)
    /// `pokemon` bodies: 250 KB on average (their `moves`), 1.34 MB at most.
    public static let pokemonJSON = BodyKind(maxBytes: 4 << 20, expectedBytes: 320 << 10)
    /// Default sprites: 96×96 PNGs of a few KB (the stand-in's are 15 KB).
    public static let png = BodyKind(maxBytes: 1 << 20, expectedBytes: 32 << 10)
    /// Generation-V animated sprites: tens of KB.
    public static let gif = BodyKind(maxBytes: 2 << 20, expectedBytes: 64 << 10)
    /// Cries: Ogg Vorbis of a second or two, 10 to 60 KB.
    public static let ogg = BodyKind(maxBytes: 1 << 20, expectedBytes: 64 << 10)
    /// A probe or a warm-up: no body is read.
    public static let none = BodyKind(maxBytes: 64 << 10, expectedBytes: 0)
}
