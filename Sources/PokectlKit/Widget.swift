import ArgumentParser
import Glibc
import PokedexBusClient
import PokedexWidgets

extension WidgetFormat: ExpressibleByArgument {}
extension WidgetPick: ExpressibleByArgument {}

/// `pokectl widget`: a favorite for a bar or the desktop, and with `--follow` the same again
/// whenever it changes, the service comes back, or goes.
struct Widget: PokectlCommand {
    static var configuration: CommandConfiguration { CommandConfiguration(
        commandName: "widget",
        abstract: tr("Show a favorite in a bar or on the desktop: Waybar, Polybar or conky."),
        discussion: tr("Prints what a bar shows: the favorite's name as the games write it, in its colour, with its number, genus and types; \"no favorites yet\"; or \"Pokédex unavailable\" and why. The favorite shown stays until the favorites change: the newest (--pick newest) or one drawn at random that stays while it is a favorite (--pick random).")
            + "\n\n" + tr("With --follow it prints again when something shown changes (quick changes shown once), when the service starts again, and \"Pokédex unavailable\" at once when it stops. Its idle exit changes nothing shown: while waiting it never starts the service. It ends when its reader goes away (the bar exits or restarts).")
            + "\n\n" + tr("Waybar: one JSON line (\"return-type\": \"json\"), with the classes favorite and the types, empty or unavailable. Polybar: one line of format tags. conky: several lines of its text; with --output the file is replaced whole each time, for lua_parse or catp (see the conky example).")) }

    @Option(help: ArgumentHelp(tr("waybar, polybar or conky.")))
    var format: WidgetFormat = .waybar
    @Flag(help: ArgumentHelp(tr("Keep running, and print again whenever what is shown changes.")))
    var follow = false
    @Option(help: ArgumentHelp(tr("Which favorite: newest or random.")))
    var pick: WidgetPick = .newest
    @Option(help: ArgumentHelp(tr("Write to this file instead, replacing it whole each time."), valueName: "file"))
    var output: String?
    @Option(help: ArgumentHelp(tr("conky: the width of the favorites' list, in characters.")))
    var width = 40
    @OptionGroup var common: Common

    func validate() throws {
        guard (10...400).contains(width) else { throw ValidationError(Language.words.tr("--width must be between 10 and 400")) }
    }

    var options: ContextOptions { common.options }

    func run(in context: Context) throws {
        let w = context.words
        var shown: UInt32?
        var last: String?
        func show() {
            let (content, id) = Self.content(pick: pick, keeping: shown, context)
            shown = id
            let text = format.render(content, w, width: width)
            guard text != last else { return }
            last = text
            write(text, context)
        }
        guard follow else { return show() }
        FollowOutput.closeLeakedReadEnds()
        do {
            let follower = try context.follow()
            var machine = WidgetFollow(running: follower.owner != nil, at: monotonic())
            func apply(_ effect: WidgetFollow.Effect) {
                switch effect {
                case .refresh: show()
                case .showUnavailable:
                    let why = machine.restarting ? w.tr("pokedexd is gone; the widget starts it again in a moment")
                        : w.tr("pokedexd stopped; any call starts it again")
                    let text = format.render(.unavailable(why: why), w, width: width)
                    if text != last { last = text; write(text, context) }
                }
            }
            while true {
                for effect in machine.tick(at: monotonic()) { apply(effect) }
                let timeout = machine.deadline.map { max(0, $0 - monotonic()) }
                let input: WidgetFollow.Input
                switch try follower.next(timeout: timeout, endingWith: STDOUT_FILENO) {
                case .readerGone: return
                case .timeout: continue
                case .started: input = .started
                case .stopped(let idle): input = .stopped(idle: idle)
                case .vanished: input = .vanished
                case .favoriteChanged, .cacheCleared: input = .changed
                case .propertiesChanged(_, let changed, _):
                    guard changed.stringDict?[Pokedex1.online.name] != nil else { continue }
                    input = .changed
                }
                for effect in machine.receive(input, at: monotonic()) { apply(effect) }
            }
        } catch {
            throw Failure(error, words: w)
        }
    }

    /// What to show, asked of the service (which the first call may start), and the id shown.
    static func content(pick: WidgetPick, keeping shown: UInt32?, _ context: Context) -> (WidgetContent, UInt32?) {
        do {
            return try context.withClient { c throws(BusError) in
                let favs = try c.call(Pokedex1.listFavorites)
                var random = SystemRandomNumberGenerator()
                guard let id = pick.choose(from: favs.map(\.id), keeping: shown, using: &random),
                      let entry = favs.first(where: { $0.id == id }) else { return (.empty, nil) }
                let names = context.names(favs.map(\.id), c)
                let name = names[id] ?? entry.name
                var favorite = WidgetFavorite(id: id, identifier: entry.name, name: name)
                // Offline, a favorite never fetched has no record: its name (the bundled table) is shown.
                if let d = try? c.call(Pokedex1.localizedDetail, (entry.name, context.language)) { favorite = WidgetFavorite(d, name: name) }
                return (.favorite(favorite, all: favs.reversed().map { names[$0.id] ?? $0.name }), id)
            }
        } catch let failure as Failure {
            return (.unavailable(why: failure.message), shown)
        } catch {
            return (.unavailable(why: "\(error)"), shown)
        }
    }

    /// The text to stdout, or to ``output`` replaced whole (written beside it, then renamed).
    func write(_ text: String, _ context: Context) {
        let body = text.hasSuffix("\n") ? text : text + "\n"
        guard let output else {
            context.out.write(body)
            context.out.flush()
            return
        }
        let temporary = output + ".\(getpid()).tmp"
        guard let f = fopen(temporary, "w") else {
            context.error("pokectl: " + context.words.trf("cannot write %s: %s", temporary, String(cString: strerror(errno))))
            return
        }
        fputs(body, f)
        if fclose(f) != 0 || rename(temporary, output) != 0 {
            context.error("pokectl: " + context.words.trf("cannot write %s: %s", output, String(cString: strerror(errno))))
            unlink(temporary)
        }
    }
}
