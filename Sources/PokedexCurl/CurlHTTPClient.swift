import CCurl
import CCurlShims
import Glibc
import PokedexNetwork
import PokedexEventLoop
import PokedexModels

/// The core's ``HTTPClient`` over libcurl's multi interface, on the daemon's one
/// `sd_event` loop: curl's sockets and timer are mapped onto `sd_event` sources
/// (`CURLMOPT_SOCKETFUNCTION`, `CURLMOPT_TIMERFUNCTION`), so no thread ever blocks on
/// the network. Connections are reused across requests through the multi handle.
///
/// HTTP/2 where the server offers it (ALPN): requests to one host share one connection
/// (`CURLOPT_PIPEWAIT`: a new request waits to learn whether the connection being opened
/// multiplexes, rather than opening another). HTTP/1.1 servers get at most
/// ``Options/maxHostConnections`` connections. Which requests go first is decided by the
/// core's request gate, never by curl's queue.
///
/// Every socket acknowledges what it receives at once (``acknowledgeAtOnce(_:)``).
///
/// Callers may be on any thread; every curl call happens on the loop thread.
public final class CurlHTTPClient: HTTPClient, Sendable {
    /// Loads libcurl and sets it up: call once in `main`, before any thread starts and before
    /// the sandbox closes the files. libcurl is loaded, not linked (`pdx_curl_load`), so that
    /// pokectl, the same binary, never maps it.
    public static func globalInit() throws(TransportFailure) {
        try load()
        pdx_curl_global_init(Int(CURL_GLOBAL_DEFAULT))
    }

    /// Loads libcurl once; what the dynamic loader said when it could not.
    static func load() throws(TransportFailure) {
        if let why = pdx_curl_load() {
            throw .other("libcurl could not be loaded (\(String(cString: why))); pokedexd needs libcurl 4 built with OpenSSL (Debian: libcurl4t64, or libcurl4 before Debian 13)")
        }
    }

    public func content(of response: HTTPResponse, maxBytes: Int) throws(TransportFailure) -> [UInt8] {
        try ContentDecoding.content(of: response, maxBytes: min(maxBytes, options.maxBodyBytes))
    }

    public func recycle(_ content: [UInt8]) { ContentDecoding.recycle(content) }

    /// Limits for every transfer.
    public struct Options: Sendable {
        /// Connections per host that does not multiplex (HTTP/1.1).
        public var maxHostConnections = 6
        /// Streams on one HTTP/2 connection (servers allow about 100–128).
        public var maxConcurrentStreams = 100
        public var connectTimeout = 5.0
        /// The most any body may be, whatever a request allows.
        public var maxBodyBytes = 32 << 20
        public var userAgent = PokedexVersion.userAgent
        /// Certificates to trust instead of the system's (a self-hosted mirror); verification stays on.
        public var caFile: String?
        public init() {}
    }

    /// The multi handle and what is under way on it: the loop thread's alone.
    struct State {
        let multi: UnsafeMutableRawPointer
        var transfers: [UnsafeMutableRawPointer: Transfer] = [:]
        var sockets: [Int32: EventSource] = [:]
        var timer: EventSource?
        /// curl's timer when it asks to be called at once: the loop's next turn.
        var now: EventSource?
    }

    let loop: EventLoop
    let options: Options
    private let log: Logger
    /// Read ahead, off the loop; a transfer waits for them before it reaches the loop.
    private let certificates: TrustedCertificates
    private let state: LoopBound<State>
    private var multi: UnsafeMutableRawPointer { state.value.multi }
    private var transfers: [UnsafeMutableRawPointer: Transfer] { get { state.value.transfers } _modify { yield &state.value.transfers } }
    private var sockets: [Int32: EventSource] { get { state.value.sockets } _modify { yield &state.value.sockets } }
    private var timer: EventSource? { get { state.value.timer } _modify { yield &state.value.timer } }
    private var now: EventSource? { get { state.value.now } _modify { yield &state.value.now } }

