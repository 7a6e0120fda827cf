import PokedexLocks
import PokedexNetwork

/// Logs what a decoded body held that was not PokeAPI's shape and was dropped: a line for each
/// of the first few, then one line with how many more, so a hostile body cannot flood the journal.
final class DropLog: Sendable {
    static let linesPerBody = 5
    private let log: Logger
    private let source: String
    private let count = Mutex(0)

    init(_ log: @escaping Logger, source: String) {
        self.log = log
        self.source = source
    }

    /// The ``Dropped`` to hand to a decoder.
    var dropped: Dropped { { [self] note in self.note(note) } }

    private func note(_ note: String) {
        let n = count.withLock { c in c += 1; return c }
        if n <= Self.linesPerBody { log(.warning, "\(source): \(note)") }
    }

    /// Runs `decode` with a ``Dropped`` that logs what it drops, then the count of the rest.
    static func logging<T>(_ log: @escaping Logger, source: String, _ decode: (Dropped) throws -> T) rethrows -> T {
        let drops = DropLog(log, source: source)
        defer { drops.finish() }
        return try decode(drops.dropped)
    }

    /// Says how many were not logged one by one. Call once the body is decoded.
    func finish() {
        let n = count.withLock { $0 }
        if n > Self.linesPerBody { log(.warning, "\(source): \(n - Self.linesPerBody) more entries dropped") }
    }
}
