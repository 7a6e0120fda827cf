import XCTest
@testable import PokedexCore

/// Issue 58: CRC-32 eight bytes at a time (every record and sprite written and read is
/// checked) gives what the byte-at-a-time table gives, from any start and any length.
final class CRC32Tests: XCTestCase {
    /// The reference: one byte at a time, the table made as PNG's specification makes it.
    func reference(_ bytes: [UInt8], continuing crc: UInt32 = 0) -> UInt32 {
        var c = ~crc
        for b in bytes {
            c ^= UInt32(b)
            for _ in 0..<8 { c = (c & 1) != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        }
        return ~c
    }

    func testTheCheckValueAndEmptyInput() {
        XCTAssertEqual(CRC32.checksum(Array("123456789".utf8)), 0xCBF4_3926, "the CRC-32 check value")
        XCTAssertEqual(CRC32.checksum([UInt8]()), 0)
        XCTAssertEqual(CRC32.checksum(Array("IEND".utf8)), 0xAE42_6082, "a PNG's IEND chunk")
    }

    func testEveryLengthAndOffsetAgreesWithTheReference() {
        var g = SystemRandomNumberGenerator()
        let data = (0..<600).map { _ in UInt8.random(in: 0...255, using: &g) }
        for length in 0..<80 {
            for offset in 0..<9 {
                let slice = Array(data[offset..<(offset + length)])
                XCTAssertEqual(CRC32.checksum(slice), reference(slice), "length \(length) at \(offset)")
                XCTAssertEqual(CRC32.checksum(data[offset..<(offset + length)]), reference(slice), "an ArraySlice")
            }
        }
        let (a, b) = (Array(data[..<333]), Array(data[333...]))
        XCTAssertEqual(CRC32.checksum(b, continuing: CRC32.checksum(a)), reference(data), "continued")
        XCTAssertEqual(CRC32.checksum(data.reversed()), reference(data.reversed()), "a collection with no contiguous storage")
    }
}
