import Foundation
import Glibc
import PokedexLocks

/// A small HTTP/1.1 server in the test's process, on 127.0.0.1: each request answered as the
/// test's handler says (a body, one that hangs, one cut off), keep-alive, what it was asked
/// and on how many connections. Enough to hold libcurl to what the service expects of it.
final class TestHTTPServer: @unchecked Sendable {
    // @unchecked: the listening socket is set once; the rest is behind `state`.
    enum Reply {
        case respond(status: Int, headers: [String: String], body: [UInt8])
        /// Headers promising `length` bytes, then `sent` of them, then the connection closes.
        case cut(length: Int, sent: Int)
        /// Nothing, until the client goes away.
        case hang
        /// These bytes as they are (a head and a body the test wrote), then the connection closes.
        case raw([UInt8])
    }

    struct Request: Sendable {
        let path: String
        let headers: [String: String]
    }

    let port: UInt16
    private let listener: Int32
    private let handler: @Sendable (Request) -> Reply
    private struct State {
        var requests: [Request] = []
        var connections = 0
        /// Connections not closed yet: each is closed under the lock, so ``stop()`` never
        /// shuts down a descriptor whose number was given to another socket meanwhile.
        var open: Set<Int32> = []
        var stopped = false
    }
    private let state = Mutex(State())

    init(_ handler: @escaping @Sendable (Request) -> Reply) throws {
        self.handler = handler
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        listener = fd
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, len) } }
        guard bound == 0, listen(fd, 64) == 0 else { throw POSIXError(.EADDRINUSE) }
        _ = withUnsafeMutablePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &len) } }
        port = UInt16(bigEndian: addr.sin_port)
        // The listener is closed by this thread alone, once accept fails (``stop()`` shuts it
        // down): closed by another, its number could go to another socket (the client's, the
        // next test's listener, an event loop's) while this thread still used it.
        Thread { [weak self] in
            defer { close(fd) }
            while true {
                let c = accept(fd, nil, nil)
                guard c >= 0 else { return }
                guard let self, self.track(c) else { close(c); return }
                Thread { self.serve(c) }.start()
            }
        }.start()
    }

    var url: String { "http://127.0.0.1:\(port)" }
    var requests: [Request] { state.withLock { $0.requests } }
    var connections: Int { state.withLock { $0.connections } }

    /// Stops listening and ends every connection, once (a second call does nothing).
    func stop() {
        let first = state.withLock { s -> Bool in
            guard !s.stopped else { return false }
            s.stopped = true
            for c in s.open { shutdown(c, Int32(SHUT_RDWR)) }
            return true
        }
        if first { shutdown(listener, Int32(SHUT_RDWR)) }
    }

    deinit { stop() }

    /// A connection accepted: kept to be ended at ``stop()``, or refused if that came first.
    private func track(_ c: Int32) -> Bool {
        state.withLock { s in
            guard !s.stopped else { return false }
            s.connections += 1
            s.open.insert(c)
            return true
        }
    }

    private func serve(_ c: Int32) {
        defer { state.withLock { s in s.open.remove(c); _ = close(c) } }
        var pending: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            // One request's head (no request here has a body).
            var end: Int?
            while end == nil {
                if let e = Self.headEnd(pending) { end = e; break }
                let n = read(c, &buffer, buffer.count)
                guard n > 0 else { return }
                pending += buffer[..<n]
            }
            let head = String(decoding: pending[..<end!], as: UTF8.self)
            pending.removeFirst(end! + 4)
            let lines = head.components(separatedBy: "\r\n")
            let path = lines.first?.split(separator: " ").dropFirst().first.map(String.init) ?? "/"
            var headers: [String: String] = [:]
            for line in lines.dropFirst() {
                guard let colon = line.firstIndex(of: ":") else { continue }
                headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            }
            let request = Request(path: path, headers: headers)
            state.withLock { $0.requests.append(request) }
            switch handler(request) {
            case .respond(let status, let extra, let body):
                var text = "HTTP/1.1 \(status) X\r\nContent-Length: \(body.count)\r\n"
                for (k, v) in extra { text += "\(k): \(v)\r\n" }
                guard send(c, Array((text + "\r\n").utf8) + body) else { return }
            case .cut(let length, let sent):
                _ = send(c, Array("HTTP/1.1 200 OK\r\nContent-Length: \(length)\r\n\r\n".utf8) + [UInt8](repeating: 0x61, count: sent))
                return
            case .hang:
                while read(c, &buffer, buffer.count) > 0 {}
                return
            case .raw(let bytes):
                _ = send(c, bytes)
                return
            }
        }
    }

    private func send(_ c: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Glibc.send(c, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { return false }
            offset += n
        }
        return true
    }

    private static func headEnd(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for i in 0...(bytes.count - 4) where bytes[i] == 13 && bytes[i + 1] == 10 && bytes[i + 2] == 13 && bytes[i + 3] == 10 { return i }
        return nil
    }
}
