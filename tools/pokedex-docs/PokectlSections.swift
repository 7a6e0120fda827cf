import FoundationEssentials

/// pokectl(1)'s generated sections, from what its argument parser says of itself
/// (`pokectl --experimental-dump-help`, read in the C locale): its options' names, values,
/// defaults and help are written once, in the commands' declarations.
enum PokectlSections {
    struct Dump: Decodable { let command: Command }
    struct Command: Decodable {
        let commandName: String
        let abstract: String?
        let arguments: [Argument]?
        let subcommands: [Command]?
    }
    struct Argument: Decodable {
        struct Name: Decodable { let kind: String; let name: String }
        let kind: String
        let names: [Name]?
        let valueName: String?
        let abstract: String?
        let defaultValue: String?
        let allValues: [String]?
        let shouldDisplay: Bool
        let isRepeating: Bool?
    }

    /// Every command, as `cache stats` for a subcommand, with its options (no positionals).
    static func commands(_ dump: Dump) -> [(name: String, options: [Argument])] {
        var out: [(String, [Argument])] = []
        func walk(_ c: Command, _ path: [String]) {
            let subcommands = c.subcommands ?? []
            if !path.isEmpty, subcommands.isEmpty, c.commandName != "help" {
                out.append((path.joined(separator: " "),
                            (c.arguments ?? []).filter { $0.kind != "positional" && $0.shouldDisplay && !builtIn($0) }))
            }
            for s in subcommands { walk(s, path + [s.commandName]) }
        }
        walk(dump.command, [])
        return out
    }

    /// `--help` and `--version`, which every command has.
    static func builtIn(_ a: Argument) -> Bool { ["help", "version"].contains(a.names?.last?.name ?? "") }

    static func flags(_ a: Argument) -> String {
        (a.names ?? []).map { $0.kind == "short" ? "\\-" + $0.name : ManSections.roff("--" + $0.name) }.joined(separator: ", ")
    }

    static func entry(_ a: Argument) -> [String] {
        var head = ".BR " + flags(a)
        if a.kind == "option" {
            let value = a.allValues.map { $0.joined(separator: "|") } ?? (a.valueName ?? "value").uppercased()
            head += " \" " + ManSections.roff(value) + "\""
        }
        var text = a.abstract ?? ""
        if let d = a.defaultValue, !d.isEmpty { text += " (default: \(d))" }
        if a.isRepeating == true, a.kind == "option" { text += " Repeatable." }
        return [".TP", head, ManSections.roff(text)]
    }

    /// The options most commands take, once: the OPTIONS section.
    static func options(_ dump: Dump) -> String {
        let all = commands(dump)
        var lines: [String] = []
        for a in common(all) { lines += entry(a) }
        lines += [".TP", ".BR \\-h \", \" \\-\\-help", "Help for pokectl or a command.", ".TP", ".B \\-\\-version", "The version."]
        return lines.joined(separator: "\n")
    }

    /// Each command's own options, beside the common ones: the COMMAND OPTIONS section.
    static func commandOptions(_ dump: Dump) -> String {
        let all = commands(dump)
        let shared = Set(common(all).map(flags))
        var lines: [String] = []
        for (name, options) in all {
            let own = options.filter { !shared.contains(flags($0)) }
            guard !own.isEmpty else { continue }
            lines += [".SS \(ManSections.roff(name))"]
            for a in own { lines += entry(a) }
        }
        return lines.joined(separator: "\n")
    }

    /// The options that at least half the commands take, in the order the first one lists them.
    static func common(_ all: [(name: String, options: [Argument])]) -> [Argument] {
        var count: [String: Int] = [:]
        for (_, options) in all { for a in options { count[flags(a), default: 0] += 1 } }
        // Each with the help most commands give it (browse words --color its own way).
        var helps: [String: [String: Int]] = [:]
        for a in all.flatMap(\.options) { helps[flags(a), default: [:]][a.abstract ?? "", default: 0] += 1 }
        var seen = Set<String>()
        return all.flatMap(\.options).filter { a in
            let f = flags(a)
            let usual = helps[f]?.max { $0.value < $1.value || ($0.value == $1.value && $0.key > $1.key) }?.key
            return count[f, default: 0] * 2 >= all.count && a.abstract ?? "" == usual && seen.insert(f).inserted
        }
    }
}
