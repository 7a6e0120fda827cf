import PokedexModels

/// A move list as the games show it, in columns (level, move, type, category, power, accuracy,
/// PP), fitted to a width: `pokectl moves` and browse's Moves page. Where the columns do not
/// fit, the least needed go first (category, accuracy, type, PP, power), then names are cut.
public enum MoveColumns {
    /// A way's heading, as the games' lists name it.
    public static func heading(_ method: Learnset.Method, _ w: Words) -> String {
        switch method {
        case .levelUp: return w.tr("By level-up")
        case .machine: return w.tr("From TMs")
        case .egg: return w.tr("Egg moves")
        case .tutor: return w.tr("From tutors")
        }
    }

    /// The header and one line a move (texts made safe for the terminal), each at most `width` columns.
    public static func lines(_ rows: [MoveRow], words w: Words, width: Int) -> [String] {
        let levelUp = rows.first?.method == .levelUp
        let safe = UntrustedText.terminal
        func number(_ v: (some BinaryInteger)?) -> String { v.map { String($0) } ?? "—" }
        enum Column: Int { case level, move, type, category, power, accuracy, pp }
        var columns: [(Column, [String])] = []
        if levelUp {
            // TRANSLATORS: the level column's heading, and a move learnt on evolving instead of at a level.
            columns.append((.level, [w.tr("Lv.")] + rows.map { $0.level == 0 ? w.tr("Evo.") : String($0.level) }))
        }
        columns.append((.move, [w.tr("Move")] + rows.map { safe($0.name) }))
        columns.append((.type, [w.tr("Type")] + rows.map { safe($0.typeName) }))
        columns.append((.category, [w.tr("Category")] + rows.map { safe($0.categoryName) }))
        // TRANSLATORS: the move table's headings for power, accuracy and PP, as short as the games'.
        columns.append((.power, TerminalText.rightAligned([w.tr("Power")] + rows.map { number($0.power) })))
        columns.append((.accuracy, TerminalText.rightAligned([w.tr("Acc.")] + rows.map { number($0.accuracy) })))
        columns.append((.pp, TerminalText.rightAligned([w.tr("PP")] + rows.map { number($0.pp) })))
        // Typed steps, not one expression: Swift 6.0 spent 45 s type-checking the sum in one.
        func widest(_ cells: [String]) -> Int { cells.map(TerminalText.width).max() ?? 0 }
        func total(_ cs: [(Column, [String])]) -> Int {
            let cells: Int = cs.map { widest($0.1) }.reduce(0, +)
            return cells + 2 * max(0, cs.count - 1)
        }
        for dropped in [Column.category, .accuracy, .type, .pp, .power] where total(columns) > width {
            columns.removeAll { $0.0 == dropped }
        }
        let widths = columns.map { widest($0.1) }
        return (0...rows.count).map { r in
            let line = columns.indices.map { c in
                let cell = columns[c].1[r]
                return c == columns.count - 1 ? cell : TerminalText.pad(cell, to: widths[c])
            }.joined(separator: "  ")
            return TerminalText.truncate(line, to: width)
        }
    }
}
