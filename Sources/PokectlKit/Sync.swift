import ArgumentParser
import Glibc
import PokedexBusClient
import PokedexModels
import PokedexTerminal

struct Sync: PokectlCommand {
    static var configuration: CommandConfiguration { CommandConfiguration(
        commandName: "sync",
        abstract: tr("Fetch everything for offline use: every list entry, detail and default sprite."),
        discussion: tr("Resumable: what is already cached is skipped, so run it again after an interruption. Shows a progress bar on a terminal, plain lines otherwise. Exits 3 if anything could not be fetched. JSON: {\"complete\", \"failed\"}")) }

    @OptionGroup var common: Common

    var options: ContextOptions { common.options }

    func run(in context: Context) throws {
        let json = context.json, out = context.out, w = context.words
        let tty = context.isTerminal && !json
        var lastLine = -1
        var bar = ProgressBar()
        let started = monotonic()
        let result = try context.withClient { c throws(BusError) in
            try c.sync(every: 0.1) { done, total in
                guard total > 0, !json else { return }
                // Nothing until this sync's own progress shows (not the last one's end).
                guard let line = bar.line(done: done, total: total) else { return }
                if tty {
                    out.write(line)
                    out.flush()
                } else {
                    let tenth = Int(done) * 10 / Int(total)
                    if tenth != lastLine { lastLine = tenth; out.line(w.trf("synced %s/%s", String(done), String(total))) }
                }
            }
        }
        if tty { out.write(bar.started ? "\r\u{1B}[K" : "") }
        if json {
            context.output.json(.object([("complete", .int(result.complete)), ("failed", .int(result.failed))]))
        } else {
            out.line(Self.summary(result, seconds: Int(monotonic() - started), w))
        }
        if result.failed > 0 { throw Failure.silent(.unavailable) }
    }

    /// `1351 Pokémon ready offline in 40 s`, and how many failed.
    static func summary(_ result: SyncResult, seconds: Int, _ w: Words) -> String {
        result.failed > 0
            ? w.trf("%s Pokémon ready offline in %s s; %s failed (run 'pokectl sync' again)", String(result.complete), String(seconds), String(result.failed))
            : w.trf("%s Pokémon ready offline in %s s", String(result.complete), String(seconds))
    }
}

func monotonic() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}
