import Foundation
import PokedexModels
import XCTest
@testable import PokedexCore

/// What the core does itself now that it imports FoundationEssentials: white space trimmed as
/// Foundation trimmed it, and paths split as dirname and basename split them.
final class TextAndPathTests: XCTestCase {
    func testTrimmingWhitespaceAgreesWithFoundation() {
        let cases = ["", " ", "  pika  ", "\t#25\n", "\u{3000}ピカチュウ\u{3000}", "\u{A0}No. 25\u{2009}", "a b", "\r\n", "mr. mime "]
        for text in cases {
            XCTAssertEqual(String(text.trimmingWhitespace()), text.trimmingCharacters(in: .whitespacesAndNewlines), "\(text.debugDescription)")
        }
        // Seeded random strings of letters, marks and every kind of space at either end
        // (POKEDEX_TRIM_SEED replays one run).
        let seed = UInt64(ProcessInfo.processInfo.environment["POKEDEX_TRIM_SEED"] ?? "") ?? 2311
        var rng = SplitMix64(seed: seed)
        let alphabet: [Character] = [" ", "\t", "\n", "\r", "\u{A0}", "\u{2003}", "\u{3000}", "\u{85}", "\u{2028}", "a", "é", "ア", "-", ".", "e\u{301}"]
        for _ in 0..<5_000 {
            let text = String((0..<Int.random(in: 0...8, using: &rng)).map { _ in alphabet.randomElement(using: &rng)! })
            XCTAssertEqual(String(text.trimmingWhitespace()), text.trimmingCharacters(in: .whitespacesAndNewlines),
                           "\(text.debugDescription) (POKEDEX_TRIM_SEED=\(seed))")
        }
    }

    func testSplitPathAsDirnameAndBasename() {
        let cases: [(String, String, String)] = [
            ("/home/ash/.local/share/pokedex/favorites.json", "/home/ash/.local/share/pokedex", "favorites.json"),
            ("/favorites.json", "/", "favorites.json"),
            ("favorites.json", ".", "favorites.json"),
            ("/a//b", "/a", "b"),
            ("/a/b/", "/a", "b"),
            ("rel/dir/file", "rel/dir", "file"),
        ]
        for (path, directory, name) in cases {
            let split = FileIO.splitPath(path)
            XCTAssertEqual(split.directory, directory, path)
            XCTAssertEqual(split.name, name, path)
        }
    }

    func testCacheControlAroundWhiteSpace() {
        XCTAssertEqual(CacheControl.maxAge(" \tpublic ,  max-age = 60"), nil)  // "max-age " is not max-age
        XCTAssertEqual(CacheControl.maxAge("public,\tmax-age=60\t"), 60)
        XCTAssertEqual(CacheControl.maxAge("max-age=\u{3000}60"), 60)
    }
}
