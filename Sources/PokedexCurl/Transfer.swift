import CCurl
import CCurlShims
import PokedexModels
import PokedexNetwork

/// One transfer's buffers; owned by the client on the loop thread.
final class Transfer {
    let easy: UnsafeMutableRawPointer
    let url: String
    let maxBody: Int
    let continuation: CheckedContinuation<HTTPResponse, any Error>
    var body: [UInt8] = []
    var headers: [String: String] = [:]
    var headerList: UnsafeMutablePointer<curl_slist>?
    /// The body grew past ``maxBody`` and was refused.
    var overLimit = false
    let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE) + 1)

    init(easy: UnsafeMutableRawPointer, url: String, maxBody: Int, continuation: CheckedContinuation<HTTPResponse, any Error>) {
        self.easy = easy
        self.url = url
        self.maxBody = maxBody
        self.continuation = continuation
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
    }

    var errorText: String { String(cString: errorBuffer) }

    func receiveBody(_ data: UnsafeMutablePointer<CChar>, _ count: Int) -> Int {
        guard body.count + count <= maxBody else {
            overLimit = true
            return 0  // curl then fails with CURLE_WRITE_ERROR
        }
        data.withMemoryRebound(to: UInt8.self, capacity: count) { body.append(contentsOf: UnsafeBufferPointer(start: $0, count: count)) }
        return count
    }

    /// A header line curl handed over: a field the service reads keeps its value (the last one
    /// of a name wins), the others are not made into strings; a status line starts a new
    /// response (after `100 Continue`). A `Content-Length` the body fits in sizes the body's
    /// buffer at once, rather than doubling it as the body comes.
    func receiveHeader(_ data: UnsafeMutablePointer<CChar>, _ count: Int) -> Int {
        let line = data.withMemoryRebound(to: UInt8.self, capacity: count) {
            Self.headerLine(UnsafeBufferPointer(start: $0, count: count)) { $0 == "content-length" || HTTPResponse.fieldsRead.contains($0) }
        }
        switch line {
        case .status:
            headers.removeAll()
        case .field(let name, let value):
            headers[name] = value
            if name == "content-length", let n = Int(value), n > 0, n <= maxBody, body.isEmpty { body.reserveCapacity(n) }
        case .other, .unread:
            break
        }
        return count
    }

    enum HeaderLine: Equatable {
        case status
        case field(name: String, value: String)
        /// The blank line at the end, or a line with no colon.
        case other
        /// A field whose name `wanted` said no to.
        case unread
    }

    /// One header line read on its bytes: the name's ASCII letters lowered, the white space
    /// around the value and the line's CRLF cut (space, tab, CR, LF, VT, FF: HTTP's own white
    /// space and the line's end); bytes that are not UTF-8 read as U+FFFD.
    static func headerLine(_ line: UnsafeBufferPointer<UInt8>, wanted: (String) -> Bool = { _ in true }) -> HeaderLine {
        if line.starts(with: "HTTP/".utf8) { return .status }
        guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else { return .other }
        let name = String(unsafeUninitializedCapacity: colon) { out in
            for k in 0..<colon { out[k] = ASCIIBytes.lowered(line[k]) }
            return colon
        }
        guard wanted(name) else { return .unread }
        let value = ASCIIBytes.trimmed((colon + 1)..<line.count, in: line)
        return .field(name: name, value: String(decoding: UnsafeBufferPointer(rebasing: line[value]), as: UTF8.self))
    }

    func close() {
        pdx_curl_easy_cleanup(easy)
        if let headerList { pdx_curl_slist_free_all(headerList) }
        headerList = nil
        errorBuffer.deallocate()
    }
}
