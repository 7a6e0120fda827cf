import PokedexCore
import PokedexModels
import PokedexProtocol

/// The documentation's generated sections, each made from the one place its facts live: the
/// contract (``Pokedex1``) for the D-Bus API, ``ServiceOptions`` for pokedexd's options.
enum Sections {
    static let busctl = "busctl --user"
    static let target = "\(Pokedex1.busName) \(Pokedex1.objectPath) \(Pokedex1.interfaceName)"

    /// `(u offset, u limit)`.
    static func tuple(_ args: [Arg]) -> String { "(" + args.map { "\($0.signature) \($0.name)" }.joined(separator: ", ") + ")" }

    /// A method's, signal's or property's signature as the API list writes it.
    static func signature(_ shape: MemberShape) -> String {
        switch shape {
        case .method(_, let ins, let outs):
            let reply = outs.isEmpty ? "" : " → " + (outs.count == 1 ? outs[0].signature : tuple(outs))
            return tuple(ins) + reply
        case .signal(_, let values): return tuple(values)
        case .property(_, let signature, _): return signature
        }
    }

    static func change(_ change: PropertyChange) -> String {
        switch change {
        case .emits: "emits `PropertiesChanged`"
        case .const: "constant"
        case .none: "no change signal (read it when needed)"
        }
    }

    /// The keys of a member's dictionary, and of those nested in it, in words.
    static func keys(_ member: String, code: (String) -> String) -> String {
        guard let keys = Pokedex1.keys[member] else { return "" }
        return keys.map { k in
            var text = code(k.name) + " " + k.signature
            if !k.text.isEmpty { text += " (\(k.text))" }
            if let nested = Pokedex1.keys[member + "." + k.name] {
                text += ": " + nested.map { n in code(n.name) + " " + n.signature + (n.text.isEmpty ? "" : " (\(n.text))") }
                    .joined(separator: ", ")
            }
            return text
        }.joined(separator: ", ")
    }

    static func doc(_ name: String) -> Pokedex1.MemberDoc { Pokedex1.docs[name] ?? Pokedex1.MemberDoc.missing }

    // MARK: README

    /// The README's API list, one item per member, in the interface's order: its signature,
    /// what it does (its keys), and a busctl line that calls it.
    static func readmeAPI() -> String {
        var items: [String] = []
        let code: (String) -> String = { "`\($0)`" }
        for shape in Pokedex1.interface.members {
            let name = shape.name
            let kind: String, text: String, example: String
            switch shape {
            case .method:
                let d = doc(name)
                let timeout = d.busctlTimeout.map { " --timeout=\($0)" } ?? ""
                let arguments = (d.example ?? "").isEmpty ? "" : " " + (d.example ?? "")
                (kind, text) = ("", ": " + d.text + keysSuffix(name, code: code))
                example = "\(busctl)\(timeout) call \(target) \(name)\(arguments)"
            case .signal:
                (kind, text, example) = ("signal ", ": " + doc(name).text, "\(busctl) monitor \(Pokedex1.busName)")
            case .property(_, _, let c):
                (kind, text) = ("property ", ", \(change(c)): " + doc(name).text)
                example = "\(busctl) get-property \(target) \(name)"
            }
            items.append(Filling.markdown("- \(kind)`\(name)` `\(signature(shape))`\(text) Example: `\(example)`", indent: "  "))
        }
        return items.joined(separator: "\n")
    }

    static func keysSuffix(_ name: String, code: (String) -> String) -> String {
        var all = keys(name, code: code)
        if name == "LocalizedDetail" { all = "`Detail`'s, and " + all }
        return all.isEmpty ? "" : " Keys: " + all + "."
    }

    /// The README's list of error names.
    static func readmeErrors() -> String {
        "Errors, each method's in `pokedexd(1)`:\n" + PokedexError.Kind.allCases.map { k in
            "- `\(k.dbusName)`: \(Pokedex1.errorDocs[k] ?? "")"
        }.joined(separator: "\n")
    }

    /// The README's configuration table.
    static func readmeOptions() -> String {
        var rows = ["| option | environment | default | what it does |", "| --- | --- | --- | --- |"]
        for option in ServiceOptions.all where !option.hidden {
            let env = option.environment.map { "`\($0)`" } ?? ""
            let shown = option.defaultText.map { "`\($0)`" } ?? ""
            rows.append("| `\(ServiceOptions.flags(option).replacingPipes)` | \(env) | \(shown) | \(option.help.replacingPipes) |")
        }
        return rows.joined(separator: "\n")
    }
}

extension String {
    /// A table cell's text: a `|` would end the cell.
    var replacingPipes: String { split(separator: "|", omittingEmptySubsequences: false).joined(separator: "\\|") }
}

extension Pokedex1.MemberDoc {
    static let missing = Pokedex1.MemberDoc("(undocumented)")
}
