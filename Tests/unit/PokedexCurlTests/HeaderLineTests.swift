import PokedexCore
import PokedexModels
@testable import PokedexCurl
import XCTest

/// A header line read on its bytes (`Transfer.headerLine`) reads as the String reading it
/// replaced did, over random lines of what servers send: names in any case, values with
/// spaces, tabs and the line's CRLF around them, UTF-8 letters and bytes that are not UTF-8.
final class HeaderLineTests: XCTestCase {
    /// What the bytes were read as before: the line as a String, its name lowered, its value
    /// trimmed of white space.
    private static func asString(_ bytes: [UInt8]) -> Transfer.HeaderLine {
        let line = String(decoding: bytes, as: UTF8.self)
        if line.hasPrefix("HTTP/") { return .status }
        guard let colon = line.firstIndex(of: ":") else { return .other }
        return .field(name: line[..<colon].lowercased(), value: String(line[line.index(after: colon)...].trimmingWhitespace()))
    }

    private static func read(_ bytes: [UInt8]) -> Transfer.HeaderLine {
        bytes.withUnsafeBufferPointer { Transfer.headerLine($0) }
    }

    func testTheLinesCurlHandsOver() {
        XCTAssertEqual(Self.read(Array("HTTP/2 200 \r\n".utf8)), .status)
        XCTAssertEqual(Self.read(Array("HTTP/1.1 100 Continue\r\n".utf8)), .status)
        XCTAssertEqual(Self.read(Array("\r\n".utf8)), .other)
        XCTAssertEqual(Self.read(Array("ETag: W/\"abc\"\r\n".utf8)), .field(name: "etag", value: "W/\"abc\""))
        XCTAssertEqual(Self.read(Array("Cache-Control:\tmax-age=86400, public \r\n".utf8)),
                       .field(name: "cache-control", value: "max-age=86400, public"))
        XCTAssertEqual(Self.read(Array("X-Empty:   \r\n".utf8)), .field(name: "x-empty", value: ""))
        XCTAssertEqual(Self.read(Array("Location: https://pokeapi.co/a:b\r\n".utf8)),
                       .field(name: "location", value: "https://pokeapi.co/a:b"), "the first colon ends the name")
        XCTAssertEqual(Self.read([]), .other)
    }

    func testRandomLinesReadAsTheStringReadingDid() {
        let seed = UInt64.random(in: 0...UInt64.max)
        var g = SplitMix64(seed: seed)
        let nameBytes = Array("abcxyzABCXYZ-_0123456789".utf8)
        let valueBytes = Array("abc XYZ/=,;\"'.0123456789".utf8) + [0x09]
        let letters = ["é", "ü", "日本", "Ω", "ß"].map { Array($0.utf8) }
        let spaces: [[UInt8]] = [[0x20], [0x09], [0x0D], [0x0A], [0x0D, 0x0A], [0x0B], [0x0C]]
        func pick<T>(_ a: [T]) -> T { a[Int(g.next() % UInt64(a.count))] }
        for round in 0..<20_000 {
            var line: [UInt8] = []
            switch g.next() % 10 {
            case 0: line = Array("HTTP/".utf8) + Array("2 200".utf8)
            case 1: line = []
            default:
                for _ in 0..<Int(g.next() % 12) { line.append(pick(nameBytes)) }
                // A name is a token, ASCII (a letter outside it would be lowered as Unicode
                // lowers it before); no colon: a line with no field.
                let field = g.next() % 8 != 0
                if field { line.append(UInt8(ascii: ":")) }
                for _ in 0..<Int(g.next() % 3) { line += pick(spaces) }
                for _ in 0..<Int(g.next() % 16) {
                    switch g.next() % 12 {
                    case 0: line += pick(letters)
                    case 1: line.append(UInt8(truncatingIfNeeded: 0x80 | g.next() % 0x40))  // a stray continuation byte
                    case 2 where field: line.append(UInt8(ascii: ":"))  // `https://…`
                    default: line.append(pick(valueBytes))
                    }
                }
                for _ in 0..<Int(g.next() % 3) { line += pick(spaces) }
            }
            if g.next() % 2 == 0 { line += [0x0D, 0x0A] }
            XCTAssertEqual(Self.read(line), Self.asString(line), "round \(round), line \(line) (seed \(seed))")
            if Self.read(line) != Self.asString(line) { return }
        }
    }
}
