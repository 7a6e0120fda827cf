import PokedexLocks
import PokedexNetwork

/// A desktop notification, as the service wants it shown.
public struct DesktopNotification: Equatable, Sendable {
    /// One line: `Pikachu added to favorites`.
    public var summary: String
    /// The genus and types: `Mouse Pokémon · Electric`.
    public var body: String
    /// The cached sprite's absolute path, or "" when there is none.
    public var imagePath: String
    /// A name from the freedesktop sound theme.
    public var soundName: String
    /// For a card that stands in for a result nothing else could open: the journal's warning
    /// should the card not be shown either.
    public var unshown: NothingOpened?

    public init(summary: String, body: String, imagePath: String, soundName: String, unshown: NothingOpened? = nil) {
        self.summary = summary
        self.body = body
        self.imagePath = imagePath
        self.soundName = soundName
        self.unshown = unshown
    }
}

/// The one warning for an activated result that opens neither in a terminal nor as a card:
/// what kept the terminal from it, what kept the card, and what to do.
public struct NothingOpened: Equatable, Sendable {
    /// The result's name, as shown.
    public var name: String
    /// A terminal was found but its start failed (the launcher said why), rather than none found.
    public var terminalFailed: Bool

    /// `card`: what kept the card ("notifications are off (--notify=no)").
    public func message(card: String) -> String {
        let terminal = terminalFailed ? "its terminal could not be started (see above)" : "no terminal or gtk-launch was found"
        let advice = terminalFailed ? "" : "; install a terminal (gnome-terminal, konsole, xterm, …) or set TERMINAL"
        return "nothing could open \(UntrustedText.logLine(name)): \(terminal), and \(card)\(advice)"
    }
}

/// Shows notifications somewhere (the desktop's notification server). Never waits, never fails:
/// a desktop without notifications is not an error.
public protocol DesktopNotifier: Sendable {
    func show(_ notification: DesktopNotification)
    /// A card of its own (not the favorites bubble) with buttons: `actions` are (key, label);
    /// `onAction` gets the key of the one pressed.
    func showCard(_ notification: DesktopNotification, actions: [(key: String, label: String)],
                  onAction: @escaping @Sendable (String) -> Void)
}

extension DesktopNotifier {
    public func showCard(_ notification: DesktopNotification, actions: [(key: String, label: String)],
                         onAction: @escaping @Sendable (String) -> Void) { show(notification) }
}

/// Turns favorites changes into notifications, one at a time and in order, so the bubble
/// always ends on the latest state even when building one needs the network.
///
/// A notification is shown whole: with the Pokémon's sprite, genus and types, fetched if
/// needed. When they take longer than ``deadline`` (a slow network, or none), the bubble
/// shows what is known at once (the name, from the bundled table), and is replaced by the whole
/// one when it arrives, unless a newer change has been posted meanwhile: that one is shown next.
final class FavoriteNotifications: Sendable {
    /// The sound for a change, from the freedesktop sound theme.
    static let soundName = "message-new-instant"
    /// Seconds a notification waits for its record and sprite before it shows what is known.
    static let deadline = 1.0

    private let changes: AsyncStream<FavoriteChange>.Continuation
    /// Changes posted and not yet taken from the queue.
    private let queued = Mutex(0)

    init(notifier: any DesktopNotifier, background: BackgroundWork, clock: any PokedexClock,
         quick: @escaping @Sendable (FavoriteChange) -> DesktopNotification,
         describe: @escaping @Sendable (FavoriteChange) async -> DesktopNotification) {
        let (stream, continuation) = AsyncStream<FavoriteChange>.makeStream()
        changes = continuation
        let queued = queued
        // At exit the queue is finished, not dropped: what was queued is still shown.
        background.runResident(.utility, stop: { continuation.finish() }) {
            for await change in stream {
                queued.withLock { $0 -= 1 }
                let whole = Task { await describe(change) }
                // Stopping the service cancels this job: the fetches under way stop with it.
                await withTaskCancellationHandler {
                    if let n = await Once<DesktopNotification?>.first(whole, orNilAfter: Self.deadline, clock: clock) {
                        return notifier.show(n)
                    }
                    notifier.show(quick(change))
                    let n = await whole.value
                    // A newer change is waiting: it replaces the bubble next; this one would flash.
                    if queued.withLock({ $0 }) == 0 { notifier.show(n) }
                } onCancel: {
                    whole.cancel()
                }
            }
        }
    }

    deinit { changes.finish() }

    /// Queues a change; returns at once.
    func post(_ change: FavoriteChange) {
        queued.withLock { $0 += 1 }
        changes.yield(change)
    }

    /// What a change looks like, from its record, species, sprite and (in a language other
    /// than English) the names of its types, fetched if needed: worth a try, not a wait.
    static func describe(_ change: FavoriteChange, records: Records, sprites: Sprites, terms: Terms,
                         language: String, words: Words) async -> DesktopNotification {
        let item = PokemonIndex.Item(id: change.id, name: change.name)
        let record = try? await records.pokemon(item)
        let species: SpeciesRecord? = if let record { await records.species(for: record) } else { nil }
        let sprite = (try? await sprites.ensure(item)) ?? ""
        let localized: LocalizedTerms? = if let record, language != "en" {
            await withPriority(.optional) { await terms.localize(record, language: language) }
        } else { nil }
        return notification(for: change, types: localized?.types ?? record?.types.map(PokemonNames.display) ?? [],
                            species: species, form: localized?.form, spritePath: sprite, language: language, words: words)
    }

    /// What a change looks like, from what is known of the Pokémon.
    /// `types`: as the games name them, in `language`.
    static func notification(for change: FavoriteChange, types: [String], species: SpeciesRecord?, form: NamesRecord? = nil,
                             spritePath: String, language: String = "en", words: Words = .english) -> DesktopNotification {
        let name = DisplayNames.name(id: change.id, apiName: change.name, species: species, form: form, language: language)
        let summary = change.favorite ? words.trf("%s added to favorites", name) : words.trf("%s removed from favorites", name)
        var parts: [String] = []
        if let genus = species?.genus(in: language), !genus.isEmpty { parts.append(genus) }
        if !types.isEmpty { parts.append(types.joined(separator: " / ")) }
        if parts.isEmpty { parts.append(PokedexNumber.label(change.id)) }
        return DesktopNotification(summary: summary, body: parts.joined(separator: " · "),
                                   imagePath: spritePath, soundName: soundName)
    }
}
