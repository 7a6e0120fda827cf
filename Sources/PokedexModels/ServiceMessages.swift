/// The service's own messages, written once: the core builds its errors from these templates,
/// in English (as D-Bus errors and the journal read), and pokectl reads an error it is given
/// back into the reader's language by matching it against the same templates.
///
/// A message is one or more parts joined by "; ". Each part that is one of the templates is
/// read in the reader's words, with its values (themselves read again when they are one of the
/// templates: "no details for pikachu (#25)" inside "…: cannot reach …"). A part that is none
/// of them (a host's own error text, a name) is left as it came.
public enum ServiceMessages {
    // Naming a Pokémon.
    public static let emptyName = Words.english.tr("give a Pokémon name or number, not an empty string")
    public static let noNumber = Words.english.tr("no Pokémon with number %s")
    public static let numbersRun = Words.english.tr("Pokédex numbers run from 1 to %s")
    public static let numbersRunWithForms = Words.english.tr("Pokédex numbers run from 1 to %s (forms %s–%s)")
    public static let noName = Words.english.tr("no Pokémon named %s")
    public static let didYouMean = Words.english.tr("did you mean %s?")
    public static let candidates = Words.english.tr("%s: did you mean %s or %s?")
    public static let tryAgain = Words.english.tr("try again in a moment")

    // Searching.
    public static let queryTooLong = Words.english.tr("the search query is too long (at most %s characters)")
    public static let queryEmpty = Words.english.tr("the search query is empty")
    public static let queryHint = Words.english.tr("give part of a name, a number, type:NAME or gen:N")
    public static let noType = Words.english.tr("no type named %s: the types are %s, or their names in any language PokeAPI has (type:feuer, type:ほのお)")
    public static let noGeneration = Words.english.tr("no generation %s: generations run from %s to %s")
    public static let noGenerationNamed = Words.english.tr("no generation by that name: generations run from %s to %s")

    // Favorites and sprites.
    public static let noFavoritesToPick = Words.english.tr("there are no favorites to pick from yet: add one with 'pokectl fav NAME'")
    public static let noDefaultSprite = Words.english.tr("%s has no default sprite")
    public static let noShinySprite = Words.english.tr("%s has no shiny sprite")
    public static let noCry = Words.english.tr("PokeAPI has no cry for %s")

    // A favorites file that is not what it should be.
    public static let favoritesLinkOutside = Words.english.tr("%s is a link to %s, outside the data folder, where pokedexd neither reads nor writes")
    public static let favoritesFixLink = Words.english.tr("to use that list, put the file itself in place of the link")
    public static let favoritesDangling = Words.english.tr("%s is a link to %s, which does not exist")
    public static let favoritesNotAFile = Words.english.tr("%s is %s, not a file: pokedexd neither reads nor replaces it")
    public static let favoritesDirectory = Words.english.tr("a directory")
    public static let favoritesFIFO = Words.english.tr("a named pipe (FIFO)")
    public static let favoritesSocket = Words.english.tr("a socket")
    public static let favoritesDevice = Words.english.tr("a device")
    public static let favoritesMoveAway = Words.english.tr("move it away to start a new list")
    public static let favoritesNotOwned = Words.english.tr("%s belongs to uid %s, not to this user: pokedexd neither reads nor replaces it")
    public static let favoritesUnreadable = Words.english.tr("cannot read %s: %s")
    public static let favoritesDamaged = Words.english.tr("%s was damaged: %s of its %s entries were kept")
    public static let favoritesKeptAside = Words.english.tr("the damaged original is kept as %s; this notice goes when that copy is deleted")
    public static let favoritesNotKeptAside = Words.english.tr("it could not be kept aside (%s), so it is left as it is, and favorites cannot be changed until the folder can be written")
    public static let favoritesUnchanged = Words.english.tr("favorites were not changed")
    public static let favoritesLocked = Words.english.tr("another program has kept %s locked (another pokedexd on the same folder?)")

    // What could not be had, and why.
    public static let noDetails = Words.english.tr("no details for %s (#%s)")
    public static let spriteUnavailable = Words.english.tr("the sprite of %s is not available")
    public static let shinyUnavailable = Words.english.tr("the shiny sprite of %s is not available")
    public static let cryUnavailable = Words.english.tr("the cry of %s is not available")
    public static let listUnavailable = Words.english.tr("the Pokémon list is not available")
    public static let filtersUnavailable = Words.english.tr("type and generation filters are not available")
    public static let cannotReach = Words.english.tr("%s: cannot reach %s (%s), and nothing is cached")
    public static let noAnswerInTime = Words.english.tr("%s: %s did not answer in time, and nothing is cached")
    public static let httpStatus = Words.english.tr("%s: PokeAPI answered HTTP %s for %s, and nothing is cached")
    public static let cancelled = Words.english.tr("%s: the request was cancelled")
    public static let notCached = Words.english.tr("%s: %s, and nothing is cached")
    public static let shuttingDown = Words.english.tr("pokedexd is shutting down")
    public static let nothingChanged = Words.english.tr("nothing was changed, so trying again is safe")
    public static let tooManyWaiting = Words.english.tr("%s: this caller already has %s calls waiting; send more once they are answered")