    /// - Parameter log: where a socket or timer curl asked for that the loop cannot watch is told.
    public init(loop: EventLoop, options: Options = Options(), log: @escaping Logger = { _, _ in }) throws {
        try Self.load()
        guard let m = pdx_curl_multi_init() else { throw TransportFailure.other("curl_multi_init failed") }
        certificates = TrustedCertificates(file: options.caFile)
        state = LoopBound(State(multi: m), loop: loop)
        self.loop = loop
        self.options = options
        self.log = log
        let me = Unmanaged.passUnretained(self).toOpaque()
        pdx_multi_setopt_long(m, CURLMOPT_MAX_HOST_CONNECTIONS, options.maxHostConnections)
        pdx_multi_setopt_long(m, CURLMOPT_MAXCONNECTS, options.maxHostConnections * 4)
        pdx_multi_setopt_long(m, CURLMOPT_PIPELINING, Int(CURLPIPE_MULTIPLEX))
        pdx_multi_setopt_long(m, CURLMOPT_MAX_CONCURRENT_STREAMS, options.maxConcurrentStreams)
        pdx_multi_setopt_socket_fn(m, { _, fd, what, userp, _ in
            // No client any more (its deinit is tearing the handles down): nothing to watch.
            guard let userp else { return 0 }
            Unmanaged<CurlHTTPClient>.fromOpaque(userp).takeUnretainedValue().socketChanged(fd, what)
            return 0
        })
        pdx_multi_setopt_ptr(m, CURLMOPT_SOCKETDATA, me)
        pdx_multi_setopt_timer_fn(m, { _, timeoutMS, userp in
            guard let userp else { return 0 }
            Unmanaged<CurlHTTPClient>.fromOpaque(userp).takeUnretainedValue().timerChanged(timeoutMS)
            return 0
        })
        pdx_multi_setopt_ptr(m, CURLMOPT_TIMERDATA, me)
    }

    /// What is still under way is failed (its callers are gone with the client), then the
    /// sources, the easy handles and the multi handle are released, in the order curl asks.
    deinit {
        let s = state.valueAtTeardown
        // curl calls back while handles are removed: not into this object any more.
        pdx_multi_setopt_ptr(s.multi, CURLMOPT_SOCKETDATA, nil)
        pdx_multi_setopt_ptr(s.multi, CURLMOPT_TIMERDATA, nil)
        for t in s.transfers.values {
            pdx_curl_multi_remove_handle(s.multi, t.easy)
            t.close()
            t.continuation.resume(throwing: CancellationError())
        }
        for source in s.sockets.values { source.cancel() }
        s.timer?.cancel()
        s.now?.cancel()
        pdx_curl_multi_cleanup(s.multi)
    }

    /// A cancelled caller's transfer is removed from the multi handle at once.
    public func get(_ request: HTTPRequest) async throws -> HTTPResponse {
        try await get(request, ticket: Ticket(loop: loop))
    }

