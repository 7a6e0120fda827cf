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

    func receiveHeader(_ data: UnsafeMutablePointer<CChar>, _ count: Int) -> Int {
        let line = data.withMemoryRebound(to: UInt8.self, capacity: count) {
            String(decoding: UnsafeBufferPointer(start: $0, count: count), as: UTF8.self)
        }
        if line.hasPrefix("HTTP/") {
            headers.removeAll()  // a new response (after 100 Continue)
        } else if let colon = line.firstIndex(of: ":") {
            let name = line[..<colon].lowercased()
            // The white space around a field value, and the line's CRLF.
            headers[name] = String(line[line.index(after: colon)...].trimmingWhitespace())
        }
        return count
    }

    func close() {
        pdx_curl_easy_cleanup(easy)
        if let headerList { pdx_curl_slist_free_all(headerList) }
        headerList = nil
        errorBuffer.deallocate()
    }
}
