import Foundation
import XCTest
import PokedexProtocol
import PokedexTestKit

/// The contract against the interface file clients read, and the coding both ways.
final class ContractTests: XCTestCase {
    static let xmlPath = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("dbus/io.github.pokedexd.Pokedex1.xml").path

    func testInterfaceFileMatchesTheContract() throws {
        let xml = try String(contentsOfFile: Self.xmlPath, encoding: .utf8)
        XCTAssertEqual(InterfaceShape(xml: xml, interface: Pokedex1.interfaceName).members, Pokedex1.interface.introspectionLines)
    }

    func testEveryMemberNameIsUnique() {
        let names = Pokedex1.interface.members.map(\.name)
        XCTAssertEqual(Set(names).count, names.count)
    }

    func testEveryMethodNamesItsErrors() {
        // Every method taking a Pokémon can say it does not know it.
        for m in [Pokedex1.detail.errors, Pokedex1.spritePath.errors, Pokedex1.toggleFavorite.errors,
                  Pokedex1.setFavorite.errors, Pokedex1.changeFavorite.errors] {
            XCTAssertTrue(m.contains(.notFound))
            XCTAssertTrue(m.contains(.invalidArgument))
        }
        XCTAssertTrue(Pokedex1.changeFavorite.errors.contains(.storage), "a write can fail to reach the disk")
        XCTAssertEqual(Pokedex1.listPage.shape.introspectionLine, "method ListPage in:u:offset in:u:limit out:u:total out:a(ussb):entries")
        XCTAssertEqual(Pokedex1.changeFavorite.shape.introspectionLine,
                       "method ChangeFavorite in:s:pokemon in:s:action out:u:id out:s:name out:b:favorite out:b:changed")
    }
}

