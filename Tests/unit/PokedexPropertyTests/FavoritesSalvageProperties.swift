import FoundationEssentials
@testable import PokedexCore
import PropertyBased
import Testing

/// A favorites file as the service writes it, then damaged at random: cut short, bytes of one
/// or more entries overwritten (with bytes that are not UTF-8, braces, brackets), garbage
/// added. Whatever the damage, reading never traps, invents no favorite and keeps each id once;
/// every entry the damage did not touch is kept, unless a stray quote turned what follows into
/// a string. A failure prints the seed that replays it.
@Suite struct FavoritesSalvageProperties {
    /// The file's bytes and where each entry's object lies in them.
    static func file(_ favorites: [Favorite]) -> (bytes: [UInt8], entries: [Range<Int>]) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let bytes = Array(try! encoder.encode(FavoritesSalvage.Body(version: 1, favorites: favorites, notice: nil)))
        var ranges: [Range<Int>] = []
        var start = -1
        var depth = 0
        for (i, b) in bytes.enumerated() {
            if b == UInt8(ascii: "{") { depth += 1; if depth == 2 { start = i } }
            if b == UInt8(ascii: "}") { if depth == 2 { ranges.append(start..<(i + 1)) }; depth -= 1 }
        }
        return (bytes, ranges)
    }

    static func favorites(_ rng: inout SplitMix64) -> [Favorite] {
        var ids = Set<UInt32>()
        for _ in 0..<Int(rng.next() % 60) { ids.insert(UInt32(1 + rng.next() % 1400)) }
        return ids.sorted().map { Favorite(id: $0, name: "p-\($0)-\(["a", "b-c", "mr-mime"][Int($0 % 3)])", added: Double($0) * 1.5) }
    }

    @Test func aSoundFileIsReadWhole() async {
        await propertyCheck(count: PropertyCounts.cases(300), input: Gen.uint64()) { seed in
            var rng = SplitMix64(seed: seed)
            let favorites = Self.favorites(&rng)
            let (read, notice) = FavoritesSalvage.read(Self.file(favorites).bytes)
            #expect(read == FavoritesSalvage.Result(favorites: favorites, entries: favorites.count, sound: true))
            #expect(notice == nil)
        }
    }

    @Test func damageLosesOnlyTheEntriesItTouched() async {
        await propertyCheck(count: PropertyCounts.cases(1000), input: Gen.uint64()) { seed in
            var rng = SplitMix64(seed: seed)
            let favorites = Self.favorites(&rng)
            var (bytes, entries) = Self.file(favorites)
            var touched = Set<Int>()
            var quoted = false
            // Overwrite a few runs of bytes.
            let noise: [UInt8] = [0xFF, 0xC3, 0x80, 0x00, 0x0A] + Array("{}[],:0-9x".utf8)
            for _ in 0..<Int(rng.next() % 4) where !bytes.isEmpty {
                let at = Int(rng.next() % UInt64(bytes.count))
                let run = min(bytes.count - at, 1 + Int(rng.next() % 12))
                let quote = rng.next() % 5 == 0
                for i in at..<(at + run) {
                    // Hitting a quote shifts every string after it, as adding one does.
                    if bytes[i] == UInt8(ascii: "\"") { quoted = true }
                    bytes[i] = quote && i == at ? UInt8(ascii: "\"") : noise[Int(rng.next() % UInt64(noise.count))]
                }
                quoted = quoted || quote
                for (k, r) in entries.enumerated() where r.overlaps(at..<(at + run)) { touched.insert(k) }
            }
            // Cut it short, or add garbage.
            switch rng.next() % 3 {
            case 0 where !bytes.isEmpty:
                let cut = Int(rng.next() % UInt64(bytes.count))
                bytes.removeSubrange(cut...)
                for (k, r) in entries.enumerated() where r.upperBound > cut { touched.insert(k) }
            case 1: bytes += Array("\n}}]]garbage{\"id\": 0}".utf8)
            default: break
            }
            let (read, _) = FavoritesSalvage.read(bytes)
            let original = Dictionary(uniqueKeysWithValues: favorites.map { ($0.id, $0) })
            #expect(Set(read.favorites.map(\.id)).count == read.favorites.count, "each id once")
            #expect(read.favorites.allSatisfy(FavoritesSalvage.isValid))
            #expect(read.entries >= read.favorites.count)
            // Nothing invented: a favorite that was not in the list can only come from an entry the
            // noise hit (a digit of its id changed), at most one for each.
            let strangers = read.favorites.filter { original[$0.id] != $0 }.count
            #expect(strangers <= touched.count, "seed \(seed): \(strangers) favorites not in the list")
            if !quoted {
                let untouched = entries.indices.filter { !touched.contains($0) }.map { favorites[$0] }
                let kept = Set(read.favorites.map(\.id))
                #expect(untouched.allSatisfy { kept.contains($0.id) }, "seed \(seed): lost an entry the damage did not touch")
            }
        }
    }
}
