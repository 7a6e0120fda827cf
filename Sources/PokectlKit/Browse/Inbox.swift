import Glibc
import PokedexLocks
import PokedexTerminal

/// What comes back to the loop: an event for the model, or the end (the service went away).
enum BrowseResult: Sendable {
    case event(BrowseEvent)
    case fatal(String)
}

/// The loop's inbox: results from any thread, and a pipe that wakes the loop's `poll`.
final class Inbox: Sendable {
    private let items = Mutex<[BrowseResult]>([])
    /// Whether the service's name has an owner now, as ``BrowseSignals`` last saw it.
    let serviceRunning = Mutex<Bool>(true)
    let wake: (read: Int32, write: Int32)

    init() {
        wake = makePipe(nonblocking: true)
    }

    func post(_ r: BrowseResult) {
        items.withLock { $0.append(r) }
        var byte: UInt8 = 1
        _ = write(wake.write, &byte, 1)
    }

    /// Everything posted so far, oldest first.
    func take() -> [BrowseResult] {
        var sink = [UInt8](repeating: 0, count: 256)
        while read(wake.read, &sink, sink.count) > 0 {}
        return items.withLock { items in defer { items.removeAll() }; return items }
    }
}
