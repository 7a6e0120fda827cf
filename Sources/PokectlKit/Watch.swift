import ArgumentParser
import Glibc
import PokedexBusClient

struct Watch: PokectlCommand {
    static var configuration: CommandConfiguration { CommandConfiguration(
        commandName: "watch",
        abstract: (HelpWords.reading.load(ordering: .relaxed) ? Language.words : .english)
            .trf("Follow the service: one JSON line per %s, %s or %s signal, and when it starts or stops.",
                 Pokedex1.favoriteChanged.name, Pokedex1.cacheCleared.name, FreedesktopBus.propertiesChanged),
        discussion: tr("For widgets and scripts that react instead of polling. Each line is flushed as it is printed. Does not start the service; it follows it whenever it runs. When the service starts (or starts again), a ServiceStarted line is followed by a PropertiesChanged line with every property's current value. ServiceStopped says whether it left after its idle timeout (\"idle\": true: it starts again when called, and nothing changed) or stopped. Ends when its reader goes away.")
            + "\n" + tr("JSON lines:") + "\n"
            + "  {\"event\": \"\(Pokedex1.favoriteChanged.name)\", \"favorite\", \"id\", \"number\", \"name\", \"time\"}\n"
            + "  {\"event\": \"\(Pokedex1.cacheCleared.name)\", \"time\"}\n"
            + "  {\"event\": \"\(FreedesktopBus.propertiesChanged)\", \"changed\": {PROPERTY: VALUE}, \"invalidated\": [PROPERTY], \"time\"}\n"
            + "  {\"event\": \"\(WatchLine.started)\", \"owner\", \"time\"}\n"
            + "  {\"event\": \"\(WatchLine.stopped)\", \"idle\", \"time\"}\n"
            + tr("time is in seconds since the epoch.")) }

    @Option(help: ArgumentHelp(tr("Exit after this many lines."))) var count: Int?
    @Flag(help: ArgumentHelp(tr("First print the service's state as it is now: ServiceStarted and its properties if it runs, else ServiceStopped (\"idle\": true when a call would start it).")))
    var initial = false
    /// `--json` is what watch always prints (one object a line); taken like every command's.
    @OptionGroup var common: Common

    func validate() throws {
        if let count, count < 1 { throw ValidationError(Language.words.tr("--count must be at least 1")) }
    }

    var options: ContextOptions { common.options }

    func run(in context: Context) throws {
        FollowOutput.closeLeakedReadEnds()
        do {
            let follower = try context.follow()
            var seen = 0
            func emit(_ line: JSON) -> Bool {
                context.out.line(line.text)
                context.out.flush()
                seen += 1
                return count.map { seen >= $0 } ?? false
            }
            if initial {
                for line in WatchLine.lines(follower.current(), follower) where emit(line) { return }
            }
            while true {
                let event = try follower.next(timeout: nil, endingWith: STDOUT_FILENO)
                if event == .readerGone { return }
                for line in WatchLine.lines(event, follower) where emit(line) { return }
            }
        } catch {
            throw Failure(error, words: context.words)
        }
    }
}

/// What watch prints for each event of the service.
enum WatchLine {
    static let started = "ServiceStarted"
    static let stopped = "ServiceStopped"

    /// The lines for `event`: none, one, or (the service started) two, the second its state.
    static func lines(_ event: ServiceFollower.Event, _ follower: any ServiceEvents) -> [JSON] {
        let time = now()
        switch event {
        case .started(let owner):
            var lines = [JSON.object([("event", .string(started)), ("owner", .string(owner)), ("time", time)])]
            if let all = follower.properties(of: owner) {
                lines.append(.object([("changed", JSON(all)), ("event", .string(FreedesktopBus.propertiesChanged)),
                                      ("interface", .string(Pokedex1.interfaceName)), ("invalidated", .array([])), ("time", time)]))
            }
            return lines
        case .stopped(let idle):
            return [.object([("event", .string(stopped)), ("idle", .bool(idle)), ("time", time)])]
        case .vanished:
            return [.object([("event", .string(stopped)), ("idle", .bool(false)), ("time", time)])]
        case .favoriteChanged(let id, let name, let favorite):
            return [.object([("event", .string(Pokedex1.favoriteChanged.name)), ("favorite", .bool(favorite)),
                             ("id", .int(id)), ("name", .string(name)), ("number", .int(PokedexNumber.shown(id))), ("time", time)])]
        case .cacheCleared:
            return [.object([("event", .string(Pokedex1.cacheCleared.name)), ("time", time)])]
        case .propertiesChanged(let interface, let changed, let invalidated):
            return [.object([("changed", JSON(changed)), ("event", .string(FreedesktopBus.propertiesChanged)),
                             ("interface", JSON(interface)), ("invalidated", JSON(invalidated)), ("time", time)])]
        case .timeout, .readerGone:
            return []
        }
    }

    /// Seconds since the epoch, to the millisecond.
    static func now() -> JSON {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        let millis = Int(ts.tv_nsec) / 1_000_000
        return .number("\(ts.tv_sec).\(millis < 100 ? "0" : "")\(millis < 10 ? "0" : "")\(millis)")
    }
}
