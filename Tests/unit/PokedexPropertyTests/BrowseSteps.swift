import PokedexModels
@testable import PokedexTerminal
import PropertyBased

/// The event alphabet, and the checks, for ``BrowseModelProperties`` and its regression tests.
enum BrowseSteps {
    /// One step: what kind of event, and three numbers it is made from. Plain numbers, so the
    /// library shrinks them (towards 0, which is the simplest event of each kind) and prints them.
    struct Step: Equatable, Sendable, CustomStringConvertible {
        var kind: Int, a: Int, b: Int, c: Int
        init(_ kind: Int, _ a: Int, _ b: Int, _ c: Int) { (self.kind, self.a, self.b, self.c) = (kind, a, b, c) }
        var description: String { "(\(kind),\(a),\(b),\(c))" }
    }

    static let step = zip(Gen.int(in: 0...99), Gen.int(in: 0...1000), Gen.int(in: 0...1000), Gen.int(in: 0...7))
        .map { Step($0, $1, $2, $3) }
    static let sequence = step.array(of: 0...32)

    /// A sequence as Swift source, to paste into a regression test.
    static func literal(_ steps: [Step]) -> String {
        "[" + steps.map { "BrowseSteps.Step(\($0.kind), \($0.a), \($0.b), \($0.c))" }.joined(separator: ", ") + "]"
    }

    static let keys: [Key] = [
        .up, .down, .left, .right, .pageUp, .pageDown, .home, .end, .enter, .escape, .backspace, .tab, .delete,
        .char("h"), .char("j"), .char("k"), .char("/"), .char("f"), .char("?"), .char("F"), .char("l"), .char("c"),
        .char("g"), .char("G"), .char("q"), .char("a"), .char("z"), .char("é"), .char("😀"), .char("中"), .char(" "),
        .char("1"), .char(":"), .control("c"), .control("z"), .char("\u{301}"),
        // Added later, at the end: the recorded sequences keep their keys.
        .backTab, .char("b"),
    ]

    static let sizes: [(Int, Int)] = [
        (80, 24), (1, 1), (3, 12), (12, 3), (300, 100), (100, 32), (28, 9), (14, 9), (13, 8), (0, 0), (-5, 7),
        (Int.max, Int.max), (Int.min, 2), (2, 200), (1000, 1), (42, 17),
    ]

    static let totals = [1351, 0, 1, 19, 20, 21, 45, 200]

    static func entry(_ id: Int, favorite: Bool = false) -> ListEntry {
        let names = ["mr-mime", "nidoran-f", "Ｐｉｋａ\u{202E}chu", "flabébé", "a\u{301}\u{301}\u{301}", "type-null", "😀😀😀😀😀😀😀"]
        let name = id % 11 == 0 ? names[(id % names.count + names.count) % names.count] : "mon-\(id)"
        return ListEntry(id: UInt32(truncatingIfNeeded: id), name: name,
                         spritePath: id % 3 == 0 ? "" : "/cache/\(id)\(id % 2 == 0 ? "a" : "b").png", favorite: favorite)
    }

    static func detail(_ id: Int, name: String) -> PokemonDetail {
        var d = PokemonDetail(id: UInt32(truncatingIfNeeded: id), name: name, height: UInt32(id % 30), weight: UInt32(id * 7 % 9999),
                              types: id % 2 == 0 ? ["grass", "poison"] : ["fire"], abilities: ["overgrow"],
                              stats: [PokemonRecord.Stat(name: "hp", value: UInt32(id % 255))], spritePath: id % 2 == 0 ? "/cache/d.png" : "",
                              favorite: id % 3 == 0, genus: "Seed Pokémon", flavorText: String(repeating: "words and more words ", count: id % 9))
        d.evolution = family(id)
        d.matchups = id % 4 == 0 ? [] : [TypeMatchup(type: "water", typeName: "Water", multiplier: 2),
                                        TypeMatchup(type: "grass", typeName: "Gräs\u{301}", multiplier: 0.25)]
        return d
    }

