import PokedexModels
import PokedexTerminal

/// What `pokectl sync` prints as it goes: on a terminal the bar, with what the sync waits for
/// beside it (PokeAPI out of reach, the service frozen); otherwise a line each tenth and one
/// each time what it waits for changes; and, on Ctrl-C, where it stopped.
struct SyncReport {
    /// What the sync waits for, in words to show.
    enum Waiting: Equatable {
        /// PokeAPI cannot be reached: the service's reason (in its words).
        case network(String)
        /// The service does not answer: why, if its process says.
        case service(String?)
    }

    let tty: Bool
    let json: Bool
    let width: Int
    let words: Words
    let out: TextStream
    private var bar = ProgressBar()
    private var lastTenth = -1
    private var shown: Waiting?
    private var last: (done: UInt32, total: UInt32) = (0, 0)
    private var drawn = false

    init(tty: Bool, json: Bool, width: Int, words: Words, out: TextStream) {
        self.tty = tty
        self.json = json
        self.width = width
        self.words = words
        self.out = out
    }

    mutating func progress(done: UInt32, total: UInt32, waiting: Waiting?) {
        guard !json else { return }
        // This sync's own progress, once it shows: until then the service may still report the
        // last one's end (1351/1351), which is neither drawn nor where a Ctrl-C stopped.
        let line = total > 0 ? bar.line(done: done, total: total) : nil
        if total > 0, bar.started { last = (done, total) }
        if tty {
            // Nothing until this sync's own progress shows, unless there is something to say.
            guard line != nil || waiting != nil || shown != nil else { return }
            let barText = bar.started ? bar.text(done: last.done, total: last.total) : ""
            let note = waiting.map(text) ?? ""
            let room = max(0, width - TerminalText.width(barText) - 3)
            out.write("\r" + barText + (note.isEmpty ? "" : (barText.isEmpty ? "" : "  ") + TerminalText.truncate(note, to: room)) + "\u{1B}[K")
            out.flush()
            drawn = true
        } else {
            if total > 0 {
                let tenth = Int(done) * 10 / Int(total)
                if tenth != lastTenth, line != nil || lastTenth >= 0 {
                    lastTenth = tenth
                    out.line(words.trf("synced %s/%s", String(done), String(total)))
                }
            }
            if let waiting, waiting != shown { out.line(text(waiting)) }
        }
        shown = waiting
    }

    /// Waiting between two syncs (PokeAPI out of reach), with nothing moving.
    mutating func waiting(_ w: Waiting) {
        progress(done: last.done, total: last.total, waiting: w)
    }

    /// Ctrl-C: the bar cleared, and where it stopped.
    mutating func interrupted() {
        guard !json else { return }
        if tty, drawn { out.write("\r\u{1B}[K") }
        let at = last.total > 0 ? "\(last.done)/\(last.total)" : "0"
        out.line(words.trf("stopped at %s; 'pokectl sync' goes on from there", at))
        out.flush()
    }

    /// The bar cleared before the summary.
    mutating func finish() {
        if tty, drawn { out.write("\r\u{1B}[K") }
    }

    func text(_ w: Waiting) -> String {
        switch w {
        case .network(let why):
            let reason = ServiceMessages.translate(why, words)
            return reason.isEmpty ? words.tr("waiting for PokeAPI") : words.trf("waiting for PokeAPI: %s", reason)
        case .service(let why): return why ?? words.tr("pokedexd does not answer; waiting for it")
        }
    }
}
