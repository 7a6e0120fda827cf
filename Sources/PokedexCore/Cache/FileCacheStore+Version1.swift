#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials

/// The `v1` layout, one file a record (`records/pokemon_25.rec`) and a file a sprite, which
/// versions up to issue 58 kept: moved into `v2` at the first open, nothing fetched again.
extension FileCacheStore {
    /// A `v1` record file: a header line, a JSON line of metadata, then the payload:
    ///
    ///     pokedex-record 1
    ///     {"key":"pokemon/25","length":812,"crc32":305419896,"etag":"…","fetchedAt":…,"maxAge":86400}
    ///     <payload bytes>
    enum Version1 {
        static let magic = Array("pokedex-record 1\n".utf8)

        struct Header: Codable {
            var key: String
            var length: Int
            var crc32: UInt32
            var etag: String?
            var fetchedAt: Double
            var maxAge: Double
        }

        /// The key and the record a `v1` file holds; nil if anything about it is wrong.
        static func decode(_ bytes: [UInt8]) -> (key: String, record: StoredRecord)? {
            guard bytes.count > magic.count, bytes[0..<magic.count].elementsEqual(magic),
                  let nl = bytes[magic.count...].firstIndex(of: 0x0A),
                  let header = try? JSONDecoder().decode(Header.self, from: Data(bytes[magic.count..<nl])) else { return nil }
            let payload = Array(bytes[(nl + 1)...])
            guard header.length == payload.count, CRC32.checksum(payload) == header.crc32 else { return nil }
            let freshness = Freshness(etag: header.etag, fetchedAt: Date(timeIntervalSince1970: header.fetchedAt), maxAge: header.maxAge)
            return (header.key, StoredRecord(payload: payload, freshness: freshness))
        }

        /// The bytes of a `v1` file (for the tests of the move).
        static func encode(key: String, _ record: StoredRecord) throws -> [UInt8] {
            let header = Header(key: key, length: record.payload.count, crc32: CRC32.checksum(record.payload),
                                etag: record.freshness.etag, fetchedAt: record.freshness.fetchedAt.timeIntervalSince1970,
                                maxAge: record.freshness.maxAge)
            return magic + (try RecordJSON.encode(header)) + [0x0A] + record.payload
        }
    }

    /// Moves a `v1` cache at `old` into this store: each whole record appended to the packs,
    /// each sprite file renamed into `sprites/` (a damaged record is left behind, as reading it
    /// would have dropped it); then `old` is removed. A move cut short is taken up again at
    /// the next open: nothing in `old` is removed before it is in `v2`.
    func migrateVersion1(from old: String) throws {
        var st = stat()
        guard lstat(old, &st) == 0, st.st_mode & S_IFMT == S_IFDIR else { return }
        try FileIO.checkPrivate(old, what: "the cache directory")
        let oldRecords = old + "/records", oldSprites = old + "/sprites"
        for name in try FileIO.names(in: oldSprites) where !FileIO.isTemporary(name) && FileIO.fileInfo(spritePath(name)) == nil {
            _ = adoptSprite(name, from: oldSprites + "/" + name)
        }
        for name in try FileIO.names(in: oldRecords) where name.hasSuffix(".rec") && !FileIO.isTemporary(name) {
            guard let bytes = FileIO.readFile(oldRecords + "/" + name), let (key, record) = Version1.decode(bytes),
                  readRecord(key) == nil else { continue }
            try writeRecord(key, record)
        }
        for dir in [oldRecords, oldSprites] {
            for name in try FileIO.names(in: dir) { FileIO.removeFile(dir + "/" + name) }
            rmdir(dir)
        }
        rmdir(old)
    }
}
