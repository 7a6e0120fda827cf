import FoundationEssentials

/// `CacheStats`, `VerifyCache` and `ClearCache` see the disk tier through these: what is on
/// disk now, read from the files rather than remembered.
extension FileCacheStore {
    public func listing() throws(PokedexError) -> [CachedFile] {
        var out: [CachedFile] = []
        for name in try FileIO.names(in: recordsDir) where PackSegment.number(ofName: name) == nil {
            // Nothing of the store's is written here under another name; a file that is, by a
            // writer still running, is its writer's.
            if FileIO.isTemporary(name) && !FileIO.isAbandonedTemporary(name) { continue }
            if let info = FileIO.fileInfo(recordsDir + "/" + name) { out.append(CachedFile(name: "records/" + name, kind: .stray, size: info.size)) }
        }
        // The newest entry of each key, as opening the store reads them: oldest pack first.
        let known = knownRecords()
        var records: [String: CachedFile] = [:]
        var removed: Set<String> = []
        for segment in PackSegment.openAll(recordsDir) {
            segment.scan { entry, _ in
                records[entry.key] = entry.freshness.map { CachedFile(name: entry.key, kind: .record(freshness: $0), size: entry.length) }
                if entry.isRemoval { removed.insert(entry.key) } else { removed.remove(entry.key) }
            }
        }
        // A record this store reads whose head is damaged on disk (the scan stepped over it): a
        // record whose header cannot be read, which reading removes. Unless it went meanwhile.
        let stillKnown = knownRecords()
        for (key, at) in known where records[key] == nil && !removed.contains(key) && stillKnown[key].map({ $0 == at }) == true {
            records[key] = CachedFile(name: key, kind: .record(freshness: nil), size: at.length)
        }
        out += records.values.sorted { $0.name < $1.name }
        for name in try FileIO.names(in: spritesDir) {
            // A file being written is its writer's; one whose writer is gone is a stray.
            if FileIO.isTemporary(name) && !FileIO.isAbandonedTemporary(name) { continue }
            guard let info = FileIO.fileInfo(spritePath(name)) else { continue }
            out.append(CachedFile(name: FileIO.isTemporary(name) ? "sprites/" + name : name,
                                  kind: FileIO.isTemporary(name) ? .stray : .sprite, size: info.size))
        }
        return out
    }

    public func removeStray(_ name: String) {
        let parts = name.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0] == "records" || parts[0] == "sprites", !parts[1].isEmpty, parts[1] != "..", parts[1] != ".",
              PackSegment.number(ofName: String(parts[1])) == nil else { return }
        if parts[0] == "sprites" { removeSprite(String(parts[1])) } else { FileIO.removeFile(recordsDir + "/" + parts[1]) }
    }

    public func removeAll() throws(PokedexError) -> (files: Int, bytes: Int) {
        let listed = try listing()
        var kept: [(path: String, why: String)] = []
        var bytes = 0
        let packs = forgetEverything()
        for pack in packs {
            if FileIO.removeFile(pack.path) { bytes += pack.size } else { kept.append((pack.path, FileIO.errnoText())) }
        }
        var files = listed.filter { if case .record = $0.kind { return true } else { return false } }.count
        for file in listed {
            let path: String
            switch file.kind {
            case .record: continue
            case .sprite: path = spritePath(file.name)
            case .stray: path = root + "/" + file.name
            }
            if FileIO.removeFile(path) {
                files += 1
                bytes += file.size
            } else {
                kept.append((path, FileIO.errnoText()))
            }
        }
        if let first = kept.first {
            throw .storage("cannot remove \(kept.count) file(s) from the cache (\(first.path): \(first.why))")
        }
        return (files, bytes)
    }
}

extension FileCacheStore {
    /// Where an entry is: the pack's path, where the entry starts, its length, where its payload starts.
    typealias EntryPlace = (path: String, offset: Int, length: Int, payloadOffset: Int)

    /// Every entry of `key` in the packs of the disk tier at `root` (`<cache>/v2`), oldest
    /// first, and whether the newest of them is a removal. For the tests that damage a record.
    static func entries(of key: String, root: String) -> (records: [EntryPlace], removed: Bool) {
        let dir = root + "/records"
        var out: [EntryPlace] = []
        var removed = false
        for segment in PackSegment.openAll(dir) {
            segment.scan { entry, offset in
                guard entry.key == key else { return }
                removed = entry.isRemoval
                if !removed { out.append((segment.path, offset, entry.length, offset + entry.payloadOffset)) }
            }
        }
        return (out, removed)
    }

    /// Where the newest entry for `key` is, unless it was removed since; nil when no entry reads it.
    static func entry(of key: String, root: String) -> EntryPlace? {
        let found = entries(of: key, root: root)
        return found.removed ? nil : found.records.last
    }
}