    // The sandbox, as `Status` sums it up.
    public static let landlock = Words.english.tr("landlock ABI %s (%s)")
    public static let landlockWithout = Words.english.tr("landlock ABI %s (%s), without %s")
    public static let noLandlock = Words.english.tr("no landlock")
    public static let noLandlockBecause = Words.english.tr("no landlock (%s)")
    public static let namespaces = Words.english.tr("namespaces: %s")
    public static let namespacesFallback = Words.english.tr("namespaces: no, as pokedex.service could not start with them (has the kernel stopped allowing user namespaces?): Landlock alone until the next login, or run pokedex-sandbox-setup")
    public static let landlockFiles = Words.english.tr("files")
    public static let landlockTCP = Words.english.tr("tcp")
    public static let landlockScopes = Words.english.tr("scopes")
    public static let noNewUnixSockets = Words.english.tr("no new unix sockets")
    public static let needsABI = Words.english.tr("%s: needs ABI %s")
    public static let landlockOff = Words.english.tr("turned off by --landlock=no")
    public static let landlockNotInKernel = Words.english.tr("landlock is not in this kernel")
    public static let yes = Words.english.tr("yes")
    public static let no = Words.english.tr("no")

    static let templates: [String] = [
        emptyName, noNumber, numbersRunWithForms, numbersRun, noName, candidates, didYouMean, tryAgain,
        queryTooLong, queryEmpty, queryHint, noType, noGenerationNamed, noGeneration,
        noFavoritesToPick, noDefaultSprite, noShinySprite, noCry,
        favoritesLinkOutside, favoritesFixLink, favoritesDangling, favoritesNotAFile, favoritesDirectory, favoritesFIFO,
        favoritesSocket, favoritesDevice, favoritesMoveAway, favoritesNotOwned, favoritesUnreadable, favoritesDamaged,
        favoritesKeptAside, favoritesNotKeptAside, favoritesUnchanged,
        noDetails, spriteUnavailable, shinyUnavailable, cryUnavailable, listUnavailable, filtersUnavailable,
        cannotReach, noAnswerInTime, httpStatus, notCached, cancelled, shuttingDown, nothingChanged, tooManyWaiting,
        landlockWithout, landlock, noLandlockBecause, noLandlock, namespacesFallback, namespaces, landlockFiles, landlockTCP, landlockScopes, noNewUnixSockets,
        needsABI, landlockOff, landlockNotInKernel, yes, no,
    ]

    /// `template` with each `%s` replaced by the next of `values`, in English.
    public static func format(_ template: String, _ values: String...) -> String {
        Words.english.trf(template, values.first ?? "", values.count > 1 ? values[1] : "", values.count > 2 ? values[2] : "")
    }

    /// The parts of a message joined as the service joins them.
    public static func joined(_ parts: String...) -> String { parts.joined(separator: "; ") }

    /// A message of the service in `words`: each part that is a template, read in them.
    /// `naming` gives a value that is a Pokémon's identifier ("charizard") its name in the
    /// reader's language ("Glurak"), where the caller can look it up.
    public static func translate(_ message: String, _ words: Words, naming: (String) -> String? = { _ in nil }) -> String {
        message.split(separator: "; ", omittingEmptySubsequences: false).map { translatePart(String($0), words, naming, depth: 0) }
            .joined(separator: "; ")
    }

    private static func translatePart(_ part: String, _ words: Words, _ naming: (String) -> String?, depth: Int) -> String {
        guard depth < 3, part.utf8.count <= 4096 else { return part }
        for template in templates {
            guard let values = match(template, part) else { continue }
            // A suggestion is what to type: its identifiers stay as they are.
            let suggestion = template == candidates || template == didYouMean
            let read = values.map { suggestion ? translatePart($0, words, { _ in nil }, depth: depth + 1) : translatePart($0, words, naming, depth: depth + 1) }
            return words.trf(template, read.first ?? "", read.count > 1 ? read[1] : "", read.count > 2 ? read[2] : "")
        }
        // A value, not a sentence: a Pokémon's identifier is named as the games name it.
        guard depth > 0, APIName.isValid(part) else { return part }
        return naming(part) ?? part
    }

    /// Whether the service could not tell which Pokémon was meant (no such name or number):
    /// only then is a search the way on.
    public static func isUnknownPokemon(_ message: String) -> Bool {
        message.split(separator: "; ").contains { part in [noName, noNumber].contains { match($0, String(part)) != nil } }
    }

    /// The values of `%s` when `text` is `template` filled in, else nil. Each value is the
    /// shortest that lets the rest match, but the last, which takes what is left.
    public static func match(_ template: String, _ text: String) -> [String]? {
        let pieces = template.split(separator: "%s", omittingEmptySubsequences: false).map(String.init)
        guard let head = pieces.first, text.hasPrefix(head) else { return nil }
        var rest = Substring(text.dropFirst(head.count))
        var values: [String] = []
        for (i, literal) in pieces.enumerated().dropFirst() {
            let last = i == pieces.count - 1
            if last {
                guard rest.hasSuffix(literal), rest.count >= literal.count else { return nil }
                let value = rest.dropLast(literal.count)
                guard !value.isEmpty else { return nil }
                values.append(String(value))
                return values
            }
            guard !literal.isEmpty, let r = rest.dropFirst().firstRange(of: literal) else { return nil }
            values.append(String(rest[rest.startIndex..<r.lowerBound]))
            rest = rest[r.upperBound...]
        }
        return rest.isEmpty ? values : nil
    }
}
