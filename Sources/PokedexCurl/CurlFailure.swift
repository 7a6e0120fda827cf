import CCurl
import CCurlShims
import Glibc
import PokedexNetwork
import PokedexEventLoop
import PokedexModels

/// curl's result codes as the network's failures: what the fetcher retries, waits out or refuses.
extension CurlHTTPClient {
    /// - Parameter answered: whether the server had begun its answer (a status line came): a
    ///   receive error after that is the body's (a malformed chunk, a connection cut mid-body),
    ///   counted as a cut, not as a host that cannot be reached.
    static func failure(_ code: CURLcode, detail: String, answered: Bool = false) -> TransportFailure {
        let text = detail.isEmpty ? String(cString: pdx_curl_easy_strerror(code)) : detail
        switch code {
        case CURLE_RECV_ERROR where answered:
            return .truncated(text)
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY, CURLE_COULDNT_CONNECT,
             CURLE_GOT_NOTHING, CURLE_RECV_ERROR, CURLE_SEND_ERROR, CURLE_SSL_CONNECT_ERROR:
            return .connection(text)
        case CURLE_OPERATION_TIMEDOUT:
            return .timedOut(text)
        case CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_PINNEDPUBKEYNOTMATCH, CURLE_SSL_INVALIDCERTSTATUS:
            return .untrusted(text)
        case CURLE_PARTIAL_FILE, CURLE_BAD_CONTENT_ENCODING, CURLE_WRITE_ERROR:
            return .truncated(text)
        default:
            return .other(text)
        }
    }
}
