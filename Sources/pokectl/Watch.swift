import ArgumentParser
import Glibc
import PokedexBusClient

struct Watch: ParsableCommand {
    static var configuration: CommandConfiguration { CommandConfiguration(
        commandName: "watch",
        abstract: (HelpWords.reading.load(ordering: .relaxed) ? Language.words : .english)
            .trf("Follow the service: one JSON line per %s, %s or %s signal.",
                 Pokedex1.favoriteChanged.name, Pokedex1.cacheCleared.name, FreedesktopBus.propertiesChanged),
        discussion: tr("For widgets and scripts that react instead of polling. Each line is flushed as it is printed. Does not start the service; it follows it whenever it runs.")
            + "\n" + tr("JSON lines:") + "\n"
            + "  {\"event\": \"\(Pokedex1.favoriteChanged.name)\", \"favorite\", \"id\", \"name\", \"time\"}\n"
            + "  {\"event\": \"\(Pokedex1.cacheCleared.name)\", \"time\"}\n"
            + "  {\"event\": \"\(FreedesktopBus.propertiesChanged)\", \"changed\": {PROPERTY: VALUE}, \"invalidated\": [PROPERTY], \"time\"}\n"
            + tr("time is in seconds since the epoch.")) }

    @Option(help: ArgumentHelp(tr("Exit after this many events."))) var count: Int?
    /// `--json` is what watch always prints (one object a line); taken like every command's.
    @OptionGroup var common: Common

    func validate() throws {
        if let count, count < 1 { throw ValidationError(Language.words.tr("--count must be at least 1")) }
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
        case Pokedex1.favoriteChanged.name:
            guard let (id, name, favorite) = try? Pokedex1.favoriteChanged.decode(s.values) else { return nil }
            return .object([("event", .string(s.member)), ("favorite", .bool(favorite)),
                            ("id", .int(id)), ("name", .string(name)), ("time", time)])
        case Pokedex1.cacheCleared.name:
            return .object([("event", .string(s.member)), ("time", time)])
        case FreedesktopBus.propertiesChanged where s.values.count == 3:
            return .object([("changed", JSON(s.values[1])), ("event", .string(s.member)),
                            ("interface", JSON(s.values[0])), ("invalidated", JSON(s.values[2])), ("time", time)])
        default:
            return nil
        }
    }
}
