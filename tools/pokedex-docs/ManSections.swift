import PokedexCore
import PokedexModels
import PokedexProtocol

/// pokedexd(1)'s generated sections, in roff.
enum ManSections {
    /// Text as roff reads it: backslashes escaped, hyphens as hyphens, no line taken for a request.
    static func roff(_ text: String) -> String {
        var out = ""
        for c in text {
            switch c {
            case "\\": out += "\\e"
            case "-": out += "\\-"
            case "`": continue
            case "→": out += "\\(->"
            case "×": out += "\\(mu"
            default:
                // Anything else past ASCII by its code point, as groff reads it whatever the locale.
                for u in c.unicodeScalars {
                    if u.isASCII { out.unicodeScalars.append(u) } else { out += "\\[u" + hex(u.value) + "]" }
                }
            }
        }
        return Filling.noRequests(out)
    }

    /// Four or more upper-case hex digits, as groff's `\[uXXXX]` wants them.
    static func hex(_ v: UInt32) -> String {
        let digits = String(v, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    /// The D-BUS INTERFACE section's members: each with its signature, its text, its keys and its errors.
    static func dbus() -> String {
        var lines: [String] = []
        for shape in Pokedex1.interface.members {
            let name = shape.name
            let kind = switch shape {
            case .method: ""
            case .signal: "signal "
            case .property: "property "
            }
            lines += [".TP", ".BR \"\(kind)\(name)\" \" \(roff(Sections.signature(shape)))\""]
            var text = Sections.doc(name).text
            if case .property(_, _, let c) = shape { text = Sections.change(c).prefix(1).uppercased() + Sections.change(c).dropFirst() + ". " + text }
            let keys = Sections.keysSuffix(name, code: { $0 })
            text += keys
            if let errors = Pokedex1.interface.errors[name], !errors.isEmpty {
                text += " Errors: " + errors.map(\.rawValue).joined(separator: ", ") + "."
            }
            lines.append(Filling.roff(roff(text)))
        }
        lines += [".SS Errors", "Each comes with a message for a person."]
        for k in PokedexError.Kind.allCases {
            let text = Pokedex1.errorDocs[k] ?? ""
            lines += [".TP", ".B \(roff(k.dbusName))", Filling.roff(roff(text.prefix(1).uppercased() + text.dropFirst() + "."))]
        }
        return lines.joined(separator: "\n")
    }

    /// The OPTIONS section.
    static func options() -> String {
        var lines = [Filling.roff(roff("Each option falls back to the environment variable named, then to its default; the command line wins over the environment."))]
        for option in ServiceOptions.all where !option.hidden {
            lines.append(".TP")
            switch option.kind {
            case .toggle: lines.append(".BR \(roff("--" + option.name)) \", \" \(roff("--no-" + option.name))")
            case .flag: lines.append(".BR " + (option.short.map { "\\-\($0) \", \" " } ?? "") + roff("--" + option.name))
            default: lines.append(".BI \(roff("--" + option.name)) \" \(roff(option.valueName))\"")
            }
            var text = option.help
            if let env = option.environment { text += " [\(env)]" }
            if let shown = option.defaultText { text += " (default: \(shown))" }
            lines.append(Filling.roff(roff(text)))
        }
        lines += [".TP", ".B \\-\\-version", "Print the version.", ".TP", ".BR \\-h \", \" \\-\\-help", "Print the options."]
        return lines.joined(separator: "\n")
    }

    /// The ENVIRONMENT section's entry for the options' variables.
    static func environment() -> String {
        let names = ServiceOptions.all.compactMap(\.environment)
        return ([".TP"] + names.enumerated().map { i, n in (i == 0 ? ".B " : ".TQ\n.B ") + roff(n) }
                + ["The options' variables: see OPTIONS. An empty one is not set."]).joined(separator: "\n")
    }
}
