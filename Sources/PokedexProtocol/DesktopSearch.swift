import CSystemd
import PokedexModels

/// `org.gnome.Shell.SearchProvider2`, as GNOME Shell calls it (js/ui/remoteSearch.js), on the
/// service's own connection at ``objectPath``. The shell sends the words typed as terms, result
/// ids are Pokémon numbers as decimal strings.
public enum SearchProvider2 {
    public static let interfaceName = "org.gnome.Shell.SearchProvider2"
    public static let objectPath = "/io/github/pokedexd/SearchProvider"

    public static let getInitialResultSet = Method(
        "GetInitialResultSet", args: .one("terms", DesktopCoding.terms), reply: .one("results", DesktopCoding.strings), errors: [])
    public static let getSubsearchResultSet = Method(
        "GetSubsearchResultSet", args: .two("previous_results", DesktopCoding.identifiers, "terms", DesktopCoding.terms),
        reply: .one("results", DesktopCoding.strings), errors: [])
    public static let getResultMetas = Method(
        "GetResultMetas", args: .one("identifiers", DesktopCoding.identifiers), reply: .one("metas", DesktopCoding.gnomeMetas), errors: [])
    public static let activateResult = Method(
        "ActivateResult", args: .three("identifier", Coding.argument, "terms", DesktopCoding.terms, "timestamp", Coding.uint32),
        reply: .none, errors: [.notFound, .invalidArgument])
    public static let launchSearch = Method(
        "LaunchSearch", args: .two("terms", DesktopCoding.terms, "timestamp", Coding.uint32), reply: .none, errors: [.invalidArgument])

    public static let interface = Interface(name: interfaceName, objectPath: objectPath, members: [
        getInitialResultSet.shape, getSubsearchResultSet.shape, getResultMetas.shape, activateResult.shape, launchSearch.shape,
    ])
}

/// `org.kde.krunner1`, as KRunner's D-Bus runner calls it, at ``objectPath``.
public enum KRunner1 {
    public static let interfaceName = "org.kde.krunner1"
    public static let objectPath = "/io/github/pokedexd/KRunner"

    public static let actions = Method("Actions", args: .none, reply: .one("matches", DesktopCoding.krunnerActions), errors: [])
    public static let match = Method("Match", args: .one("query", Coding.argument), reply: .one("matches", DesktopCoding.krunnerMatches), errors: [])
    public static let run = Method("Run", args: .two("matchId", Coding.argument, "actionId", Coding.argument), reply: .none,
                                   errors: [.notFound, .invalidArgument, .unavailable, .storage])
    public static let config = Method("Config", args: .none, reply: .one("config", DesktopCoding.krunnerConfig), errors: [])
    public static let teardown = Method("Teardown", args: .none, reply: .none, errors: [])
    /// Plasma 6 on Wayland, before `Run`: the token that lets what is opened take the focus.
    public static let setActivationToken = Method("SetActivationToken", args: .one("token", Coding.argument), reply: .none, errors: [])

    public static let interface = Interface(name: interfaceName, objectPath: objectPath, members: [
        actions.shape, match.shape, run.shape, config.shape, teardown.shape, setActivationToken.shape,
    ])
}

/// How desktop search values travel.
public enum DesktopCoding {
    /// The most terms a shell sends that are looked at; each is capped like any argument.
    public static let maxTerms = 16
    /// The most terms a call may carry: GNOME Shell sends one per word typed in its entry.
    public static let maxTermsSent = 64
    /// The most ids one call may carry. GNOME Shell asks for metas a screenful at a time (its
    /// list shows 5 per provider, its grid a few dozen) and hands back as `previous_results`
    /// what the service answered (at most ``DesktopSearch`` `maxResults`, 20).
    public static let maxIdentifiers = 64
    /// The most bytes of one id: ids are Pokémon numbers in decimal.
    public static let maxIdentifierBytes = 32

    /// A reply's `as`.
    public static let strings = Codec<[String]>(
        "as", write: { w, v throws(BusError) in try w.append(strings: v) },
        decode: { v throws(BusError) in
            guard case .array(let items) = v else { throw Coding.malformed("not an as") }
            return items.compactMap(\.string)
        })

