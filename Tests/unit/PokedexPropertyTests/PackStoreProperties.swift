import Foundation
@testable import PokedexCore
import PokedexTestKit
import PropertyBased
import Testing

/// The disk tier's packs as a state machine: random sequences of writes (of every size, to a
/// few keys, so records are replaced), removals, reads, sprites, restarts, damage done to an
/// entry on disk, and clearing, against a model of what was last written. After each event: a
/// record read is the one last written under its key or nothing, never another's, an older
/// one, or one removed (after a restart too); with room for everything, nothing is lost but
/// the damaged; what the store says it holds is what is on disk, and under its cap. A failure
/// prints the seed that replays it.
@Suite struct PackStoreProperties {
    static let keys = (1...12).map { "pokemon/\($0)" } + ["index/pokemon", "names-type/fire", "sprite/3"]

    @Test(arguments: [1 << 22, 24_000]) func recordsAreTheLastWrittenOrNothing(capacity: Int) async {
        await propertyCheck(count: PropertyCounts.cases(300), input: Gen.uint64()) { seed in
            Self.run(seed: seed, capacity: capacity)
        }
    }

    static func run(seed: UInt64, capacity: Int) {
        var rng = SplitMix64(seed: seed)
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        guard var store = try? FileCacheStore(directory: dir, capacity: capacity) else {
            Issue.record("seed \(seed): the store did not open")
            return
        }
        let roomy = capacity > 1 << 20
        var model: [String: [UInt8]] = [:]
        /// Keys whose entry was damaged on disk: nothing, or the record, may be read.
        var damaged: Set<String> = []
        var trail: [String] = []
        for step in 0..<Int(20 + rng.next() % 60) {
            let key = keys[Int(rng.next() % UInt64(keys.count))]
            switch rng.next() % 10 {
            case 0...3:
                // Mostly small, sometimes a few KiB, once in a while over a pack of the small cap.
                let size = [Int(rng.next() % 200), Int(rng.next() % 5_000), Int(rng.next() % 9_000)][Int(rng.next() % 3)]
                let payload = (0..<size).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
                do {
                    try store.writeRecord(key, StoredRecord(payload: payload, freshness: Freshness(etag: "\"\(step)\"", fetchedAt: Date(timeIntervalSince1970: Double(step)), maxAge: 60)))
                    model[key] = payload
                    damaged.remove(key)
                    trail.append("write \(key) \(size)")
                } catch {
                    Issue.record("seed \(seed): write \(key): \(error)")
                }
            case 4:
                store.removeRecord(key)
                model[key] = nil
                damaged.remove(key)
                trail.append("remove \(key)")
            case 5:
                guard let reopened = try? FileCacheStore(directory: dir, capacity: capacity) else {
                    Issue.record("seed \(seed): did not open again after \(trail)")
                    return
                }
                store = reopened
                trail.append("restart")
            case 6:
                let name = "\(rng.next() % 4).png"
                _ = try? store.writeSprite(name, (0..<Int(rng.next() % 3_000)).map { _ in UInt8(truncatingIfNeeded: rng.next()) })
                trail.append("sprite \(name)")
            case 7:
                let how = CacheRecordDamage.allCases[Int(rng.next() % UInt64(CacheRecordDamage.allCases.count))]
                if (try? how.apply(to: key, in: store.root)) != nil {
                    damaged.insert(key)
                    trail.append("\(how) \(key)")
                }
            case 8 where rng.next() % 4 == 0:
                _ = try? store.removeAll()
                model = [:]
                damaged = []
                trail.append("clear")
            default:
                trail.append("read")
            }
            // Every key, as the store reads it now.
            for k in keys {
                let read = store.readRecord(k)?.payload
                if let read, read != model[k] {
                    Issue.record("seed \(seed): \(k) read \(read.count) bytes, last written \(model[k].map { "\($0.count) bytes" } ?? "nothing"), after \(trail)")
                    return
                }
                if read == nil, roomy, model[k] != nil, !damaged.contains(k) {
                    Issue.record("seed \(seed): \(k) lost with room to spare, after \(trail)")
                    return
                }
                if read == nil { model[k] = nil }  // evicted or damaged: gone from now on
            }
            let onDisk = Self.bytesOnDisk(store.root)
            if store.usage.bytes != onDisk {
                Issue.record("seed \(seed): the store says \(store.usage.bytes) bytes, the disk holds \(onDisk), after \(trail)")
                return
            }
            if !roomy, onDisk > capacity + 9_100 {
                Issue.record("seed \(seed): \(onDisk) bytes on disk, over the cap of \(capacity), after \(trail)")
                return
            }
        }
    }

    static func bytesOnDisk(_ root: String) -> Int {
        ["records", "sprites"].reduce(0) { sum, sub in
            sum + ((try? FileManager.default.contentsOfDirectory(atPath: root + "/" + sub)) ?? []).reduce(0) {
                $0 + (FileIO.fileInfo(root + "/" + sub + "/" + $1)?.size ?? 0)
            }
        }
    }
}
