import PokedexModels
@testable import PokedexWidgets
import XCTest

final class WidgetFormatTests: XCTestCase {
    let german = Words { msgid in
        ["Pokédex unavailable": "Pokédex nicht erreichbar", "no favorites yet": "noch keine Favoriten",
         "details when the network is back": "Details, sobald das Netz zurück ist"][msgid] ?? msgid
    }

    func eevee(detail: Bool = true) -> WidgetFavorite {
        var f = WidgetFavorite(id: 133, identifier: "eevee", name: "Evoli")
        guard detail else { return f }
        f.color = "#a08060"
        f.spritePath = "/home/ash/.cache/pokedexd/sprites/133.png"
        f.genus = "Evolutions-Pokémon"
        f.typeNames = ["Normal"]
        f.types = ["normal"]
        f.hasDetail = true
        return f
    }

    func testWaybarShowsTheNameInItsColourAndTheCardInTheTooltip() throws {
        let line = WidgetFormat.waybar.render(.favorite(eevee(), all: ["Evoli"]), german)
        XCTAssertFalse(line.contains("\n"))
        XCTAssertTrue(line.contains(##""text":"<span color=\"#a08060\">●</span> Evoli""##), line)
        XCTAssertTrue(line.contains(##""tooltip":"#133 Evoli · Evolutions-Pokémon · Normal""##), line)
        XCTAssertTrue(line.contains(##""class":["favorite","normal"]"##), line)
        XCTAssertTrue(line.contains(##""alt":"eevee""##), line)
    }

    func testOfflineWithoutTheRecordTheNameIsStillTheGamesName() {
        let line = WidgetFormat.waybar.render(.favorite(eevee(detail: false), all: ["Evoli"]), german)
        XCTAssertTrue(line.contains(##""text":"Evoli""##), line)
        XCTAssertTrue(line.contains("#133 Evoli · Details, sobald das Netz zurück ist"), line)
        XCTAssertEqual(line.components(separatedBy: "eevee").count, 2, "the identifier is only the alt: \(line)")
    }

    func testServiceTextIsDataNotMarkup() {
        var f = eevee()
        f.name = "<b>Evo&li</b>\u{1b}[31m"
        f.genus = "%{F#ff0000}evil ${exec rm -rf ~} #x"
        let waybar = WidgetFormat.waybar.render(.favorite(f, all: [f.name]), german)
        XCTAssertTrue(waybar.contains("&lt;b&gt;Evo&amp;li&lt;/b&gt;"), waybar)
        XCTAssertFalse(waybar.contains("\\u001b"), waybar)
        let polybar = WidgetFormat.polybar.render(.favorite(f, all: [f.name]), german)
        XCTAssertEqual(polybar, "%{F#a08060}●%{F-} <b>Evo&li</b>[31m")
        let conky = WidgetFormat.conky.render(.favorite(f, all: [f.name]), german)
        XCTAssertTrue(conky.contains("% {F\\#ff0000}evil $${exec rm -rf ~} \\#x") || conky.contains("%{F\\#ff0000}evil $${exec rm -rf ~} \\#x"), conky)
        XCTAssertFalse(conky.contains("\u{1b}"))
    }

    func testConkyEscapesTheNumberSignAndTemplates() {
        XCTAssertEqual(UntrustedText.conky("#1 $template1 ${template2} a\\#"), "\\#1 $$ template1 $$ {template2} a/\\#")
        let conky = WidgetFormat.conky.render(.favorite(eevee(), all: ["Evoli"]), german)
        XCTAssertTrue(conky.contains("${font}${color} \\#133\n"), conky)
        XCTAssertTrue(conky.hasPrefix("${image /home/ash/.cache/pokedexd/sprites/133.png -p 0,0 -s 64x64}"), conky)
    }

    func testConkyWrapsTheListAndStaysWithinItsBuffer() {
        let names = (1...31).map { "Pokémon\($0)" }
        let conky = WidgetFormat.conky.render(.favorite(eevee(), all: names), german, width: 30, limit: 4000)
        let list = conky.split(separator: "\n").drop { !$0.contains("favorites:") }.dropFirst()
        XCTAssertGreaterThan(list.count, 5)
        for line in list { XCTAssertLessThanOrEqual(line.count, 30, String(line)) }
        XCTAssertTrue(conky.contains("Pokémon31"))
        let small = WidgetFormat.conky.render(.favorite(eevee(), all: names), german, width: 30, limit: 400)
        XCTAssertLessThanOrEqual(small.utf8.count, 400)
        XCTAssertTrue(small.contains("Pokémon1,"), "newest first: the first names given are kept")
        XCTAssertTrue(small.contains("and ") && small.contains(" more"), small)
        XCTAssertFalse(small.contains("Pokémon31"))
    }

    func testConkyWrapsJapaneseByColumns() {
        let names = ["ミュウ", "ミュウツー", "サンド", "ライチュウ", "ピカチュウ", "アーボック", "アーボ", "オニドリル", "オニスズメ"]
        let conky = WidgetFormat.conky.render(.favorite(eevee(), all: names), german, width: 36)
        let list = conky.split(separator: "\n").drop { !$0.contains("favorites:") }.dropFirst()
        XCTAssertGreaterThan(list.count, 1)
        for line in list { XCTAssertLessThanOrEqual(TextWidth.columns(String(line)), 36, String(line)) }
    }

    func testNoFavoriteAndUnavailableInTheReadersWords() {
        // Dimmed in Polybar too, as conky's grey (it was not: issue 56).
        XCTAssertEqual(WidgetFormat.polybar.render(.empty, german), "%{F#808080}noch keine Favoriten%{F-}")
        XCTAssertEqual(WidgetFormat.polybar.render(.unavailable(why: "weg"), german), "%{F#808080}Pokédex nicht erreichbar%{F-}")
        XCTAssertTrue(WidgetFormat.waybar.render(.unavailable(why: "weg"), german).contains(##""class":"unavailable""##))
        XCTAssertTrue(WidgetFormat.waybar.render(.unavailable(why: "weg"), german).contains("Pokédex nicht erreichbar"))
        XCTAssertEqual(WidgetFormat.conky.render(.empty, german), "${color grey}noch keine Favoriten${color}\n")
    }

    func testOnlyColoursAndAbsolutePathsAreTaken() {
        var d = PokemonDetail(id: 25, name: "pikachu", height: 4, weight: 60, types: ["electric"], abilities: [], stats: [],
                              spritePath: "relative.png", favorite: true, genus: "Maus-Pokémon", flavorText: "",
                              color: "red; font-size: 90px", animatedSpritePath: "/a\nb.gif")
        d.displayName = "Pikachu"
        let f = WidgetFavorite(d, name: "x")
        XCTAssertEqual(f.color, "")
        XCTAssertEqual(f.spritePath, "")
        XCTAssertEqual(f.animatedSpritePath, "")
        XCTAssertEqual(f.name, "Pikachu")
        XCTAssertEqual(f.typeNames, ["electric"])
    }

    func testPickKeepsTheChoiceUntilItChanges() {
        var g = SystemRandomNumberGenerator()
        XCTAssertEqual(WidgetPick.newest.choose(from: [1, 4, 7], keeping: 4, using: &g), 7)
        XCTAssertEqual(WidgetPick.random.choose(from: [1, 4, 7, 150], keeping: 4, using: &g), 4)
        XCTAssertTrue([1, 7].contains(WidgetPick.random.choose(from: [1, 7], keeping: 4, using: &g)!))
        XCTAssertNil(WidgetPick.random.choose(from: [], keeping: 4, using: &g))
    }
}