    /// A family for Pokémon `id`: none, a line it is in, a tree of nine (Eevee's), one it is
    /// not in, or one with hostile names and long conditions.
    static func family(_ id: Int) -> [EvolutionMember] {
        let i = UInt32(truncatingIfNeeded: id)
        func m(_ id: UInt32, _ from: UInt32, _ name: String, _ trigger: String) -> EvolutionMember {
            EvolutionMember(id: id, name: "mon-\(id)", displayName: name, from: from, triggerKind: from == 0 ? "" : "level-up", trigger: trigger)
        }
        switch id % 5 {
        case 0: return []
        case 1: return [m(i &+ 1, 0, "First", ""), m(i, i &+ 1, "Middle", "Level 16"), m(i &+ 2, i, "Last", "Use a Fire Stone")]
        case 2: return [m(i, 0, "Eevee", "")] + (1...8).map { m(i &+ UInt32($0), i, "Branch \($0)", "High friendship, knowing a Fairy move") }
        case 3: return [m(i &+ 10, 0, "Other", ""), m(i &+ 11, i &+ 10, "Another", "Trade")]
        default:
            return [m(i, 0, "😀😀😀😀😀😀😀😀😀😀😀😀", ""), m(i &+ 1, i, "\u{1B}[2Jmon", String(repeating: "ｗｉｄｅ ", count: 40)),
                    m(i &+ 2, i &+ 99, "orphan", "special")]
        }
    }

    /// The event a step stands for, given the model it meets (a search answer names the
    /// latest generation or an older one; a detail the selected Pokémon or another).
    static func event(_ s: Step, _ m: BrowseModel) -> BrowseEvent {
        switch s.kind {
        case 0..<40, 97...99:
            return .input(.key(keys[s.a % keys.count]))
        case 40..<42:
            // A retry that comes due: for a page that failed, or one the model never asked for.
            return .pageDue(offset: s.b % 9 == 8 ? [-20, 7, Int.max, Int.min][s.a % 4] : (s.a % 70) * BrowseModel.pageSize)
        case 42..<44:
            // The service goes away (its name lost its owner) and comes back.
            return .service(down: s.b % 2 == 0 ? nil : "pokedexd stopped; waiting for it to come back")
        case 44:
            // A further page of results: where the model asked, at 0, or somewhere it did not.
            let have = m.results?.count ?? 0
            let offset = [have, 0, have + 7, -1][s.b % 4]
            let total = UInt32(clamping: have + s.a % 150)
            let generation = s.c % 4 == 0 ? m.searchGeneration - 1 : m.searchGeneration
            return .searchPage(generation: generation, offset: offset,
                               ListPage(total: total, entries: (0..<(s.a % 25)).map { entry(have + $0 * 3 + 1) }))
        case 45..<50:
            let coordinates = [0, -1, 1, 5, 15, 30, 79, 299, Int.max, Int.min]
            return .input(.mouse(MouseEvent([.press, .wheelDown, .wheelUp, .release, .other][s.c % 5],
                                            x: s.c >= 6 ? coordinates[s.a % coordinates.count] : s.a % 120 - 5,
                                            y: s.c >= 6 ? coordinates[s.b % coordinates.count] : s.b % 40 - 2)))
        case 50..<55:
            return .resized(width: s.a % 170 - 4, height: s.b % 60 - 4)
        case 55..<60:
            let (w, h) = sizes[s.a % sizes.count]
            return .resized(width: w, height: h)
        case 60..<70:
            let total = totals[s.c % totals.count]
            var offset = (s.a % 70) * BrowseModel.pageSize
            if s.b % 17 == 16 { offset = [-20, 7, Int.max, Int.min, 1_000_000_000_000][s.a % 5] }
            let count = max(0, min(BrowseModel.pageSize, total - max(0, offset)))
            let entries = (0..<(s.b % 13 == 12 ? count + 30 : count)).map { entry(max(0, offset) &+ $0 &+ 1) }
            return .page(offset: offset, ListPage(total: UInt32(total), entries: entries))
        case 70..<72:
            return .pageFailed(offset: (s.a % 70) * BrowseModel.pageSize, "list is not available (network down)")
        case 72..<75:
            return .searchDue(generation: s.b % 3 == 0 ? s.a % 30 : m.searchGeneration)
        case 75..<79:
            let generation = s.b % 3 == 0 ? m.searchGeneration - 1 - s.a % 3 : m.searchGeneration
            // The whole answer in one page (all that match: nothing more to ask).
            let entries = (0..<(s.a % 40)).map { entry($0 * 7 + s.c + 1) }
            return .searchPage(generation: generation, offset: 0, ListPage(total: UInt32(entries.count), entries: entries))
        case 79:
            return .searchFailed(generation: m.searchGeneration - s.b % 2, "search failed")
        case 80..<83:
            let name = s.b % 2 == 0 ? (m.entry(m.selected)?.name ?? m.detailLoading ?? "mon-1") : "mon-\(s.a)"
            return .detail(detail(s.a, name: name))
        case 83:
            return .detailFailed("no Pokémon named that")
        case 84..<87:
            return .favorites((0..<(s.a % 30)).map { entry($0 + 1, favorite: true) })
        case 87..<90:
            let id = s.a % 60 + 1
            return .favoriteChanged(id: UInt32(id), name: entry(id).name, favorite: s.b % 2 == 0)
        case 90..<92:
            return .online(s.b % 2 == 0)
        case 92..<95:
            return .sprite(id: UInt32(s.a % 60 + 1), path: s.b % 4 == 0 ? "" : "/cache/\(s.a)a.png")
        case 95..<97:
            // The moves of the card shown, or of one left since (a late answer).
            let id = s.b % 3 == 0 ? UInt32(s.a % 60 + 1) : m.detail?.id ?? UInt32(s.a % 60 + 1)
            let long = String(repeating: "ド", count: s.a % 40)
            let rows = (0..<(s.c % 120)).map { (n: Int) -> MoveRow in movesRow(n, long: long) }
            return .moves(MoveTable(id: id, pokemon: "mon-\(id)", game: "scarlet-violet", gameName: "Scarlet/Violet",
                                    games: ["scarlet-violet"], language: "en", rows: rows))
        case 97:
            return .movesFailed(name: m.detail?.name ?? "mon-1", s.b % 2 == 0 ? "" : "moves are not available (network down)")
        default:
            return .failed(s.b % 2 == 0 ? "" : "could not save the favorite: disk full")
        }
    }

