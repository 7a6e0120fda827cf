#if canImport(Glibc)
import Glibc
#endif

/// How many random cases each property runs. Each has its own number in `make test` (10,000
/// for the event sequences); `POKEDEX_PROPERTY_CASES=N` runs at most N of each (`make check`:
/// fewer and faster, the same properties). `POKEDEX_PROPERTY_COUNT` and
/// `POKEDEX_SERVICE_PROPERTY_COUNT` change the sequences' and the whole-service properties'
/// numbers, for a longer soak.
enum PropertyCounts {
    /// `standard`, or at most `POKEDEX_PROPERTY_CASES`.
    static func cases(_ standard: Int) -> Int { limit.map { min($0, standard) } ?? standard }

    /// Event sequences (browse's model, the input decoder, the parsers).
    static var sequences: Int { cases(number("POKEDEX_PROPERTY_COUNT") ?? 10_000) }

    /// The properties that run a whole service each (a typed query, restarts): about 5 a second.
    static var services: Int { cases(number("POKEDEX_SERVICE_PROPERTY_COUNT") ?? 200) }

    /// The shards a long property's cases are split into, so Swift Testing runs them side by
    /// side on two cores instead of leaving one idle behind the longest.
    static let shards = 0..<2

    /// One shard's share of `total` cases (rounded up: no case is lost to the split).
    static func share(of total: Int) -> Int { (total + shards.count - 1) / shards.count }

    private static let limit = number("POKEDEX_PROPERTY_CASES")

    private static func number(_ name: String) -> Int? {
        guard let raw = getenv(name), let n = Int(String(cString: raw)), n > 0 else { return nil }
        return n
    }
}