    func get(_ request: HTTPRequest, ticket: Ticket) async throws -> HTTPResponse {
        if request.url.utf8.starts(with: "https:".utf8) { await certificates.ready() }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<HTTPResponse, any Error>) in
                loop.execute { self.start(request, continuation, ticket) }
            }
        } onCancel: {
            loop.execute { self.cancel(ticket) }
        }
    }

    /// Which transfer a request became, so its caller can cancel it.
    ///
    /// It holds the transfer itself, not its easy handle: a caller cancelled after its transfer
    /// ended (its task not yet resumed) must not reach the transfer that curl's next easy
    /// handle, often at the same address, now belongs to.
    final class Ticket: Sendable {
        struct State {
            var transfer: Transfer?
            var cancelled = false
        }
        let state: LoopBound<State>
        init(loop: EventLoop) { state = LoopBound(State(), loop: loop) }
        var transfer: Transfer? { get { state.value.transfer } set { state.value.transfer = newValue } }
        var cancelled: Bool { get { state.value.cancelled } set { state.value.cancelled = newValue } }
    }

    // MARK: Loop thread

    /// The caller's task was cancelled: its transfer, if still under way, ends now.
    func cancel(_ ticket: Ticket) {
        ticket.cancelled = true
        if let t = ticket.transfer, transfers[t.easy] === t { finish(t, result: .failure(CancellationError())) }
    }

    private func start(_ request: HTTPRequest, _ continuation: CheckedContinuation<HTTPResponse, any Error>, _ ticket: Ticket) {
        if ticket.cancelled { return continuation.resume(throwing: CancellationError()) }
        guard let easy = pdx_curl_easy_init() else {
            continuation.resume(throwing: TransportFailure.other("curl_easy_init failed"))
            return
        }
        let maxBody = min(request.maxBytes, options.maxBodyBytes)
        let t = Transfer(easy: easy, url: request.url, maxBody: maxBody, continuation: continuation)
        let me = Unmanaged.passUnretained(t).toOpaque()
        pdx_easy_setopt_str(easy, CURLOPT_URL, request.url)
        pdx_easy_setopt_long(easy, CURLOPT_NOSIGNAL, 1)
        // Compressed on the wire, inflated by the caller off the loop (ContentDecoding).
        pdx_easy_setopt_str(easy, CURLOPT_ACCEPT_ENCODING, ContentDecoding.accepted)
        pdx_easy_setopt_long(easy, CURLOPT_HTTP_CONTENT_DECODING, 0)
        pdx_easy_setopt_str(easy, CURLOPT_USERAGENT, options.userAgent)
        pdx_easy_setopt_str(easy, CURLOPT_PROTOCOLS_STR, "http,https")
        pdx_easy_setopt_long(easy, CURLOPT_FOLLOWLOCATION, 0)  // the core checks redirects against the allowlist
        pdx_easy_setopt_long(easy, CURLOPT_CONNECTTIMEOUT_MS, Int(options.connectTimeout * 1000))
        pdx_easy_setopt_long(easy, CURLOPT_TIMEOUT_MS, max(1, Int(request.timeout * 1000)))
        pdx_easy_setopt_long(easy, CURLOPT_TCP_KEEPALIVE, 1)
        pdx_easy_setopt_long(easy, CURLOPT_HTTP_VERSION, Int(CURL_HTTP_VERSION_2TLS))
        // Wait for the connection under way to say whether it multiplexes, rather than open
        // another: only where it may (HTTPS, through ALPN). Over plain HTTP/1.1 it would hold
        // requests back for a busy connection instead of opening the next one.
        if HTTPRequest.mayMultiplex(request.url) { pdx_easy_setopt_long(easy, CURLOPT_PIPEWAIT, 1) }
        if request.method == .head {
            pdx_easy_setopt_long(easy, CURLOPT_NOBODY, 1)  // its Content-Length is no body to refuse
        } else {
            pdx_easy_setopt_long(easy, CURLOPT_MAXFILESIZE, max(1, maxBody))  // refused from Content-Length alone
        }
        if let caFile = options.caFile { pdx_easy_setopt_str(easy, CURLOPT_CAINFO, caFile) }
        pdx_easy_use_preloaded_ca(easy)
        pdx_easy_setopt_ptr(easy, CURLOPT_ERRORBUFFER, t.errorBuffer)
        pdx_easy_setopt_ptr(easy, CURLOPT_PRIVATE, me)
        pdx_easy_setopt_write_fn(easy, CURLOPT_WRITEFUNCTION, { data, size, count, userdata in
            Unmanaged<Transfer>.fromOpaque(userdata!).takeUnretainedValue().receiveBody(data!, size * count)
        })
        pdx_easy_setopt_ptr(easy, CURLOPT_WRITEDATA, me)
        pdx_easy_setopt_write_fn(easy, CURLOPT_HEADERFUNCTION, { data, size, count, userdata in
            Unmanaged<Transfer>.fromOpaque(userdata!).takeUnretainedValue().receiveHeader(data!, size * count)
        })
        pdx_easy_setopt_ptr(easy, CURLOPT_HEADERDATA, me)
        if let etag = request.ifNoneMatch {
            t.headerList = pdx_curl_slist_append(nil, "If-None-Match: \(etag)")
            pdx_easy_setopt_ptr(easy, CURLOPT_HTTPHEADER, UnsafeMutableRawPointer(t.headerList))
        }
        transfers[easy] = t
        ticket.transfer = t
        let rc = pdx_curl_multi_add_handle(multi, easy)
        if rc != CURLM_OK {
            finish(t, result: .failure(TransportFailure.other("curl_multi_add_handle: \(String(cString: pdx_curl_multi_strerror(rc)))")))
        }
    }

    /// curl wants a socket watched for other events, or no longer.
    private func socketChanged(_ fd: curl_socket_t, _ what: Int32) {
        if what == CURL_POLL_REMOVE {
            sockets.removeValue(forKey: fd)?.cancel()
            return
        }
        var events: UInt32 = 0
        if what == CURL_POLL_IN || what == CURL_POLL_INOUT { events |= IOEvents.readable }
        if what == CURL_POLL_OUT || what == CURL_POLL_INOUT { events |= IOEvents.writable }
        if let source = sockets[fd] {
            source.setEvents(events)
            return
        }
        do {
            sockets[fd] = try loop.watch(fd: fd, events: events) { [unowned self] revents in
                var mask: Int32 = 0
                if revents & IOEvents.readable != 0 {
                    mask |= CURL_CSELECT_IN
                    Self.acknowledgeAtOnce(fd)
                }
                if revents & IOEvents.writable != 0 { mask |= CURL_CSELECT_OUT }
                if revents & (IOEvents.error | IOEvents.hangUp) != 0 { mask |= CURL_CSELECT_ERR }
                self.act(fd, mask)
            }
        } catch {
            // Its transfers then end at their own time-out, through curl's timer; at the loop's
            // end there is nothing to say.
            if !error.loopEnding { log(.error, "cannot watch curl's socket \(fd): \(error)") }
        }
    }

    /// curl wants to be called back in `timeoutMS` ms (-1: never).
    private func timerChanged(_ timeoutMS: Int) {
        // curl moves its timer at every step of every transfer (37,000 times in a sync): the
        // one source is set again, not made anew each time.
        guard timeoutMS >= 0 else {
            timer?.setEnabled(false)
            now?.setEnabled(false)
            return
        }
        // At once (each transfer added asks it): the loop's next turn, no timer set and read.
        // The timer is left as it was (turning it off sets the timerfd too): curl sets it anew
        // when it has been called, and a call at a time it no longer waits for does nothing.
        if timeoutMS == 0 {
            if now == nil { now = try? loop.nextTurn { [unowned self] in self.act(CURL_SOCKET_TIMEOUT, 0) } }
            if let now {
                now.fireOnce()
                return
            }
        }
        now?.setEnabled(false)
        if let timer, timer.rearm(after: UInt64(timeoutMS) * 1000) { return }
        timer?.cancel()
        timer = nil
        do {
            timer = try loop.networkTimer(after: UInt64(timeoutMS) * 1000) { [unowned self] in
                self.act(CURL_SOCKET_TIMEOUT, 0)
            }
        } catch where error.loopEnding {
            // The service is exiting: no transfer is waited for any more.
        } catch {
            log(.error, "cannot arm curl's timer (\(timeoutMS) ms): \(error); transfers may wait for their sockets")
        }
    }

    /// `TCP_QUICKACK`, set again each time data arrives (Linux leaves quick-ACK mode on its
    /// own once a connection looks interactive). An HTTP/1.1 server that writes a response's
    /// headers and body apart, with Nagle on (Python's `http.server` does), holds the body's
    /// last segment until its headers are acknowledged; with delayed ACKs on this side that is
    /// up to 40 ms a request on a reused connection: 92 ms rather than 52 at serve.py's 50 ms
    /// (issue 38). Not a TCP socket (no error to act on): nothing happens.
    private static func acknowledgeAtOnce(_ fd: curl_socket_t) {
        var on: Int32 = 1
        _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_QUICKACK, &on, socklen_t(MemoryLayout<Int32>.size))
    }

    private func act(_ fd: curl_socket_t, _ mask: Int32) {
        var running: Int32 = 0
        pdx_curl_multi_socket_action(multi, fd, mask, &running)
        collectFinished()
    }

    private func collectFinished() {
        var left: Int32 = 0
        while let msg = pdx_curl_multi_info_read(multi, &left) {
            guard msg.pointee.msg == CURLMSG_DONE, let easy = msg.pointee.easy_handle,
                  let t = transfers[easy] else { continue }
            let code = msg.pointee.data.result
            if code == CURLE_OK {
                var status = 0, version = 0
                pdx_easy_getinfo_long(easy, CURLINFO_RESPONSE_CODE, &status)
                pdx_easy_getinfo_long(easy, CURLINFO_HTTP_VERSION, &version)
                let multiplexed = version >= Int(CURL_HTTP_VERSION_2_0)
                finish(t, result: .success(HTTPResponse(status: status, headers: t.headers, body: t.body, multiplexed: multiplexed)))
            } else if code == CURLE_FILESIZE_EXCEEDED || (code == CURLE_WRITE_ERROR && t.overLimit) {
                finish(t, result: .failure(TransportFailure.tooLarge("the body is over \(t.maxBody) bytes")))
            } else {
                var status = 0
                pdx_easy_getinfo_long(easy, CURLINFO_RESPONSE_CODE, &status)
                finish(t, result: .failure(Self.failure(code, detail: t.errorText, answered: status > 0)))
            }
        }
    }

    private func finish(_ t: Transfer, result: Result<HTTPResponse, any Error>) {
        transfers.removeValue(forKey: t.easy)
        pdx_curl_multi_remove_handle(multi, t.easy)
        t.close()
        t.continuation.resume(with: result)
    }
}
