import ArgumentParser
import Glibc
import PokedexBusClient
import PokedexModels

struct Sync: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Fetch everything for offline use: every list entry, detail and default sprite.",
        discussion: """
            Resumable: what is already cached is skipped, so run it again after an interruption. \
            Shows a progress bar on a terminal, plain lines otherwise. Exits 3 if anything could not be fetched. \
            JSON: {"complete", "failed"}
            """)

    @OptionGroup var common: Common

    func run() throws {
        let tty = isatty(1) == 1 && !common.json
        var lastLine = -1
        let started = monotonic()
        let result = try withClient { c throws(BusError) in
            try c.sync { done, total in
                guard total > 0, !common.json else { return }
                if tty {
                    let width = 30
                    let filled = Int(done) * width / Int(total)
                    let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
                    print("\r\(bar) \(done)/\(total)", terminator: "")
                    fflush(nil)
                } else {
                    let tenth = Int(done) * 10 / Int(total)
                    if tenth != lastLine { lastLine = tenth; print("synced \(done)/\(total)") }
                }
            }
        }
        if tty { print("") }
        if common.json {
            JSON.object([("complete", .int(result.complete)), ("failed", .int(result.failed))]).print()
        } else {
            print("\(result.complete) Pokémon ready offline in \(Int(monotonic() - started)) s" + (result.failed > 0 ? "; \(result.failed) failed (run 'pokectl sync' again)" : ""))
        }
        if result.failed > 0 { throw Failure.silent(.unavailable) }
    }
}

func monotonic() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}
