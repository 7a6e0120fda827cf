import PokedexLocks
import PokedexModels

/// Priorities, as the journal knows them.
public enum LogLevel: Int, Sendable {
    case error = 3, warning = 4, notice = 5, info = 6, debug = 7
}

/// Where the core writes what a person may need to act on. The daemon sends it to the journal.
public typealias Logger = @Sendable (LogLevel, String) -> Void
