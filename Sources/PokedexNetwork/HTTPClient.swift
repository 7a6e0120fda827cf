import PokedexModels

/// One GET, as the core asks for it.
public struct HTTPRequest: Sendable, Equatable {
    public var url: String
    /// Sent as `If-None-Match` when set.
    public var ifNoneMatch: String?
    /// The most this one attempt may take, in seconds.
    public var timeout: Double
    /// A body larger than this (decoded) fails with ``TransportFailure/tooLarge(_:)``.
    public var maxBytes: Int
    public var method: Method

    public enum Method: String, Sendable { case get = "GET", head = "HEAD" }

    /// Whether a request to `url` may share its connection with others: over HTTPS, where
    /// ALPN may offer HTTP/2; plain HTTP is HTTP/1.1, one request a connection at a time.
    public static func mayMultiplex(_ url: String) -> Bool {
        url.prefix(6).lowercased() == "https:"
    }

    public init(url: String, ifNoneMatch: String? = nil, timeout: Double = 10, maxBytes: Int = 32 << 20, method: Method = .get) {
        self.url = url
        self.ifNoneMatch = ifNoneMatch
        self.timeout = timeout
        self.maxBytes = maxBytes
        self.method = method
    }
}

/// One HTTP answer. Header names are lower-cased.
public struct HTTPResponse: Sendable, Equatable {
    public var status: Int
    public var headers: [String: String]
    /// The body as it came: its transfer encoding undone, its content encoding (the
    /// `content-encoding` header) not yet: ``HTTPClient/content(of:maxBytes:)`` does that, in
    /// the caller's task.
    public var body: [UInt8]
    /// Whether it came over a connection that multiplexes requests (HTTP/2 or later); nil if not known.
    public var multiplexed: Bool?

    /// The header fields the service reads, lower-cased: a client keeps these in ``headers``
    /// and need not keep the rest (a dozen a response, each a string and a dictionary entry).
    public static let fieldsRead: [String] = ["etag", "cache-control", "content-encoding", "location", "retry-after"]

    /// Its `Content-Encoding`, lower-cased; `identity` when it names none.
    public var contentEncoding: String {
        let e = headers["content-encoding"]?.lowercased() ?? ""
        return e.isEmpty ? "identity" : e
    }

    public init(status: Int, headers: [String: String] = [:], body: [UInt8] = [], multiplexed: Bool? = nil) {
        self.status = status
        self.headers = headers
        self.body = body
        self.multiplexed = multiplexed
    }
}

/// Why a request got no HTTP answer at all.
public enum TransportFailure: Error, Equatable, Sendable, CustomStringConvertible {
    /// DNS failed, the connection was refused or reset, or nobody answered.
    case connection(String)
    /// The attempt ran past its timeout.
    case timedOut(String)
    /// TLS verification failed: the server is not who it says (a captive portal, an interception
    /// proxy, a wrong clock). Trying again cannot help until the network changes.
    case untrusted(String)
    /// The body was cut off before its announced end.
    case truncated(String)
    /// The body grew past the request's ``HTTPRequest/maxBytes``.
    case tooLarge(String)
    /// Anything else the transport reports.
    case other(String)

    /// A body in an encoding the request did not offer to undo.
    public static func unaskedEncoding(_ encoding: String) -> TransportFailure {
        .other("the body came in \"\(encoding.prefix(40))\", an encoding that was not asked for")
    }

    public var description: String {
        switch self {
        case .connection(let m), .timedOut(let m), .untrusted(let m), .truncated(let m), .tooLarge(let m), .other(let m): return m
        }
    }
}

/// The network as the core sees it. `PokedexCurl` is the real one; tests use fakes.
/// It follows no redirects and never retries: the core's ``Fetcher`` decides that.
public protocol HTTPClient: Sendable {
    /// Performs one GET. Throws ``TransportFailure`` when no HTTP answer arrived.
    func get(_ request: HTTPRequest) async throws -> HTTPResponse

    /// The content of a body ``get(_:)`` returned, its `Content-Encoding` undone, at most
    /// `maxBytes` (``TransportFailure/tooLarge(_:)`` past it; ``TransportFailure/other(_:)`` for
    /// a body that is not what its encoding says). Runs in the caller's task, not the client's
    /// loop: inflating a sync's bodies is CPU that every bus call would wait behind.
    func content(of response: HTTPResponse, maxBytes: Int) throws(TransportFailure) -> [UInt8]

    /// Gives back what ``content(of:maxBytes:)`` inflated, once decoded: its memory may serve
    /// the next body.
    func recycle(_ content: [UInt8])
}

extension HTTPClient {
    /// A client that asks for no content encoding: the body is the content.
    public func content(of response: HTTPResponse, maxBytes: Int) throws(TransportFailure) -> [UInt8] {
        guard response.contentEncoding == "identity" else { throw .unaskedEncoding(response.contentEncoding) }
        guard response.body.count <= maxBytes else { throw .tooLarge("the body is over \(maxBytes) bytes") }
        return response.body
    }

    public func recycle(_ content: [UInt8]) {}
}
