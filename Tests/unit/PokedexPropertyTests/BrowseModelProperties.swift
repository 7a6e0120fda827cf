import CTerminalShims
import PokedexModels
@testable import PokedexTerminal
import PropertyBased
import Testing

/// `pokectl browse` as people use it and as the service answers it: random sequences over the
/// whole event alphabet (every key, the mouse, resizes down to 1×1 and up to 300×100, pages late,
/// twice, out of order or failing, search answers for older queries, favorites changing under
/// the view, the service going and coming back, detail answers for a Pokémon no longer
/// selected), the invariants checked after every event, and every frame drawn.
///
/// A failure prints the seed (`.fixedSeed(…)` replays it) and the sequence shrunk to the fewest
/// steps that still fail. A crash (a trap) prints the sequence it was running on stderr
/// before the process dies (``pokedex_crash_note``).
@Suite struct BrowseModelProperties {
    @Test func everyEventSequenceKeepsTheModelInBoundsAndTheFrameDrawable() async {
        pokedex_install_fatal_handlers()
        await propertyCheck(count: PropertyCounts.sequences, input: BrowseSteps.sequence) { steps in
            pokedex_crash_note("BrowseModelProperties: crashed replaying \(BrowseSteps.literal(steps))")
            let failures = BrowseSteps.run(steps)
            #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
        }
        pokedex_crash_note(nil)
    }

    // MARK: Regression tests: each crash the sequences found, kept by name.

    /// Issue 22: the first page, PageDown three times, then `/` and `c`: the search has no
    /// results yet, the scroll position outlived the list, and ``BrowseModel/visible`` built an
    /// inverted range (`Range requires lowerBound <= upperBound`).
    @Test func scrollThenSearchDoesNotInvertTheVisibleRange() {
        let steps = [BrowseSteps.Step(60, 0, 0, 0)] + Array(repeating: BrowseSteps.Step(0, 5, 0, 0), count: 3)
            + [BrowseSteps.Step(0, 16, 0, 0), BrowseSteps.Step(0, 21, 0, 0)]
        #expect(BrowseSteps.run(steps) == [])
    }

    /// The detail card when the window shrinks to 1×1 (`prefix` of a negative count in
    /// `BrowseView.detail`).
    @Test func theDetailCardAtOneByOneDoesNotTrap() {
        let steps = [BrowseSteps.Step(60, 0, 0, 0), BrowseSteps.Step(0, 8, 0, 0), BrowseSteps.Step(80, 0, 0, 0), BrowseSteps.Step(55, 1, 0, 0)]
        #expect(BrowseSteps.run(steps) == [])
    }

    /// A card open, its moves in, the service gone and back: the card is asked again by name,
    /// and the answer is another Pokémon's; the moves of the first stayed on its card.
    @Test func aCardAskedAgainAfterAnOutageDropsTheMovesOfAnother() {
        let steps = [BrowseSteps.Step(0, 3, 0, 0), BrowseSteps.Step(42, 0, 3, 0), BrowseSteps.Step(80, 3, 0, 0),
                     BrowseSteps.Step(95, 0, 1, 0), BrowseSteps.Step(42, 0, 0, 0), BrowseSteps.Step(80, 0, 0, 0)]
        #expect(BrowseSteps.run(steps) == [])
    }

    /// Issue 22: the grid when the window shrinks below a tile's height (12×3): a tile's label
    /// rows fell below the screen, and `Screen.fill` built an inverted range (BrowseView.swift:167).
    @Test func theGridBelowATilesHeightDoesNotTrap() {
        #expect(BrowseSteps.run([BrowseSteps.Step(60, 0, 0, 0), BrowseSteps.Step(55, 3, 0, 0)]) == [])
    }

    /// A window the terminal says is Int.max × Int.max: the pages wanted overflowed
    /// (`BrowseModel.wants`); the layout is now capped at 1000×500.
    @Test func anAbsurdWindowSizeDoesNotOverflow() {
        #expect(BrowseSteps.run([BrowseSteps.Step(60, 0, 0, 0), BrowseSteps.Step(55, 11, 0, 0)]) == [])
    }

    /// The keys' help at 3×12: a box of negative width, and `Screen.fill` built an inverted range.
    @Test func theHelpAtThreeByTwelveDoesNotTrap() {
        let steps = [BrowseSteps.Step(0, 18, 0, 0), BrowseSteps.Step(55, 2, 0, 0)]
        #expect(BrowseSteps.run(steps) == [])
    }

    /// Favorites dropped one by one while the last of them is selected.
    @Test func droppingTheFavoritesShownKeepsTheSelectionInTheList() {
        let steps = [BrowseSteps.Step(84, 25, 0, 0), BrowseSteps.Step(0, 19, 0, 0), BrowseSteps.Step(0, 7, 0, 0)]
            + (1...25).map { BrowseSteps.Step(87, $0 - 1, 1, 0) }
        #expect(BrowseSteps.run(steps) == [])
    }

    /// A click at a coordinate no screen has (`ESC [ < 0 ; -9223372036854775808 ; 1 M`).
    @Test func aClickAtAnyCoordinateIsHarmless() {
        var m = BrowseModel()
        _ = m.handle(.resized(width: 80, height: 24))
        _ = m.start()
        for x in [Int.min, -1, 0, 79, 80, Int.max] {
            for y in [Int.min, -1, 0, 23, 24, Int.max] {
                _ = m.handle(.input(.mouse(MouseEvent(.press, x: x, y: y))))
            }
        }
        #expect(BrowseSteps.violations(m) == [])
    }
}


#if canImport(Glibc)
import Glibc
#endif
