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
        guard let cc = cacheControl else { return nil }
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
