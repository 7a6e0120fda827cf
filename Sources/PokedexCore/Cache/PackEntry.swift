import FoundationEssentials

/// One entry of a pack file (``PackSegment``): a record, or the mark that a key was removed.
///
/// Little-endian, a fixed head of 40 bytes, then the key, the ETag and the payload:
///
///     0  "PXR1"           4  flags (1: removed, 2: has an ETag)   5  0
///     6  key length (u16) 8  ETag length (u16)                    10 0 0
///     12 payload length (u32)                 16 payload CRC-32
///     20 fetched at (f64, seconds since 1970) 28 max-age (f64, seconds)
///     36 CRC-32 of bytes 0..<36, the key and the ETag
///
/// The head's own checksum lets a scan trust the lengths it steps by without reading any
/// payload; the payload's is checked when the payload is read.
struct PackEntry: Equatable {
    static let magic: [UInt8] = Array("PXR1".utf8)
    static let headSize = 40
    /// Keys are short (`names-ability/…`); a longer one is refused, and in a file it is damage.
    static let maxKeyBytes = 1024
    static let maxETagBytes = 1024
    /// As ``FileIO/defaultMaxRead``: far over any record the service writes.
    static let maxPayloadBytes = FileIO.defaultMaxRead

    private static let removedFlag: UInt8 = 1
    private static let etagFlag: UInt8 = 2

    var key: String
    /// Nil for the mark that `key` was removed.
    var freshness: Freshness?
    var payloadLength: Int
    var payloadCRC: UInt32

    var isRemoval: Bool { freshness == nil }
    /// Where the payload starts, from the entry's start.
    var payloadOffset: Int { Self.headSize + key.utf8.count + (freshness?.etag?.utf8.count ?? 0) }
    /// The whole entry's bytes.
    var length: Int { payloadOffset + payloadLength }

    /// A whole entry, ready to append, and what its head says; nil when the key or the ETag is
    /// over its cap or the payload is.
    static func encode(key: String, _ record: StoredRecord) -> (entry: PackEntry, bytes: [UInt8])? {
        encode(key: key, freshness: record.freshness, payload: record.payload)
    }

    /// The mark that `key` was removed, so an older entry for it is not read again after a restart.
    static func removal(of key: String) -> [UInt8]? { encode(key: key, freshness: nil, payload: [])?.bytes }

    private static func encode(key: String, freshness: Freshness?, payload: [UInt8]) -> (entry: PackEntry, bytes: [UInt8])? {
        let etag = freshness?.etag.map { Array($0.utf8) } ?? []
        let keyCount = key.utf8.count
        guard (1...maxKeyBytes).contains(keyCount), etag.count <= maxETagBytes, payload.count <= maxPayloadBytes else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(headSize + keyCount + etag.count + payload.count)
        out += magic
        out.append(freshness == nil ? removedFlag : freshness?.etag == nil ? 0 : etagFlag)
        out.append(0)
        append16(&out, UInt16(keyCount))
        append16(&out, UInt16(etag.count))
        append16(&out, 0)
        let payloadCRC = CRC32.checksum(payload)
        append32(&out, UInt32(payload.count))
        append32(&out, payloadCRC)
        append64(&out, (freshness?.fetchedAt.timeIntervalSince1970 ?? 0).bitPattern)
        append64(&out, (freshness?.maxAge ?? 0).bitPattern)
        append32(&out, 0)  // the head's checksum, once the key and the ETag are in
        out.append(contentsOf: key.utf8)
        out += etag
        let headCRC = CRC32.checksum(out[headSize...], continuing: CRC32.checksum(out[0..<36]))
        withUnsafeBytes(of: headCRC.littleEndian) { out.replaceSubrange(36..<40, with: $0) }
        out += payload
        // As a head read back gives it: a date through seconds since 1970 is not always the same date.
        let read = freshness.map { Freshness(etag: $0.etag, fetchedAt: Date(timeIntervalSince1970: $0.fetchedAt.timeIntervalSince1970), maxAge: $0.maxAge) }
        return (PackEntry(key: key, freshness: read, payloadLength: payload.count, payloadCRC: payloadCRC), out)
    }

    /// The lengths a head says: the key's, the ETag's, the payload's; nil when the first 40
    /// bytes are not an entry's head (no magic, a length over its cap).
    static func lengths(ofHead head: UnsafeRawBufferPointer) -> (key: Int, etag: Int, payload: Int)? {
        guard head.count >= headSize, head.prefix(4).elementsEqual(magic) else { return nil }
        let key = Int(read16(head, 6)), etag = Int(read16(head, 8)), payload = Int(read32(head, 12))
        guard (1...maxKeyBytes).contains(key), etag <= maxETagBytes, payload <= maxPayloadBytes else { return nil }
        return (key, etag, payload)
    }

    /// The entry whose head, key and ETag are `bytes` (at least ``payloadOffset`` of them); nil
    /// when the head's checksum fails or the key is not UTF-8.
    static func parse(_ bytes: UnsafeRawBufferPointer) -> PackEntry? {
        guard let (keyCount, etagCount, payload) = lengths(ofHead: bytes), bytes.count >= headSize + keyCount + etagCount else { return nil }
        let rest = UnsafeRawBufferPointer(rebasing: bytes[headSize..<(headSize + keyCount + etagCount)])
        guard CRC32.checksum(rest, continuing: CRC32.checksum(UnsafeRawBufferPointer(rebasing: bytes[0..<36]))) == read32(bytes, 36),
              let key = String(validating: rest.prefix(keyCount), as: UTF8.self) else { return nil }
        let flags = bytes[4]
        guard flags & removedFlag == 0 else { return PackEntry(key: key, freshness: nil, payloadLength: payload, payloadCRC: read32(bytes, 16)) }
        let etag = flags & etagFlag == 0 ? nil : String(decoding: rest.suffix(etagCount), as: UTF8.self)
        let freshness = Freshness(etag: etag, fetchedAt: Date(timeIntervalSince1970: Double(bitPattern: read64(bytes, 20))),
                                  maxAge: Double(bitPattern: read64(bytes, 28)))
        return PackEntry(key: key, freshness: freshness, payloadLength: payload, payloadCRC: read32(bytes, 16))
    }

    private static func append16(_ out: inout [UInt8], _ v: UInt16) { withUnsafeBytes(of: v.littleEndian) { out += $0 } }
    private static func append32(_ out: inout [UInt8], _ v: UInt32) { withUnsafeBytes(of: v.littleEndian) { out += $0 } }
    private static func append64(_ out: inout [UInt8], _ v: UInt64) { withUnsafeBytes(of: v.littleEndian) { out += $0 } }
    private static func read16(_ b: UnsafeRawBufferPointer, _ at: Int) -> UInt16 { UInt16(littleEndian: b.loadUnaligned(fromByteOffset: at, as: UInt16.self)) }
    private static func read32(_ b: UnsafeRawBufferPointer, _ at: Int) -> UInt32 { UInt32(littleEndian: b.loadUnaligned(fromByteOffset: at, as: UInt32.self)) }
    private static func read64(_ b: UnsafeRawBufferPointer, _ at: Int) -> UInt64 { UInt64(littleEndian: b.loadUnaligned(fromByteOffset: at, as: UInt64.self)) }
}
