import Foundation
@testable import PokedexCore

/// Damage done to one record of a disk tier, in its pack, from outside the store: what a bad
/// disk, a crash or a person with an editor does. `root` is the tier's `<cache>/v2`.
public enum CacheRecordDamage: String, CaseIterable, Sendable {
    /// One byte of the payload flipped (of the head, where the payload is empty).
    case flippedPayload = "flipped byte in a record"
    /// The payload zeroed.
    case zeroedPayload = "zeroed record"
    /// The second half of the payload zeroed, as a write cut short leaves it.
    case cutPayload = "record cut short"
    /// Random bytes over the whole entry, head and payload.
    case garbage = "garbage record"
    /// The whole entry zeroed: unreadable after a restart, and its payload fails as it runs.
    case erased = "erased record"

    /// Damages `key`'s entry, and the older entries of it a newer one replaced (the store
    /// would read the newest whole one); throws when no entry of it is on disk.
    public func apply(to key: String, in root: String) throws {
        guard FileCacheStore.entry(of: key, root: root) != nil else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: "\(root): \(key)"])
        }
        for e in FileCacheStore.entries(of: key, root: root).records { try apply(e) }
    }

    private func apply(_ e: FileCacheStore.EntryPlace) throws {
        var bytes = try Data(contentsOf: URL(fileURLWithPath: e.path))
        let end = e.offset + e.length
        switch self {
        // An empty payload has no byte to flip: the head's checksum is flipped instead.
        case .flippedPayload: bytes[e.payloadOffset < end ? (e.payloadOffset + end) / 2 : e.offset + 36] ^= 0x5A
        case .zeroedPayload: bytes.replaceSubrange(e.payloadOffset..<end, with: Data(count: end - e.payloadOffset))
        case .cutPayload:
            let mid = (e.payloadOffset + end) / 2
            bytes.replaceSubrange(mid..<end, with: Data(count: end - mid))
        case .garbage: bytes.replaceSubrange(e.offset..<end, with: Data((e.offset..<end).map { _ in UInt8.random(in: 0...255) }))
        case .erased: bytes.replaceSubrange(e.offset..<end, with: Data(count: e.length))
        }
        // In place, as a disk or an editor changes a file: the store's descriptor reads the change.
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: e.path))
        defer { try? handle.close() }
        try handle.write(contentsOf: bytes)
    }
}

/// Whether `key` has a readable entry in the packs of the disk tier at `root` (`<cache>/v2`).
public func cacheHasRecord(_ key: String, in root: String) -> Bool { FileCacheStore.entry(of: key, root: root) != nil }

/// What the disk tier at `root` (`<cache>/v2`) holds, read by the tests without the store's
/// code, from the pack format as `PackEntry` documents it: `records/KEY` → the bytes of the
/// newest entry of each key not removed since, `records/NAME` → the size of any other file in
/// `records/`, `sprites/NAME` → a sprite file's size.
public func cacheFilesOnDisk(_ root: String) -> [String: Int] {
    var out: [String: Int] = [:]
    let fm = FileManager.default
    let records = (try? fm.contentsOfDirectory(atPath: root + "/records")) ?? []
    for name in records.sorted() {
        let path = root + "/records/" + name
        guard name.hasSuffix(".pack"), let bytes = fm.contents(atPath: path) else {
            if let size = (try? fm.attributesOfItem(atPath: path))?[.size] as? Int { out["records/" + name] = size }
            continue
        }
        var at = 0
        func u16(_ i: Int) -> Int { Int(bytes[at + i]) | Int(bytes[at + i + 1]) << 8 }
        func u32(_ i: Int) -> Int { u16(i) | u16(i + 2) << 16 }
        while at + 40 <= bytes.count, bytes[at..<(at + 4)].elementsEqual("PXR1".utf8) {
            let key = u16(6), etag = u16(8), payload = u32(12)
            let length = 40 + key + etag + payload
            guard at + length <= bytes.count else { break }
            let k = "records/" + String(decoding: bytes[(at + 40)..<(at + 40 + key)], as: UTF8.self)
            out[k] = bytes[at + 4] & 1 == 0 ? length : nil
            at += length
        }
    }
    for name in (try? fm.contentsOfDirectory(atPath: root + "/sprites")) ?? [] {
        out["sprites/" + name] = (try? fm.attributesOfItem(atPath: root + "/sprites/" + name))?[.size] as? Int
    }
    return out
}
