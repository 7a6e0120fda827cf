import Foundation
import XCTest
#if canImport(FoundationXML)
import FoundationXML
#endif
import PokedexProtocol

/// The contract against the interface file clients read, and the coding both ways.
final class ContractTests: XCTestCase {
    static let xmlPath = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("dbus/io.github.pokedexd.Pokedex1.xml").path

    func testInterfaceFileMatchesTheContract() throws {
        let xml = try String(contentsOfFile: Self.xmlPath, encoding: .utf8)
        XCTAssertEqual(introspectionLines(xml: xml, interface: Pokedex1.interfaceName), Pokedex1.interface.introspectionLines)
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

/// Methods, signals and properties of one interface in introspection XML, one line each,
/// in the contract's line format; comments and spacing ignored.
func introspectionLines(xml: String, interface: String) -> [String] {
    final class Collector: NSObject, XMLParserDelegate {
        let interface: String
        var inside = false
        var current: String?
        var lines: [String] = []
        init(_ i: String) { interface = i }
        func parser(_ p: XMLParser, didStartElement e: String, namespaceURI: String?, qualifiedName: String?, attributes a: [String: String]) {
            switch e {
            case "interface": inside = a["name"] == interface
            case "method" where inside, "signal" where inside: current = "\(e) \(a["name"] ?? "")"
            case "property" where inside: lines.append("property \(a["name"] ?? "") \(a["type"] ?? "") \(a["access"] ?? "")")
            case "arg" where inside && current != nil:
                current! += " \(a["direction"] ?? (current!.hasPrefix("signal") ? "out" : "in")):\(a["type"] ?? ""):\(a["name"] ?? "")"
            default: break
            }
        }
        func parser(_ p: XMLParser, didEndElement e: String, namespaceURI: String?, qualifiedName: String?) {
            if e == "interface" { inside = false }
            if e == "method" || e == "signal", let c = current { lines.append(c); current = nil }
        }
    }
    let parser = XMLParser(data: Data(xml.utf8))
    let collector = Collector(interface)
    parser.delegate = collector
    parser.shouldResolveExternalEntities = false
    _ = parser.parse()
    return collector.lines.sorted()
}
