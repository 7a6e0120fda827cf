import ArgumentParser
import Glibc
import PokedexBusClient

struct Watch: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Follow the service: one JSON line per FavoriteChanged or PropertiesChanged signal.",
        discussion: """
            For widgets and scripts that react instead of polling. Each line is flushed as it is printed. \
            Does not start the service; it follows it whenever it runs.
            JSON lines:
              {"event": "FavoriteChanged", "favorite", "id", "name", "time"}
              {"event": "PropertiesChanged", "changed": {PROPERTY: VALUE}, "invalidated": [PROPERTY], "time"}
            time is in seconds since the epoch.
            """)

    @Option(help: "Exit after this many events.") var count: Int?

    func validate() throws {
        if let count, count < 1 { throw ValidationError("--count must be at least 1") }
    }

    func run() throws {
        do {
            let watcher = try PokedexSignalWatcher()
            var seen = 0
            while count.map({ seen < $0 }) ?? true {
                guard let signal = try watcher.next(timeout: nil), let line = Self.json(signal) else { continue }
                print(line.text)
                fflush(nil)
                seen += 1
            }
        } catch {
            throw Failure(error)
        }
    }

    /// One signal as a JSON object; nil for signals that are not the service's.
    static func json(_ s: BusSignal) -> JSON? {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        let millis = Int(ts.tv_nsec) / 1_000_000
        let time = JSON.number("\(ts.tv_sec).\(millis < 100 ? "0" : "")\(millis < 10 ? "0" : "")\(millis)")
        switch s.member {
        case "FavoriteChanged" where s.values.count == 3:
            return .object([("event", .string("FavoriteChanged")), ("favorite", JSON(s.values[2])),
                            ("id", JSON(s.values[0])), ("name", JSON(s.values[1])), ("time", time)])
        case "PropertiesChanged" where s.values.count == 3:
            return .object([("changed", JSON(s.values[1])), ("event", .string("PropertiesChanged")),
                            ("interface", JSON(s.values[0])), ("invalidated", JSON(s.values[2])), ("time", time)])
        default:
            return nil
        }
    }
}
