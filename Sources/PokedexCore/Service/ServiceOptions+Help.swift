/// `pokedexd --help`, made from the options' table.
extension ServiceOptions {
    /// The files the service keeps, as `--help` lists them.
    public static let files = [
        ("$XDG_CACHE_HOME/pokedex/v2", "the cache (records, sprites); safe to delete"),
        ("$XDG_DATA_HOME/pokedex", "favorites.json; never in the cache"),
    ]

    /// The page `--help` prints, fitted to `width` columns.
    public static func helpText(width: Int = 80) -> String {
        var lines = wrap("OVERVIEW: " + overview, width: width)
        lines.append("")
        lines += wrap(discussion, width: width)
        lines += ["", "FILES"] + files.map { "  " + $0.0.padding(to: 30) + $0.1 }
        lines += ["", "USAGE: pokedexd [<options>]", "", "OPTIONS:"]
        let column = 26
        for option in all where !option.hidden {
            lines += item(flags(option), help: sentence(option), column: column, width: width)
        }
        lines += item("--version", help: "Show the version.", column: column, width: width)
        lines += item("-h, --help", help: "Show help information.", column: column, width: width)
        return lines.joined(separator: "\n")
    }

    /// The option's flags as a reader types them: `--timeout <SECONDS>`, `--prefetch, --no-prefetch`.
    public static func flags(_ option: ServiceOption) -> String {
        switch option.kind {
        case .toggle: "--\(option.name), --no-\(option.name)"
        case .flag: (option.short.map { "-\($0), " } ?? "") + "--\(option.name)"
        default: "--\(option.name) <\(option.valueName)>"
        }
    }

    /// Its help, its environment variable and its default, in one paragraph.
    public static func sentence(_ option: ServiceOption) -> String {
        var text = option.help
        if let name = option.environment {
            switch option.kind {
            case .toggle, .flag: text += " [env: \(name)=yes|no]"
            default: text += " [env: \(name)]"
            }
        }
        if let shown = option.defaultText { text += " (default: \(shown))" }
        return text
    }

    /// A term and its text beside it from `column` on, on a line of its own when the term is wider.
    static func item(_ term: String, help: String, column: Int, width: Int) -> [String] {
        let indent = String(repeating: " ", count: column)
        var body = wrap(help, width: max(width - column, 20))
        var lines: [String] = []
        let head = "  " + term
        if head.count + 1 < column, !body.isEmpty {
            lines.append(head.padding(to: column) + body.removeFirst())
        } else {
            lines.append(head)
        }
        return lines + body.map { indent + $0 }
    }

    /// `text` broken at spaces into lines of at most `width` characters (a longer word alone).
    static func wrap(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var line = ""
            for word in paragraph.split(separator: " ") {
                if !line.isEmpty, line.count + 1 + word.count > width {
                    lines.append(line)
                    line = ""
                }
                line += line.isEmpty ? String(word) : " " + word
            }
            lines.append(line)
        }
        return lines
    }
}

extension String {
    /// The string, then spaces up to `width` characters.
    func padding(to width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
