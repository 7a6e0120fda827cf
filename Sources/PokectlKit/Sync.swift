import ArgumentParser
import Glibc
import PokedexBusClient
import PokedexModels
import PokedexTerminal

struct Sync: ParsableCommand {
    static var configuration: CommandConfiguration { CommandConfiguration(
        commandName: "sync",
        abstract: tr("Fetch everything for offline use: every list entry, detail and default sprite."),
        discussion: tr("Resumable: what is already cached is skipped, so run it again after an interruption. Shows a progress bar on a terminal, plain lines otherwise. Exits 3 if anything could not be fetched. JSON: {\"complete\", \"failed\"}")) }

    @OptionGroup var common: Common

    func run() throws {
        let tty = isatty(1) == 1 && !common.json
        var lastLine = -1
        var bar = ProgressBar()
        let started = monotonic()
        let result = try withClient { c throws(BusError) in
            try c.sync { done, total in
                guard total > 0, !common.json else { return }
                // Nothing until this sync's own progress shows (not the last one's end).
                guard let line = bar.line(done: done, total: total) else { return }
                if tty {
                    print(line, terminator: "")
                    fflush(nil)
                } else {
                    let tenth = Int(done) * 10 / Int(total)
                    if tenth != lastLine { lastLine = tenth; print(Language.words.trf("synced %s/%s", String(done), String(total))) }
                }
            }
        }
        if tty { print(bar.started ? "\r\u{1B}[K" : "", terminator: "") }
        if common.json {
            JSON.object([("complete", .int(result.complete)), ("failed", .int(result.failed))]).print()
        } else {
            let w = Language.words, seconds = String(Int(monotonic() - started))
            print(result.failed > 0
                  ? w.trf("%s Pokémon ready offline in %s s; %s failed (run 'pokectl sync' again)", String(result.complete), seconds, String(result.failed))
                  : w.trf("%s Pokémon ready offline in %s s", String(result.complete), seconds))
        }
        if result.failed > 0 { throw Failure.silent(.unavailable) }
    }
}

func monotonic() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}
