import PokedexModels

// MARK: Keys and the mouse

/// What a key or a click does, by mode: moving the selection, typing a search, opening a card.
extension BrowseModel {
    mutating func input(_ input: InputEvent) -> [BrowseEffect] {
        switch (mode, input) {
        case (_, .key(.control("c"))):
            return [.quit]
        case (.help, .key), (.help, .mouse):
            mode = helpOpenedFrom
        case (.searching, .key(let key)):
            return typing(key)
        case (.detail, .key(let key)):
            return cardKey(key)
        case (.detail, .mouse(let m)):
            return cardMouse(m)
        case (.grid, .key(let key)):
            return gridKey(key)
        case (.grid, .mouse(let m)), (.searching, .mouse(let m)):
            return mouse(m)
        default:
            break
        }
        return []
    }

    /// `s`: the cries on or off, remembered; turned on over a card, it plays that card's.
    mutating func toggleSound() -> [BrowseEffect] {
        soundOn.toggle()
        // Said where nothing else shows it: a card's hints show the key's new meaning.
        if !onCard { notice = .sound(on: soundOn) }
        var out: [BrowseEffect] = [.soundChanged(on: soundOn)]
        if soundOn, mode == .detail, let d = detail { out.append(.playCry(name: d.name)) }
        return out
    }

    mutating func gridKey(_ key: Key) -> [BrowseEffect] {
        let columns = layout.columns
        switch key {
        case .left, .char("h"): move(by: -1)
        case .right, .char("l"): move(by: 1)
        case .up, .char("k"): move(by: -columns)
        case .down, .char("j"): move(by: columns)
        case .pageUp: move(by: -columns * layout.rows)
        case .pageDown: move(by: columns * layout.rows)
        case .home, .char("g"): select(0)
        case .end, .char("G"): select(count - 1)
        case .enter: return open()
        case .char("/"):
            mode = .searching
        case .char("f"):
            if let e = entry(selected) { return [.toggleFavorite(name: e.name)] }
        case .char("F"):
            if source == .favorites { showAll() } else {
                source = .favorites
                selected = 0
                top = 0
                return [.loadFavorites]
            }
        case .char("?"): showHelp()
        case .char("s"): return toggleSound()
        case .escape:
            if source != .all { showAll() }
        case .char("q"): return [.quit]
        default: break
        }
        return []
    }

    /// The search line has the keyboard: results follow the text as it is typed.
    mutating func typing(_ key: Key) -> [BrowseEffect] {
        switch key {
        case .escape:
            mode = .grid
            showAll()
            return []
        case .enter:
            mode = .grid
            return []
        case .backspace:
            guard !query.isEmpty else { return [] }
            query.removeLast()
        case .char(let c):
            guard query.utf8.count < 64 else { return [] }
            query.append(c)
        default:
            return []
        }
        searchGeneration += 1
        searchFailed = false
        if query.isEmpty {
            source = .all
            results = nil
        resultsTotal = nil
        resultsAsked = nil
            selected = 0
            top = 0
            return []
        }
        source = .search(query)
        return [.scheduleSearch(generation: searchGeneration, after: Self.searchDebounce)]
    }

    mutating func mouse(_ m: MouseEvent) -> [BrowseEffect] {
        switch m.kind {
        case .wheelUp: move(by: -layout.columns)
        case .wheelDown: move(by: layout.columns)
        case .press:
            guard let index = layout.index(atX: m.x, y: m.y, top: top), index < count else { return [] }
            if mode == .searching { mode = .grid }
            if index == selected { return open() }  // a tap on the selected tile opens it
            select(index)
        default: break
        }
        return []
    }

    mutating func open() -> [BrowseEffect] {
        guard let e = entry(selected) else { return [] }
        mode = .detail
        cardHistory = []
        return showCard(e.name)
    }

    mutating func showAll() {
        searchFailed = false
        source = .all
        query = ""
        results = nil
        resultsTotal = nil
        resultsAsked = nil
        searchGeneration += 1
        selected = 0
        top = 0
    }

    mutating func move(by delta: Int) {
        guard count > 0 else { return }
        select(min(max(0, selected + delta), count - 1))
    }

    mutating func select(_ index: Int) {
        guard count > 0 else { return }
        selected = min(max(0, index), count - 1)
        reveal()
    }

    /// Scrolls so that the selected tile is on screen.
    mutating func reveal() {
        let row = selected / layout.columns
        if row < top { top = row }
        if row >= top + layout.rows { top = row - layout.rows + 1 }
        top = max(0, top)
    }
}