    /// A move of a random card's list: every way, a level up to 100, a name as long as `long` now and then.
    static func movesRow(_ n: Int, long: String) -> MoveRow {
        let name: String = n % 7 == 0 ? long : "Move \(n)"
        let power: UInt16? = n % 3 == 0 ? nil : UInt16(n)
        return MoveRow(method: Learnset.Method.allCases[n % 4], level: UInt8(n % 101), id: UInt32(n + 1), move: "move-\(n)", name: name,
                       type: "electric", typeName: "Electric", category: "special", categoryName: "Special", power: power, accuracy: 100, pp: 15)
    }

    static let art = TileArt(lines: ["\u{1B}[38;2;200;0;0m▀▄▀\u{1B}[0m", "█ █"], tint: RGB(0x40, 0x80, 0xC0))

    /// Runs `steps` from a started model (as the loop does: a size, then start), checking the
    /// invariants and drawing the frame after each: the broken invariants, with the step.
    static func run(_ steps: [Step]) -> [String] {
        // As the desktop's search starts it too, now and then: on a card (`--open`), with or
        // without a search behind it.
        let start = steps.first?.a ?? 0
        var m = start % 4 == 3 ? BrowseModel(open: String(start % 40 + 1)) : start % 4 == 2 ? BrowseModel(query: "char", open: "6") : BrowseModel()
        _ = m.handle(.resized(width: 80, height: 24))
        _ = m.start()
        let pictures: [BrowseView.Pictures] = [.none, .layered, .painted]
        let picture = pictures[(steps.first?.c ?? 0) % 3]
        let mode: ColorMode = (steps.first?.b ?? 0) % 2 == 0 ? .truecolor : .none
        for (n, s) in steps.enumerated() {
            let e = event(s, m)
            let effects = m.handle(e)
            var broken = violations(m)
            broken += effectViolations(effects, m)
            let view = BrowseView.settle(&m) { BrowseView(model: $0, mode: mode, art: { $0.hasSuffix("a.png") ? art : nil }, image: { _ in nil }, pictures: picture) }
            broken += violations(m)
            let screen = view.render()
            broken += frameViolations(screen, view.placements(), m)
            if !broken.isEmpty { return broken.map { "step \(n) \(s) = \(e): \($0)" } }
        }
        return []
    }

