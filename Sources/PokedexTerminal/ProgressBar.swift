/// `pokectl sync`'s bar on a terminal: drawn over itself with a carriage return and the rest of
/// the line cleared, so that a shorter line leaves no digits of a longer one behind.
public struct ProgressBar: Sendable {
    public let width: Int
    /// Whether this sync's own progress has been seen: until then the service may still report
    /// the last sync's (`1351/1351`), which is not drawn.
    public private(set) var started = false

    public init(width: Int = 30) { self.width = max(1, width) }

    /// The line to write for (done, total), or nil when there is nothing (new) to draw.
    public mutating func line(done: UInt32, total: UInt32) -> String? {
        guard total > 0 else { return nil }
        if !started {
            guard done < total else { return nil }
            started = true
        }
        return "\r" + text(done: done, total: total) + "\u{1B}[K"
    }

    /// The bar and its count, `██████░░░░ 470/1351`, without the carriage return.
    public func text(done: UInt32, total: UInt32) -> String {
        guard total > 0 else { return "" }
        let done = min(done, total)
        let filled = Int(UInt64(done) * UInt64(width) / UInt64(total))
        return String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled) + " \(done)/\(total)"
    }
}