    /// Result ids a shell sends back: at most ``maxIdentifiers`` of ``maxIdentifierBytes``,
    /// refused as they are read.
    public static let identifiers = Codec<[String]>(
        "as", write: { w, v throws(BusError) in try w.append(strings: v) },
        decode: { v throws(BusError) in
            guard case .array(let items) = v, items.count <= maxIdentifiers else { throw Coding.malformed("not an as of ids") }
            return items.compactMap(\.string).filter { $0.utf8.count <= maxIdentifierBytes }
        },
        read: { r throws(BusError) in try r.readStrings(maxCount: maxIdentifiers, maxBytes: maxIdentifierBytes) },
        cap: ArgumentCap(items: maxIdentifiers, bytes: maxIdentifierBytes))

    /// The terms typed: at most ``maxTermsSent``, each at most ``Coding/maxArgumentBytes``, of
    /// which the first ``maxTerms`` are looked at.
    public static let terms = Codec<[String]>(
        "as", write: { w, v throws(BusError) in try w.append(strings: v) },
        decode: { v throws(BusError) in
            guard case .array(let items) = v else { throw Coding.malformed("not an as") }
            return try items.prefix(maxTerms).compactMap(\.string).map { s throws(BusError) in try Coding.bounded(s) }
        },
        read: { r throws(BusError) in
            Array(try r.readStrings(maxCount: maxTermsSent, maxBytes: Coding.maxArgumentBytes).prefix(maxTerms))
        },
        cap: ArgumentCap(items: maxTermsSent, bytes: Coding.maxArgumentBytes))

    /// `aa{sv}`: `id`, `name`, `description`, `icon` (a serialized GIcon: `('file', <'file:///…'>)`
    /// for the cached sprite, else `('themed', <['…']>)`), `clipboardText`.
    public static let gnomeMetas = Codec<[DesktopResult]>(
        "aa{sv}",
        write: { w, results throws(BusError) in
            try w.container("a", "a{sv}") { () throws(BusError) in
                for r in results {
                    try w.container("a", "{sv}") { () throws(BusError) in
                        try w.entry("id", "s") { () throws(BusError) in try w.append(String(r.id)) }
                        try w.entry("name", "s") { () throws(BusError) in try w.append(shown(r.name)) }
                        try w.entry("description", "s") { () throws(BusError) in try w.append(shown(r.description)) }
                        try w.entry("icon", "(sv)") { () throws(BusError) in
                            try w.container("r", "sv") { () throws(BusError) in
                                if r.spritePath.isEmpty {
                                    try w.append("themed")
                                    try w.container("v", "as") { () throws(BusError) in try w.append(strings: [DesktopResult.appIcon]) }
                                } else {
                                    try w.append("file")
                                    try w.container("v", "s") { () throws(BusError) in try w.append(fileURI(r.spritePath)) }
                                }
                            }
                        }
                        try w.entry("clipboardText", "s") { () throws(BusError) in try w.append(shown(r.name)) }
                    }
                }
            }
        },
        decode: { v throws(BusError) in
            guard case .array(let items) = v else { throw Coding.malformed("not an aa{sv}") }
            return items.compactMap { item -> DesktopResult? in
                guard let d = item.stringDict, let id = d["id"]?.string.flatMap(UInt32.init) else { return nil }
                var path = ""
                if case .structure(let icon)? = d["icon"], icon.count == 2, icon[0].string == "file", let uri = icon[1].string {
                    path = uri.hasPrefix("file://") ? String(uri.dropFirst(7)) : uri
                }
                return DesktopResult(id: id, name: d["name"]?.string ?? "", description: d["description"]?.string ?? "", spritePath: path)
            }
        })

    /// Text from outside (names and genus from the API, a catalogue's words) as a shell shows
    /// it: GNOME Shell draws names as plain text and escapes descriptions itself before it
    /// highlights the terms in them, KRunner's list draws both as plain text, and GNOME puts
    /// `clipboardText` on the clipboard. None gets a control (ESC, OSC 52, C1, a bidi
    /// override): the same cleaning as pokectl's output (``UntrustedText/terminal(_:)``).
    static func shown(_ text: String) -> String { UntrustedText.terminal(text) }

