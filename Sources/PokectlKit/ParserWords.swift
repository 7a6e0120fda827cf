import PokedexModels

/// The argument parser's own words (its help's headings, its usage errors, its notes on
/// defaults), read in the reader's language. The parser writes them in English; pokectl's own
/// help texts are translated where they are declared (``tr(_:)``).
enum ParserWords {
    /// Headings that start a line, as the parser writes them.
    static let headings = [
        Words.english.tr("OVERVIEW:"), Words.english.tr("USAGE:"), Words.english.tr("ARGUMENTS:"), Words.english.tr("OPTIONS:"),
        Words.english.tr("SUBCOMMANDS:"), Words.english.tr("Error:"), Words.english.tr("Usage:"), Words.english.tr("Help:"),
    ]

    /// Whole lines and error messages the parser writes, with `%s` for what varies.
    static let sentences = [
        Words.english.tr("  See '%s' for more information."),
        Words.english.tr("  See '%s' for detailed help."),
        Words.english.tr("The value '%s' is invalid for '%s'"),
        Words.english.tr("Unexpected argument '%s'"),
        Words.english.tr("Unexpected arguments '%s'"),
        Words.english.tr("Unknown option '%s'"),
        Words.english.tr("Unknown option '%s'. Did you mean '%s'?"),
        Words.english.tr("Missing value for '%s'"),
        Words.english.tr("Missing expected argument '%s'"),
        Words.english.tr("Show help information."),
        Words.english.tr("Show the version."),
    ]

    /// Words inside a help line: the parser's notes on an option's values and default.
    static let inline = [("(values:", Words.english.tr("(values:")), ("default:", Words.english.tr("default:")), ("(default:", Words.english.tr("(default:")), ("(default)", Words.english.tr("(default)"))]

    /// `text` (a help page or a usage error) with the parser's words in `words`.
    static func translate(_ text: String, _ words: Words) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { line(String($0), words) }.joined(separator: "\n")
    }

    static func line(_ text: String, _ words: Words) -> String {
        var text = text
        for heading in headings where text.hasPrefix(heading) {
            let rest = String(text.dropFirst(heading.count))
            let body = rest.hasPrefix(" ") ? String(rest.dropFirst()) : rest
            let read = sentence(body, words) ?? body
            return words.tr(heading) + (rest.hasPrefix(" ") ? " " : "") + read
        }
        if let read = sentence(text, words) { return read }
        // "  -h, --help   Show help information.": the option's own help is already translated.
        for s in sentences where s.hasPrefix("Show") && text.hasSuffix(s) {
            text = String(text.dropLast(s.count)) + words.tr(s)
        }
        for (token, msgid) in inline where text.contains(token) {
            text = text.split(separator: " ", omittingEmptySubsequences: false).map { $0 == token ? words.tr(msgid) : String($0) }
                .joined(separator: " ")
        }
        return text
    }

    /// The parser's refusal of a value not among an option's: its list of values ends in
    /// English ("'newest' and 'random'"), so it is given as the values alone.
    static let notAmongValues = Words.english.tr("The value '%s' is invalid for '%s'. Please provide one of %s.")

    private static func sentence(_ text: String, _ words: Words) -> String? {
        if let values = ServiceMessages.match(notAmongValues, text), values.count == 3 {
            let quoted = values[2].split(separator: "'", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 1 }
            return words.trf(notAmongValues, values[0], values[1], quoted.map { "'\($0.element)'" }.joined(separator: ", "))
        }
        for s in sentences {
            guard let values = ServiceMessages.match(s, text) else { continue }
            return words.trf(s, values.first ?? "", values.count > 1 ? values[1] : "")
        }
        return nil
    }
}
