import PokedexLocks
import PokedexNetwork
import PokedexTestKit

/// The bundled-name PokeAPI (``TablePokeAPI``), where a request whose URL holds a text the
/// test holds waits until the test releases it, as a slow server keeps a call in flight for
/// as long as a test needs; a request whose task is cancelled meanwhile is counted.
final class GatedAPI: HTTPClient {
    private struct State {
        var held: Set<String> = []
        var waiting: [String] = []
        var cancelled = 0
        var requests: [(url: String, onLoop: Bool)] = []
    }
    private let table = TablePokeAPI()
    private let state = Mutex(State())
    /// Whether the caller runs on the served loop's thread (set by ``ServedService``).
    private let inLoop: @Sendable () -> Bool

    init(inLoop: @escaping @Sendable () -> Bool = { false }) { self.inLoop = inLoop }

    /// Requests whose URL contains `text` wait from now on.
    func hold(_ text: String) { state.withLock { _ = $0.held.insert(text) } }
    /// Those waiting on `text` go on, and the next ones do not wait.
    func release(_ text: String) { state.withLock { _ = $0.held.remove(text) } }
    /// Requests waiting now.
    var waiting: Int { state.withLock { $0.waiting.count } }
    /// The URLs of the requests waiting now.
    var waitingURLs: [String] { state.withLock { $0.waiting } }
    /// Requests that were cancelled while they waited.
    var cancelled: Int { state.withLock { $0.cancelled } }
    /// Every URL asked for, in order.
    var requests: [String] { state.withLock { $0.requests.map(\.url) } }
    /// Every URL asked for, and whether it was asked on the loop's thread.
    var requestsAndThreads: [(url: String, onLoop: Bool)] { state.withLock { $0.requests } }

    private func isHeld(_ url: String) -> Bool { state.withLock { s in s.held.contains { url.contains($0) } } }

    func get(_ request: HTTPRequest) async throws -> HTTPResponse {
        let onLoop = inLoop()
        state.withLock { $0.requests.append((request.url, onLoop)) }
        if isHeld(request.url) {
            state.withLock { $0.waiting.append(request.url) }
            defer { state.withLock { s in s.waiting.remove(at: s.waiting.firstIndex(of: request.url)!) } }
            while isHeld(request.url) {
                do {
                    try await Task.sleep(nanoseconds: 1_000_000)
                } catch {
                    state.withLock { $0.cancelled += 1 }
                    throw error
                }
            }
        }
        return try await table.get(request)
    }
}
