import FoundationEssentials
import PokedexModels

/// `Cache-Control` as the fetcher reads it: how long a body stays fresh.
package enum CacheControl {
    /// The longest a body is kept fresh, whatever a server says: 30 days.
    package static let maxAgeCap: Double = 30 * 86400

    /// `Cache-Control`'s lifetime in seconds: `no-store`/`no-cache` are 0; `max-age` counts
    /// only as a non-negative integer (quoted or not), clamped to ``maxAgeCap``. Anything else
    /// (`inf`, `nan`, `-1`, `1e9`, garbage) counts as absent: nil.
    package static func maxAge(_ cacheControl: String?) -> Double? {
        guard var cc = cacheControl else { return nil }
        // Every answer has one: read on its bytes where they are ASCII, as Characters else.
        if let ascii = cc.withUTF8({ maxAge(ascii: $0) }) { return ascii }
        return maxAge(characters: cc)
    }

    /// ``maxAge(_:)`` of an ASCII header, on its bytes, part for part as ``maxAge(characters:)``
    /// splits it; nil (the outer one) when the header is not ASCII.
    static func maxAge(ascii b: UnsafeBufferPointer<UInt8>) -> Double?? {
        guard b.allSatisfy({ $0 < 0x80 }) else { return nil }
        func equals(_ r: Range<Int>, _ word: StaticString) -> Bool {
            r.count == word.utf8CodeUnitCount && (0..<r.count).allSatisfy { ASCIIBytes.lowered(b[r.lowerBound + $0]) == word.utf8Start[$0] }
        }
        func noStore(_ r: Range<Int>) -> Bool { equals(r, "no-store") || equals(r, "no-cache") }
        var start = 0
        while start < b.count {
            let end = b[start...].firstIndex(of: UInt8(ascii: ",")) ?? b.count
            defer { start = end + 1 }
            let part = ASCIIBytes.trimmed(start..<end, in: b)
            let (lo, hi) = (part.lowerBound, part.upperBound)
            guard lo < hi else { continue }  // an empty part, which split leaves out
            // As `split(separator: "=", maxSplits: 1)` cuts it: empty pieces left out, and not
            // counted as the one split.
            var nameStart = lo
            while nameStart < hi, b[nameStart] == UInt8(ascii: "=") { nameStart += 1 }
            guard nameStart < hi else { continue }
            let eq = b[nameStart..<hi].firstIndex(of: UInt8(ascii: "=")) ?? hi
            let name = nameStart..<eq
            if noStore(name) { return .some(0) }
            guard eq < hi - 1, equals(name, "max-age") else { continue }
            var v = ASCIIBytes.trimmed((eq + 1)..<hi, in: b)
            if v.count >= 2, b[v.lowerBound] == UInt8(ascii: "\""), b[v.upperBound - 1] == UInt8(ascii: "\"") {
                v = (v.lowerBound + 1)..<(v.upperBound - 1)
            }
            guard !v.isEmpty, b[v].allSatisfy({ (0x30...0x39).contains($0) }) else { return .some(nil) }
            // Digits only: too many of them is simply "very long".
            var value = 0.0
            for c in b[v.lowerBound..<min(v.upperBound, v.lowerBound + 12)] { value = value * 10 + Double(c - 0x30) }
            return .some(min(value, maxAgeCap))
        }
        return .some(nil)
    }

    /// ``maxAge(_:)`` as Characters: white space as Unicode counts it.
    static func maxAge(characters cc: String) -> Double? {
        for part in cc.split(separator: ",") {
            let kv = part.trimmingWhitespace().split(separator: "=", maxSplits: 1)
            let name = kv.first?.lowercased() ?? ""
            if name == "no-store" || name == "no-cache" { return 0 }
            guard name == "max-age", kv.count == 2 else { continue }
            var value = kv[1].trimmingWhitespace()
            if value.count >= 2, value.first == "\"", value.last == "\"" { value = value.dropFirst().dropLast() }
            guard !value.isEmpty, value.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
            // Digits only: too many of them is simply "very long".
            return min(Double(value.prefix(12)) ?? maxAgeCap, maxAgeCap)
        }
        return nil
    }
}
