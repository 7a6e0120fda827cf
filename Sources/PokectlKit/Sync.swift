import ArgumentParser
import Glibc
import PokedexBusClient
import PokedexModels
import PokedexTerminal
import Synchronization

struct Sync: PokectlCommand {
    static var configuration: CommandConfiguration { CommandConfiguration(
        commandName: "sync",
        abstract: tr("Fetch everything for offline use: every list entry, detail and default sprite."),
        discussion: tr("Resumable: what is already cached is skipped, so run it again after an interruption. Shows a progress bar on a terminal, plain lines otherwise. Exits 3 if anything could not be fetched. JSON: {\"complete\", \"failed\"}")
            + "\n\n" + tr("While PokeAPI cannot be reached the bar says why; a sync left unfinished for that waits for the network (--wait, 60 s by default on a terminal) and then goes on. Ctrl-C stops it and says where: the next sync goes on from there.")) }

    @Option(help: ArgumentHelp(tr("How long to wait for PokeAPI when it cannot be reached, in seconds (default: 60 on a terminal, 0 otherwise)."), valueName: "SECONDS"))
    var wait: Int?
    @OptionGroup var common: Common

    var options: ContextOptions { common.options }

    func validate() throws {
        if let wait, !(0...86_400).contains(wait) { throw ValidationError(Language.words.tr("--wait must be between 0 and 86400")) }
    }

    /// Set by SIGINT (Ctrl-C) while a sync runs.
    static let interrupted = Atomic<Bool>(false)

    func run(in context: Context) throws {
        let json = context.json, w = context.words
        let tty = context.isTerminal && !json
        var report = SyncReport(tty: tty, json: json, width: context.width, words: w, out: context.out)
        let started = monotonic()
        let patience = Double(wait ?? (tty ? 60 : 0))
        Self.interrupted.store(false, ordering: .relaxed)
        let previous = signal(SIGINT) { _ in Sync.interrupted.store(true, ordering: .relaxed) }
        defer { signal(SIGINT, previous) }
        var result = SyncResult(complete: 0, failed: 0)
        do {
            result = try context.withClient { c throws(BusError) in
                var result = try Self.once(c, &report, context)
                // Left unfinished because PokeAPI cannot be reached: wait for it, then go on.
                var deadline = monotonic() + patience
                while result.failed > 0, monotonic() < deadline, let why = c.networkDown() {
                    report.waiting(.network(why))
                    if !Self.pause(until: min(deadline, monotonic() + 2)) { throw BusError(name: PokedexClient.interrupted, message: "") }
                    guard c.networkDown() == nil else {
                        result = try Self.once(c, &report, context)
                        deadline = monotonic() + patience
                        continue
                    }
                }
                return result
            }
        } catch is Failure where Self.interrupted.load(ordering: .relaxed) {
            // (The only way to the interrupted error: the flag Ctrl-C sets.)
            report.interrupted()
            // Ended by the signal itself, as a shell expects of Ctrl-C (it stops a script too).
            signal(SIGINT, SIG_DFL)
            raise(SIGINT)
            throw Failure.silent(.unavailable)
        }
        report.finish()
        if json {
            context.output.json(.object([("complete", .int(result.complete)), ("failed", .int(result.failed))]))
        } else {
            context.out.line(Self.summary(result, seconds: Int(monotonic() - started), w))
            context.out.flush()
            if result.failed > 0, let why = try? context.withClient(starting: false, { c throws(BusError) in c.networkDown() }) {
                context.error("pokectl: " + w.trf("PokeAPI could not be reached: %s", ServiceMessages.translate(why, w)))
            }
        }
        if result.failed > 0 { throw Failure.silent(.unavailable) }
    }

    /// One `Sync()`, its progress and what it waits for reported.
    static func once(_ c: any PokedexService, _ report: inout SyncReport, _ context: Context) throws(BusError) -> SyncResult {
        try c.sync(every: 0.1, stop: { interrupted.load(ordering: .relaxed) }) { done, total, waiting in
            report.progress(done: done, total: total, waiting: waiting.map { wait in
                switch wait {
                case .network(let why): return .network(why)
                case .service: return .service(c.stoppedService(words: context.words))
                }
            })
        }
    }

    /// Sleeps until `deadline`; false when Ctrl-C came meanwhile.
    static func pause(until deadline: Double) -> Bool {
        while monotonic() < deadline {
            if interrupted.load(ordering: .relaxed) { return false }
            usleep(100_000)
        }
        return !interrupted.load(ordering: .relaxed)
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
