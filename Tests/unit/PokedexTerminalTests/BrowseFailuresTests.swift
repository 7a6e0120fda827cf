import PokedexModels
@testable import PokedexTerminal
import XCTest

/// What browse says when the service does not answer (issue 56: a frozen service's search said
/// "nothing matches" while the status line said "online").
final class BrowseFailuresTests: XCTestCase {
    func render(_ m: BrowseModel) -> String {
        BrowseView(model: m, mode: .none, art: { _ in nil }, image: { _ in nil }).render().lines.joined(separator: "\n")
    }

    func testASearchWithNoAnswerIsNotASearchThatFoundNothing() {
        var m = BrowseModel()
        _ = m.handle(.resized(width: 80, height: 24))
        _ = m.start()
        for c in "/mewf" { _ = m.handle(.input(.key(.char(c)))) }
        let generation = m.searchGeneration
        _ = m.handle(.searchFailed(generation: generation, "pokedexd did not answer in time"))
        let screen = render(m)
        XCTAssertFalse(screen.contains("nothing matches"), screen)
        XCTAssertTrue(screen.contains("“mewf” could not be searched"), screen)
        XCTAssertTrue(screen.contains("pokedexd did not answer in time"), screen)
        // The service frozen: the status line says so instead of "online", until it runs again.
        _ = m.handle(.service(down: "pokedexd (pid 7) is stopped"))
        XCTAssertTrue(render(m).contains("○ pokedexd (pid 7) is stopped"), render(m))
        _ = m.handle(.service(down: nil))
        XCTAssertTrue(render(m).contains("● online"))
        // The answer to the same query, asked again: results, and the failure gone.
        _ = m.handle(.searchPage(generation: m.searchGeneration, offset: 0, ListPage(total: 0, entries: [])))
        XCTAssertTrue(render(m).contains("nothing matches “mewf”"), render(m))
    }
}
