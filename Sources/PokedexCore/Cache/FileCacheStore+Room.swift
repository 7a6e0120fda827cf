#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials

/// The disk tier's room: the disk's free space it leaves alone, its cap, and the space that
/// replaced and removed entries hold in the packs, given back.
extension FileCacheStore {
    /// The cache never takes a disk's last free space, so favorites (and everything else on it)
    /// can still be written: it keeps 5% of the filesystem free, at least 64 KiB and at most
    /// 256 MiB, as journald keeps `SystemKeepFree`.
    static func keepFree(filesystemBytes: Int) -> Int { min(max(filesystemBytes / 20, 64 << 10), 256 << 20) }

    /// What the disk had free when last looked at, and what this store wrote since.
    struct Room {
        var looked = false
        var refusing = false
        var free = 0
        var keep = 0
        /// The filesystem's block: a write takes whole ones.
        var block = 4096
        var writtenSince = 0

        /// What a write of `bytes` may take of the disk, at most: its blocks, and one more (a
        /// new file's, or the one a pack's last entry shares with this one).
        func charge(_ bytes: Int) -> Int { (bytes + block - 1) / block * block + block }

        /// Whether a write of `bytes` may go without looking at the disk again: while what was
        /// charged since is under a quarter of the reserve, half of the room left above it, and
        /// 1 MiB. A sync's 7,000 writes were 7,000 `statvfs` calls; now about one a MiB, and
        /// every write near the edge. Another program filling the disk meanwhile makes this
        /// store take at most a quarter of the reserve before it sees it.
        func covers(_ bytes: Int) -> Bool {
            guard looked, !refusing else { return false }
            return writtenSince + charge(bytes) <= min(1 << 20, keep / 4, (free - keep) / 2)
        }
    }

    func ensureRoom(for bytes: Int) throws {
        if room.withLock({ r in
            guard r.covers(bytes) else { return false }
            r.writtenSince += r.charge(bytes)
            return true
        }) { return }
        var fs = statvfs()
        guard statvfs(root, &fs) == 0 else { return }
        let free = Int(fs.f_bavail) * Int(fs.f_frsize)
        let keep = Self.keepFree(filesystemBytes: Int(fs.f_blocks) * Int(fs.f_frsize))
        // Hysteresis: once refusing, it waits for twice the reserve, so it does not flap at the edge.
        let refuse = room.withLock { r in
            r.refusing = r.refusing ? free - bytes < 2 * keep : free - bytes < keep
            (r.looked, r.free, r.keep, r.block) = (true, free, keep, max(512, Int(fs.f_frsize)))
            r.writtenSince = r.refusing ? 0 : r.charge(bytes)
            return r.refusing
        }
        // The loader logs this once per episode, and again when writes work.
        if refuse {
            throw PokedexError.storage("the disk holding \(root) is nearly full (\(free >> 10) KiB free); the cache stops growing")
        }
    }

    /// Over the cap: the least recently used records and sprites go until what is live fits
    /// in 90% of it, never `keeping`; then the oldest packs are compacted until the files fit.
    /// Under it, the oldest pack is compacted when half of it is dead.
    /// Returns the sprite files to remove (outside the lock). Under the lock.
    func enforceCap(_ s: inout State, keeping: String?) -> [String] {
        var victims: [String] = []
        if s.diskBytes > capacity {
            let target = capacity / 10 * 9
            var live = s.liveBytes + s.spriteBytes
            var candidates = s.records.map { (name: $0.key, lastUse: $0.value.lastUse, sprite: false) }
            candidates += s.sprites.map { (name: $0.key, lastUse: $0.value.lastUse, sprite: true) }
            for c in candidates.sorted(by: { $0.lastUse < $1.lastUse }) where c.name != keeping {
                if live <= target { break }
                if c.sprite, let f = s.sprites.removeValue(forKey: c.name) {
                    s.spriteBytes -= f.size
                    live -= f.size
                    victims.append(c.name)
                } else if !c.sprite, let freed = forget(c.name, &s) {
                    live -= freed
                }
            }
        }
        // The newest pack is appended to, never compacted; each other at most once a call (a
        // record over the cap alone would have them copied round for ever).
        for _ in 0..<max(0, s.segments.count - 1) where s.segments.count > 1 {
            let oldest = s.segments[0]
            guard s.diskBytes > capacity || oldest.live * 2 < oldest.size else { break }
            compactOldest(&s)
        }
        return victims
    }

    /// Copies the oldest pack's live records to the newest and removes its file: the entries it
    /// held that were replaced or removed, and its marks of removal (no older pack is left for
    /// them to hide), go with it. Under the lock.
    private func compactOldest(_ s: inout State) {
        let oldest = s.segments.removeFirst()
        let moving = s.records.filter { $0.value.segment === oldest }.sorted { $0.value.offset < $1.value.offset }
        for (key, location) in moving {
            s.records[key] = nil
            guard let bytes = oldest.read(at: location.offset, count: location.entry.length),
                  let (segment, offset) = try? append(bytes, &s) else { continue }
            s.records[key] = Location(segment: segment, offset: offset, entry: location.entry, lastUse: location.lastUse)
            segment.live += location.entry.length
        }
        FileIO.removeFile(oldest.path)
    }
}
