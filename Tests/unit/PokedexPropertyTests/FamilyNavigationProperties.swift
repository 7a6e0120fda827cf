import PokedexModels
@testable import PokedexTerminal
import PropertyBased
import Testing

/// Moving through a card's family as the apps do: ← → pick a member, Enter opens its card,
/// Esc comes back card by card, then to the grid. Random key sequences, the service answering
/// each card asked for now or a few keys later; after every key the model must say which card
/// is shown and how to get back. A failure prints its seed and the shrunk sequence.
@Suite struct FamilyNavigationProperties {
    /// A key (← → Enter Esc Backspace h), and whether the card asked for arrives before it.
    static let steps = zip(Gen.int(in: 0...5), Gen.int(in: 0...3)).array(of: 0...40)

    /// The card of `name` ("charizard" or an id), in Charmander's family.
    static func card(_ name: String) -> PokemonDetail {
        let id = UInt32(name) ?? 6
        var d = BrowseSteps.detail(Int(id), name: id == 6 ? "charizard" : "mon-\(id)")
        d.evolution = [UInt32(4), 5, 6].map {
            EvolutionMember(id: $0, name: $0 == 6 ? "charizard" : "mon-\($0)", displayName: "M\($0)", from: $0 == 4 ? 0 : $0 - 1,
                            triggerKind: "level-up", trigger: "Level \($0)")
        }
        return d
    }

    @Test func enterAndEscWalkTheFamilyAndComeBackTheWayTheyWent() async {
        await propertyCheck(count: PropertyCounts.sequences, input: Self.steps) { steps in
            var m = BrowseModel(open: "charizard")
            _ = m.handle(.resized(width: 80, height: 24))
            _ = m.start()
            // The cards a person expects to come back through, newest last.
            var expected: [String] = []
            var pending: String? = "charizard"
            for (key, service) in steps {
                if let p = pending, service != 0 {
                    _ = m.handle(.detail(Self.card(p)))
                    pending = nil
                    #expect(m.familySelection == m.detail?.ownFamilyIndex, "a card opens on its own member")
                }
                let k: Key = [.left, .right, .enter, .escape, .backspace, .char("h")][key]
                let shown = m.detail, picked = m.familySelection
                let effects = m.handle(.input(.key(k)))
                let loads = effects.compactMap { e -> String? in if case .loadDetail(let n) = e { return n } else { return nil } }
                #expect(loads.count <= 1)
                if let name = loads.first {
                    if k == .enter, let shown, let picked {
                        #expect(name == String(shown.evolution[picked].id), "Enter opens the member picked")
                        #expect(picked != shown.ownFamilyIndex, "not the card already shown")
                        expected.append(shown.name)
                    } else {
                        #expect(k != .enter)
                        #expect(name == expected.popLast(), "Esc goes back to the card it came from")
                    }
                    pending = name
                } else if k != .enter, k != .right, !(k == .left && picked != nil) {
                    #expect(m.mode == .grid && expected.isEmpty, "with no card to go back to, back to the grid")
                }
                #expect(m.cardHistory == expected, "\(m.cardHistory) != \(expected)")
                if let s = m.familySelection, let d = m.detail { #expect(d.evolution.indices.contains(s)) }
                if m.mode == .grid { break }
            }
        }
    }
}
