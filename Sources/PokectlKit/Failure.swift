import Glibc
import PokedexBusClient
import PokedexModels

/// pokectl's exit codes, as documented in `--help` and the README.
enum Exit: Int32 {
    case ok = 0, notFound = 1, usage = 2, unavailable = 3, storage = 4
}

/// A failure to report in one line on stderr, with its exit code.
struct Failure: Error {
    let message: String
    let code: Exit

    init(message: String, code: Exit) {
        self.message = message
        self.code = code
    }

    /// Exits with `code`, having already said what there was to say.
    static func silent(_ code: Exit) -> Failure { Failure(message: "", code: code) }

    /// How this pokectl was installed, as the fix to name: the package's lives in /usr/bin.
    static func installHint(_ w: Words) -> String {
        var buf = [CChar](repeating: 0, count: 4096)
        let n = readlink("/proc/self/exe", &buf, buf.count)
        let exe = n > 0 ? String(decoding: buf[..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self) : ""
        return exe.hasPrefix("/usr/bin/") ? w.tr("reinstall the package ('sudo apt install --reinstall pokedexd')")
            : w.tr("run 'make install'")
    }

    /// Maps a bus error (the service's own, or the bus's) to a line that says what to do.
    /// The service's own words come back in the reader's (``ServiceMessages``), a Pokémon it
    /// names by its identifier with its name as `naming` gives it.
    init(_ e: BusError, words w: Words, naming: (String) -> String? = { _ in nil }) {
        let said = ServiceMessages.translate(e.message, w, naming: naming)
        switch e.name {
        case PokedexError.namePrefix + "NotFound":
            // A search helps only where the name was not known (not a cry PokeAPI lacks).
            let unknown = ServiceMessages.isUnknownPokemon(e.message) && !e.message.contains("did you mean")
            message = unknown ? said + "; " + w.tr("try 'pokectl search' to find the name") : said
            code = .notFound
        case PokedexError.namePrefix + "InvalidArgument":
            message = said
            code = .usage
        case PokedexError.namePrefix + "Unavailable":
            message = said + "; " + w.tr("check the network, or 'journalctl --user -u pokedex'")
            code = .unavailable
        case PokedexError.namePrefix + "Storage":
            // Space is the remedy only when space is what ran out; the service's other storage
            // errors (a link out of the folder, a directory, a read-only file system) say what
            // is wrong, and the journal has the rest.
            // (The service speaks glibc's English: its errno text is "No space left on device".)
            let full = ["No space left on device", "Disk quota exceeded"].contains { e.message.contains($0) }
            message = said + "; " + (full ? w.tr("free some disk space and try again") : w.tr("see 'journalctl --user -u pokedex'"))
            code = .storage
        case BusError.Name.noServer:
            message = w.trf("no session bus (%s); pokectl reaches pokedexd through a desktop session's bus: run it inside a session, or as 'dbus-run-session -- pokectl …'", e.message)
            code = .unavailable
        case BusError.Name.noReply:
            message = w.trf("pokedexd stopped before it answered (%s); see 'journalctl --user -u pokedex'", e.message)
            code = .unavailable
        case _ where e.isServiceGone:
            message = w.trf("pokedexd is not running and could not be started (%s); %s, or 'systemctl --user start pokedex'", e.message, Self.installHint(w))
            code = .unavailable
        case _ where e.isTimeout:
            message = w.tr("pokedexd did not answer in time; see 'journalctl --user -u pokedex'")
            code = .unavailable
        default:
            message = e.description
            code = .unavailable
        }
    }
}