    /// A path as a `file://` URI: every byte outside the unreserved set and `/` percent-encoded.
    public static func fileURI(_ path: String) -> String {
        var out = "file://"
        for b in path.utf8 {
            switch b {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "/"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "~"):
                out.unicodeScalars.append(Unicode.Scalar(b))
            default:
                let hex = Array("0123456789ABCDEF".utf8)
                out += "%" + String(decoding: [hex[Int(b >> 4)], hex[Int(b & 15)]], as: UTF8.self)
            }
        }
        return out
    }

    /// `a(sss)`: action id, text, icon name.
    public static let krunnerActions = Codec<[KRunnerAction]>(
        "a(sss)",
        write: { w, actions throws(BusError) in
            try w.structs("sss", actions) { a throws(BusError) in
                try w.append(a.id); try w.append(shown(a.text)); try w.append(a.icon)
            }
        },
        decode: { v throws(BusError) in
            guard case .array(let items) = v else { throw Coding.malformed("not an a(sss)") }
            return items.compactMap { item in
                guard case .structure(let f) = item, f.count == 3 else { return nil }
                return KRunnerAction(id: f[0].string ?? "", text: f[1].string ?? "", icon: f[2].string ?? "")
            }
        })

    /// `a(sssida{sv})`: match id, text, icon name, type (100 exact, 30 possible), relevance
    /// 0…1, and properties: `subtext`, `icon-data` `(iiibiiay)` when the sprite is decoded,
    /// `urls` (the sprite's file URI), `actions`.
    public static let krunnerMatches = Codec<[KRunnerMatch]>(
        "a(sssida{sv})",
        write: { w, matches throws(BusError) in
            try w.structs("sssida{sv}", matches) { m throws(BusError) in
                try w.append(String(m.result.id))
                try w.append(shown(m.result.name))
                try w.append(DesktopResult.appIcon)
                try w.append(Int32(m.result.exact ? 100 : 30))
                try w.append(m.result.relevance)
                try w.container("a", "{sv}") { () throws(BusError) in
                    try w.entry("subtext", "s") { () throws(BusError) in try w.append(shown(m.result.krunnerSubtext)) }
                    if !m.result.spritePath.isEmpty {
                        try w.entry("urls", "as") { () throws(BusError) in try w.append(strings: [fileURI(m.result.spritePath)]) }
                    }
                    if let icon = m.icon {
                        try w.entry("icon-data", "(iiibiiay)") { () throws(BusError) in
                            try w.container("r", "iiibiiay") { () throws(BusError) in
                                try w.append(Int32(icon.width)); try w.append(Int32(icon.height)); try w.append(Int32(icon.width * 4))
                                try w.append(true); try w.append(Int32(8)); try w.append(Int32(4))
                                try w.append(bytes: icon.pixels)
                            }
                        }
                    }
                    try w.entry("actions", "as") { () throws(BusError) in
                        try w.append(strings: KRunnerAction.all(favorite: m.result.favorite).map(\.id))
                    }
                }
            }
        },
        decode: { v throws(BusError) in
            guard case .array(let items) = v else { throw Coding.malformed("not an a(sssida{sv})") }
            return items.compactMap { item in
                guard case .structure(let f) = item, f.count == 6, let id = f[0].string.flatMap(UInt32.init) else { return nil }
                let props = f[5].stringDict ?? [:]
                return KRunnerMatch(result: DesktopResult(id: id, name: f[1].string ?? "", description: props["subtext"]?.string ?? "",
                                                          spritePath: "", relevance: f[4].double ?? 0, exact: f[3].int == 100), icon: nil)
            }
        })

    /// `a{sv}`: `MinLetterCount` 2, and the actions.
    public static let krunnerConfig = Codec<Void>(
        "a{sv}",
        write: { w, _ throws(BusError) in
            try w.container("a", "{sv}") { () throws(BusError) in
                try w.entry("MinLetterCount", "i") { () throws(BusError) in try w.append(Int32(2)) }
            }
        },
        decode: { _ throws(BusError) in })
}
