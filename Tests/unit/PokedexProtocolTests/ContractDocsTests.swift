import CSystemd
import Glibc
import XCTest
import PokedexModels
@testable import PokedexProtocol

/// The contract's words (``Pokedex1/docs``, ``Pokedex1/keys``), which the README and
/// pokedexd(1) are made from, held to the contract and to what the codings really write.
final class ContractDocsTests: XCTestCase {
    private var scratch: ScratchBus!
    override func setUpWithError() throws { scratch = try ScratchBus() }
    override func tearDown() { scratch = nil }

    func testEveryMemberHasWordsAndEveryMethodAnExampleOfItsOwnSignature() {
        let names = Set(Pokedex1.interface.members.map(\.name))
        XCTAssertEqual(Set(Pokedex1.docs.keys), names, "a member without words, or words without a member")
        for shape in Pokedex1.interface.members {
            guard case .method(let name, let ins, _) = shape else { continue }
            let example = Pokedex1.docs[name]?.example
            XCTAssertNotNil(example, name)
            let given = example?.split(separator: " ").first.map(String.init) ?? ""
            XCTAssertEqual(given, ins.map(\.signature).joined(), "\(name)'s example calls it with another signature")
        }
        XCTAssertEqual(Set(Pokedex1.errorDocs.keys), Set(PokedexError.Kind.allCases))
        for (member, _) in Pokedex1.keys {
            XCTAssertTrue(names.contains(String(member.split(separator: ".")[0])), member)
        }
    }

    /// The keys the docs list are the keys written, with their types: each a{sv} answer with
    /// every optional key present.
    func testTheDocumentedKeysAreTheKeysWritten() throws {
        var detail = DetailCodingTests.charizard(language: "de")
        detail.displayName = "Glurak"
        try expect("Detail", plus: "LocalizedDetail", written: { w throws(BusError) in try Pokedex1.detail.writeReply(w, detail) })
        let row = MoveRow(method: .levelUp, level: 1, id: 10, move: "scratch", name: "Kratzer", type: "normal", typeName: "Normal",
                          category: "physical", categoryName: "Physisch", power: 40, accuracy: 100, pp: 35)
        try expect("Moves", written: { w throws(BusError) in
            try Pokedex1.moves.writeReply(w, MoveTable(id: 6, pokemon: "charizard", game: "scarlet-violet", gameName: "Karmesin/Purpur",
                                                       games: ["scarlet-violet"], language: "de", rows: [row]))
        })
        let entry = ListEntry(id: 6, name: "charizard", spritePath: "", favorite: false)
        try expect("SearchDetailed", written: { w throws(BusError) in
            try Pokedex1.searchDetailed.writeReply(w, [SearchMatch(entry: entry, match: "fuzzy", matchedName: "Charizard", language: "en", distance: 1)])
        }, rows: true)
        var status = ServiceStatus(version: "1", apiURL: "https://a.test", cacheDirectory: "/c", dataDirectory: "/d",
                                   memoryEntries: 1, memoryBytes: 2, memoryCapBytes: 3, diskEntries: 4, diskBytes: 5,
                                   diskCapBytes: 6, favorites: 7, online: false,
                                   hosts: [HostStatus(host: "a.test", isAPI: true, up: false, downSince: 1, reason: "refused",
                                                      nextAttempt: 2, multiplexed: true)])
        status.sandbox = SandboxStatus(landlockABI: 6, restricted: ["files"], missing: [], namespaces: true)
        try expect("Status", written: { w throws(BusError) in try Pokedex1.status.writeReply(w, status) })
        let stats = CacheStats(kinds: [CacheKindStats(kind: .list, count: 1, bytes: 2, stale: 0, oldestFetchedAt: 1, newestFetchedAt: 2)],
                               now: 3, files: 1, bytes: 2, diskCapBytes: 3, memoryEntries: 1, memoryBytes: 2, memoryCapBytes: 3,
                               cacheDirectory: "/c")
        try expect("CacheStats", written: { w throws(BusError) in try Pokedex1.cacheStats.writeReply(w, stats) })
        let report = CacheVerifyResult(checked: 1, damaged: 1, repaired: 1, failed: 0, orphans: 0, failures: [.init(item: "a", reason: "b")])
        try expect("VerifyCache", written: { w throws(BusError) in try Pokedex1.verifyCache.writeReply(w, report) })
    }

    /// Compares the keys (and nested keys) of what `write` wrote with `member`'s documented ones.
    private func expect(_ member: String, plus extra: String? = nil, written write: (MessageWriter) throws(BusError) -> Void,
                        rows: Bool = false, file: StaticString = #filePath, line: UInt = #line) throws {
        let m = try scratch.message(write)
        defer { sd_bus_message_unref(m) }
        var signatures: [String: String] = [:]
        XCTAssertEqual(sd_bus_message_peek_type(m, nil, nil) >= 0, true)
        let values = try MessageReader(m).readAll()
        var top = values.first
        if rows, case .array(let items)? = top { top = items.first }
        let written = keys(of: top)
        var documented = (Pokedex1.keys[member] ?? []) + (extra.flatMap { Pokedex1.keys[$0] } ?? [])
        documented.sort { $0.name < $1.name }
        XCTAssertEqual(written.map(\.0).sorted(), documented.map(\.name), member, file: file, line: line)
        for key in documented {
            signatures[key.name] = key.signature
            if let nested = Pokedex1.keys[member + "." + key.name], case .array(let items)? = written.first(where: { $0.0 == key.name })?.1 {
                XCTAssertEqual(keys(of: items.first).map(\.0).sorted(), nested.map(\.name).sorted(), member + "." + key.name, file: file, line: line)
            }
        }
        // The types, from the message itself: each entry's variant signature.
        XCTAssertGreaterThanOrEqual(sd_bus_message_rewind(m, 1), 0)
        for (name, signature) in try variantSignatures(m, rows: rows) {
            XCTAssertEqual(signature, signatures[name], "\(member).\(name)'s type", file: file, line: line)
        }
    }

    private func keys(of value: BusValue?) -> [(String, BusValue)] {
        guard case .dict(let pairs)? = value?.unwrapped else { return [] }
        return pairs.compactMap { k, v in k.string.map { ($0, v.unwrapped) } }
    }

    /// Each top-level entry's name and the signature of its variant, read off the message.
    private func variantSignatures(_ m: OpaquePointer, rows: Bool) throws -> [(String, String)] {
        if rows { XCTAssertGreaterThanOrEqual(sd_bus_message_enter_container(m, CChar(UInt8(ascii: "a")), "a{sv}"), 0) }
        XCTAssertGreaterThanOrEqual(sd_bus_message_enter_container(m, CChar(UInt8(ascii: "a")), "{sv}"), 0)
        var out: [(String, String)] = []
        while sd_bus_message_enter_container(m, CChar(UInt8(ascii: "e")), "sv") > 0 {
            var key: UnsafePointer<CChar>?
            XCTAssertGreaterThanOrEqual(sd_bus_message_read_basic(m, CChar(UInt8(ascii: "s")), &key), 0)
            var contents: UnsafePointer<CChar>?
            XCTAssertGreaterThanOrEqual(sd_bus_message_peek_type(m, nil, &contents), 0)
            out.append((String(cString: key!), String(cString: contents!)))
            XCTAssertGreaterThanOrEqual(sd_bus_message_skip(m, "v"), 0)
            XCTAssertGreaterThanOrEqual(sd_bus_message_exit_container(m), 0)
        }
        return out
    }
}
