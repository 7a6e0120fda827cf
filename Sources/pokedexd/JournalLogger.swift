import FoundationEssentials
import PokedexCore
import PokedexModels

/// Writes log lines to stderr. Under systemd (`JOURNAL_STREAM` set) each line carries
/// a `<N>` priority prefix, which the journal turns into the entry's priority.
enum JournalLogger {
    static func make(verbose: Bool) -> Logger {
        let journal = ProcessInfo.processInfo.environment["JOURNAL_STREAM"] != nil
        let threshold: LogLevel = verbose ? .debug : .info
        return { level, message in
            guard level.rawValue <= threshold.rawValue else { return }
            // One entry per message, whatever a URL or a server's text in it holds.
            let message = UntrustedText.logLine(message)
            let line: String
            if journal {
                line = "<\(level.rawValue)>\(message)\n"
            } else {
                let tag = level.rawValue <= LogLevel.error.rawValue ? "error: " : level == .warning ? "warning: " : ""
                line = "pokedexd: \(tag)\(message)\n"
            }
            // A line in one write(2) (a short one is finished), so threads do not interleave lines.
            _ = FileIO.writeAll(2, Array(line.utf8))
        }
    }
}
