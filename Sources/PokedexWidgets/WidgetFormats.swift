import PokedexModels

/// The bars and desktops a widget prints for, each with its own markup. Text from the service
/// is data, never markup: each format escapes it for its reader (``UntrustedText``).
public enum WidgetFormat: String, CaseIterable, Sendable {
    /// One JSON line for a Waybar custom module (`"return-type": "json"`).
    case waybar
    /// One line of Polybar's format tags: `%{F#rrggbb}●%{F-} Name`.
    case polybar
    /// conky's text (it parses `${…}`): the favorite's sprite, name, genus and types, then every
    /// favorite, wrapped.
    case conky

    /// The widget's text for `content`, in `words`. Waybar and Polybar print one line; conky
    /// several, within `width` characters a line and `limit` bytes in all.
    public func render(_ content: WidgetContent, _ words: Words, width: Int = 40, limit: Int = 4000) -> String {
        switch self {
        case .waybar: return Self.waybar(content, words)
        case .polybar: return Self.polybar(content, words)
        case .conky: return ConkyText(width: width, limit: limit).render(content, words)
        }
    }

    /// The words a widget shows when there is no favorite to show.
    static func headline(_ content: WidgetContent, _ words: Words) -> (text: String, tooltip: String)? {
        switch content {
        case .unavailable(let why): return (words.tr("Pokédex unavailable"), why)
        case .empty: return (words.tr("no favorites yet"), words.tr("add one with 'pokectl fav NAME'"))
        case .favorite: return nil
        }
    }

    /// "#133 Evoli · Evolutions-Pokémon · Normal", or offline without the record
    /// "#149 Dragoran · details when the network is back".
    static func summary(_ f: WidgetFavorite, _ words: Words) -> String {
        let parts = f.hasDetail ? [f.genus, f.typeNames.joined(separator: " / ")] : [words.tr("details when the network is back")]
        return (["\(PokedexNumber.label(f.id)) \(f.name)"] + parts.filter { !$0.isEmpty }).joined(separator: " · ")
    }

    static func waybar(_ content: WidgetContent, _ words: Words) -> String {
        let markup = UntrustedText.markup
        guard case .favorite(let f, _) = content else {
            let (text, tooltip) = headline(content, words)!
            let cls = if case .empty = content { "empty" } else { "unavailable" }
            return JSON.object([("class", .string(cls)), ("text", .string(markup(text))), ("tooltip", .string(markup(tooltip)))]).text
        }
        let dot = f.color.isEmpty ? "" : "<span color=\"\(f.color)\">●</span> "
        let classes = ["favorite"] + f.types.map { UntrustedText.terminal($0) }
        return JSON.object([
            ("alt", .string(markup(f.identifier))),
            ("animated_sprite_path", .string(f.animatedSpritePath)),
            ("class", .array(classes.map(JSON.string))),
            ("color", .string(f.color)),
            ("sprite_path", .string(f.spritePath)),
            ("text", .string(dot + markup(f.name))),
            ("tooltip", .string(markup(summary(f, words)))),
        ]).text
    }

    /// The grey of a bar's text that is no favorite ("Pokédex unavailable", "no favorites yet").
    static let dimmed = "#808080"

    static func polybar(_ content: WidgetContent, _ words: Words) -> String {
        // Dimmed, as conky's grey and Waybar's classes show it.
        guard case .favorite(let f, _) = content else { return "%{F\(dimmed)}" + UntrustedText.polybar(headline(content, words)!.text) + "%{F-}" }
        let name = UntrustedText.polybar(f.name)
        return f.color.isEmpty ? "● \(name)" : "%{F\(f.color)}●%{F-} \(name)"
    }
}

/// conky's text: a card for the favorite shown, then every favorite, newest first, wrapped to
/// `width` columns (a CJK letter is two) and cut to `limit` bytes ("and 12 more"), so the window keeps its size
/// and conky's text buffer holds it all.
struct ConkyText {
    var width: Int
    var limit: Int

    func render(_ content: WidgetContent, _ words: Words) -> String {
        let conky = UntrustedText.conky
        guard case .favorite(let f, let all) = content else {
            return "${color grey}\(conky(WidgetFormat.headline(content, words)!.text))${color}\n"
        }
        var card = ""
        // A path with a space, $, { or } would end ${image} early: no picture then.
        if !f.spritePath.isEmpty, !f.spritePath.contains(where: { " ${}#\\".contains($0) }) {
            // Five lines under the 64-pixel picture: enough in the smaller lines of a CJK font too.
            card += "${image \(f.spritePath) -p 0,0 -s 64x64}\n\n\n\n\n"
        }
        let color = f.color.isEmpty ? "white" : f.color
        card += "${color \(color)}${font :bold:size=12}\(conky(f.name))${font}${color} \\\(PokedexNumber.label(f.id))\n"
        let about = f.hasDetail ? [f.genus, f.typeNames.joined(separator: " / ")].filter { !$0.isEmpty }.joined(separator: " · ")
            : words.tr("details when the network is back")
        if !about.isEmpty { card += conky(about) + "\n" }
        let heading = "${color grey}" + conky(words.trn("%s favorite:", "%s favorites:", all.count)) + "${color}\n"
        return card + heading + list(all, words, room: limit - card.utf8.count - heading.utf8.count)
    }

    /// The names, joined by ", " and wrapped at `width`; if they do not fit in `room` bytes, as
    /// many as fit and "and N more".
    func list(_ names: [String], _ words: Words, room: Int) -> String {
        let width = max(width, 10)
        var lines: [String] = []
        var line = ""
        var used = 0
        for (i, raw) in names.enumerated() {
            let name = UntrustedText.conky(raw) + (i < names.count - 1 ? "," : "")
            let more = conkyMore(names.count - i, words)
            let cost = name.utf8.count + 1
            // Room for this name, and for "and N more" after it unless it is the last.
            if used + cost + (i < names.count - 1 ? more.utf8.count + 2 : 0) > room {
                lines.append(line)
                lines.append(more)
                return lines.filter { !$0.isEmpty }.joined(separator: "\n") + "\n"
            }
            // In columns: a CJK letter is two, as wide as two Latin ones in conky's font.
            if !line.isEmpty, TextWidth.columns(line) + 1 + TextWidth.columns(name) > width {
                lines.append(line)
                line = ""
            }
            line += (line.isEmpty ? "" : " ") + name
            used += cost
        }
        lines.append(line)
        return lines.filter { !$0.isEmpty }.joined(separator: "\n") + "\n"
    }

    func conkyMore(_ n: Int, _ words: Words) -> String {
        "${color grey}" + UntrustedText.conky(words.trn("and %s more", "and %s more", n)) + "${color}"
    }
}
