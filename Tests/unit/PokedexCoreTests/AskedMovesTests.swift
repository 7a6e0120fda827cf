import XCTest
@testable import PokedexCore

/// A sync's record of the moves it asked for (issue 58: bits rather than a set built per
/// Pokémon): it answers as a set would, for ids at the bits' edges and past them.
final class AskedMovesTests: XCTestCase {
    func testItAnswersAsASetWould() {
        var rng = SplitMix64(seed: 58)
        let edges: [UInt32] = [0, 1, 63, 64, 65, 919, 10001, 10018, 16383, 16384, 16385, 65535, .max - 1, .max]
        for round in 0..<20 {
            var asked = AskedMoves(), set = Set<UInt32>()
            for _ in 0..<2000 {
                let id = Bool.random(using: &rng) ? edges.randomElement(using: &rng)! : UInt32.random(in: 0...20000, using: &rng)
                XCTAssertEqual(asked.insert(id), set.insert(id).inserted, "round \(round): id \(id)")
            }
        }
    }
}