    /// The model's own invariants.
    static func violations(_ m: BrowseModel) -> [String] {
        var out: [String] = []
        if let t = m.moves, t.id != m.detail?.id { out.append("the moves of #\(t.id) kept on the card of \(m.detail?.name ?? "none")") }
        let count = m.count, columns = m.layout.columns, rows = m.layout.rows
        if count < 0 { out.append("count \(count) < 0") }
        if count == 0 ? m.selected != 0 : !(0..<count).contains(m.selected) { out.append("selected \(m.selected) outside 0..<\(count)") }
        let lastRow = count == 0 ? 0 : (count - 1) / columns
        if m.top < 0 || m.top > lastRow { out.append("top \(m.top) outside 0...\(lastRow)") }
        // `visible` is computed here without building a Range first, so that a broken one is
        // reported (with the seed) instead of trapping.
        let first = m.top.multipliedReportingOverflow(by: columns)
        if first.overflow || first.partialValue > count { out.append("visible starts at \(first.partialValue), past \(count)") }
        if out.isEmpty {
            let v = m.visible
            if v.upperBound > count || v.count > rows * columns { out.append("visible \(v) of \(count)") }
            if count > 0, m.mode != .detail, !v.contains(m.selected) { out.append("selected \(m.selected) not on screen \(v)") }
        }
        if m.layout.width < 1 || m.layout.height < 1 || m.layout.width > BrowseLayout.maxWidth || m.layout.height > BrowseLayout.maxHeight {
            out.append("layout \(m.layout.width)×\(m.layout.height)")
        }
        if m.onCard, m.detail == nil, m.detailLoading == nil { out.append("detail mode with nothing shown or coming") }
        if let s = m.familySelection {
            if !m.onCard || m.detail == nil { out.append("a family member picked with no card shown") }
            if let d = m.detail, !(0..<d.evolution.count).contains(s) { out.append("family member \(s) of \(d.evolution.count)") }
        } else if m.onCard, let d = m.detail, d.evolution.count > 1 {
            out.append("a card with a family and no member picked")
        }
        if !m.onCard, !m.cardHistory.isEmpty { out.append("cards to go back to, on the grid") }
        if let e = m.cardExtent, !(0...e.maxScroll).contains(m.cardScroll) { out.append("card scrolled to \(m.cardScroll) of 0...\(e.maxScroll)") }
        if m.cardExtent == nil, m.cardScroll != 0 { out.append("card scrolled to \(m.cardScroll), never measured") }
        if m.cardHistory.count > BrowseModel.maxCardHistory { out.append("\(m.cardHistory.count) cards to go back to") }
        if case .search(let q) = m.source, q.isEmpty { out.append("a search for nothing") }
        return out
    }

    /// What the model asks: nothing before start, every page once, at offsets it keeps.
    static func effectViolations(_ effects: [BrowseEffect], _ m: BrowseModel) -> [String] {
        var out: [String] = []
        var pages: Set<Int> = []
        for e in effects {
            if case .loadPage(let offset) = e {
                if offset < 0 || offset % BrowseModel.pageSize != 0 { out.append("asked for page at \(offset)") }
                if !pages.insert(offset).inserted { out.append("asked for page \(offset) twice at once") }
            }
            if case .retryPage(let offset, let after) = e {
                if offset < 0 || offset % BrowseModel.pageSize != 0 { out.append("a retry for page at \(offset)") }
                if !(after >= 1 && after <= 30) { out.append("a retry after \(after) s, not 1…30") }
            }
            if case .loadMoves(let name) = e, !m.onCard || m.detail?.name != name { out.append("asked for the moves of \(name) off its card") }
            if case .searchMore(let q, _, let offset) = e {
                if q.isEmpty || offset < 0 { out.append("more results for \"\(q)\" from \(offset)") }
                if let r = m.results, offset != r.count { out.append("more results from \(offset), with \(r.count) shown") }
            }
        }
        return out
    }

    static func row(_ s: Screen, _ y: Int) -> String {
        var line = ""
        for x in 0..<s.width { line += s.cells[y * s.width + x].text }
        return line
    }

    /// The frame: the terminal's size, pictures inside the screen above the status line, and
    /// the status line true to the state.
    static func frameViolations(_ s: Screen, _ placements: [BrowseView.Placement], _ m: BrowseModel) -> [String] {
        var out: [String] = []
        if s.width != m.layout.width || s.height != m.layout.height || s.cells.count != s.width * s.height {
            out.append("frame \(s.width)×\(s.height) for layout \(m.layout.width)×\(m.layout.height)")
        }
        for p in placements where p.x < 0 || p.y < BrowseLayout.gridTop || p.x + p.columns > s.width || p.y + p.rows > s.height - 1 {
            out.append("placement \(p) outside \(s.width)×\(s.height)")
        }
        if (m.mode == .detail || m.mode == .help), !placements.isEmpty { out.append("pictures over the \(m.mode)") }
        // The status line, where it has room: the position and whether the service is there.
        guard s.width >= 60, s.height >= 2 else { return out }
        let status = row(s, s.height - 1)
        if !m.onCard {
            let v = m.visible
            let position = m.count == 0 ? "0 of 0" : "\(v.lowerBound + 1)–\(max(v.lowerBound + 1, v.upperBound)) of \(m.count)"
            if !status.contains(position) { out.append("status \"\(status)\" does not say \(position)") }
        }
        // The service's own state first: gone (its name has no owner), else online or offline.
        let says = m.serviceDown != nil ? "○ pokedexd" : m.online ? "● online" : "● offline"
        if !status.contains(says) { out.append("status \"\(status)\" does not say \(says)") }
        if m.mode == .grid, m.source == .all, let total = m.total, !row(s, 0).contains("all \(total)") {
            out.append("title \"\(row(s, 0))\" does not say all \(total)")
        }
        return out
    }
}
