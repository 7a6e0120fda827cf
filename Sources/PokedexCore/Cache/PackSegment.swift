#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials

/// One pack file of the disk tier, `records/NNNNNNNN.pack`: ``PackEntry``s appended one after
/// another, never changed in place. The store appends to the newest; an older one is read
/// until its live entries are copied forward and it is removed (``FileCacheStore``).
///
/// The descriptor lives as long as the object, so a reader holding a segment reads it even
/// while the store removes its file.
final class PackSegment: @unchecked Sendable {
    // @unchecked: `size` and `live` change only under the store's lock; the rest is constant.
    let number: Int
    let path: String
    private let fd: Int32
    /// Bytes in the file.
    var size: Int
    /// Bytes of its entries that the store still reads.
    var live = 0
    /// When it was last written: the recency of its entries after a restart.
    let modified: Double

    private init(number: Int, path: String, fd: Int32, size: Int, modified: Double) {
        self.number = number
        self.path = path
        self.fd = fd
        self.size = size
        self.modified = modified
    }

    deinit { close(fd) }

    static let suffix = ".pack"

    /// `00000012.pack` for 12.
    static func name(_ number: Int) -> String {
        let digits = String(number)
        return String(repeating: "0", count: max(0, 8 - digits.count)) + digits + suffix
    }

    /// 12 for `00000012.pack`; nil for any other name.
    static func number(ofName name: String) -> Int? {
        guard name.hasSuffix(suffix) else { return nil }
        let stem = name.dropLast(suffix.count)
        guard stem.count == 8, stem.allSatisfy(\.isASCII), let n = Int(stem), n >= 0 else { return nil }
        return n
    }

    /// Opens an existing segment for reading and appending; nil if it is not a regular file.
    static func open(_ directory: String, number: Int) -> PackSegment? {
        let path = directory + "/" + name(number)
        let fd = Glibc.open(path, O_RDWR | O_APPEND | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        guard fd >= 0 else { return nil }
        var st = stat()
        guard fstat(fd, &st) == 0, st.st_mode & S_IFMT == S_IFREG else { close(fd); return nil }
        let modified = Double(st.st_mtim.tv_sec) + Double(st.st_mtim.tv_nsec) / 1e9
        return PackSegment(number: number, path: path, fd: fd, size: Int(st.st_size), modified: modified)
    }

    /// Every segment in `directory`, oldest first (the order their entries are read in: a
    /// key's newest entry is its record).
    static func openAll(_ directory: String) -> [PackSegment] {
        ((try? FileIO.names(in: directory)) ?? []).compactMap(number(ofName:)).sorted().compactMap { open(directory, number: $0) }
    }

    /// Creates segment `number`, 0600; nil when a file has that name already.
    static func create(_ directory: String, number: Int) throws(PokedexError) -> PackSegment? {
        let path = directory + "/" + name(number)
        let fd = Glibc.open(path, O_RDWR | O_APPEND | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else {
            if errno == EEXIST { return nil }
            throw .storage("cannot create \(path): \(FileIO.errnoText())")
        }
        return PackSegment(number: number, path: path, fd: fd, size: 0, modified: Date().timeIntervalSince1970)
    }

    /// Appends a whole entry in one write; where it starts.
    func append(_ bytes: [UInt8]) throws(PokedexError) -> Int {
        guard FileIO.writeAll(fd, bytes) else {
            let why = FileIO.errnoText()
            // A short write leaves part of an entry: cut it off, so the next one starts clean.
            ftruncate(fd, off_t(size))
            throw .storage("cannot write \(path): \(why)")
        }
        // O_APPEND wrote at the end, wherever that was: the descriptor's offset says.
        let end = Int(lseek(fd, 0, SEEK_CUR))
        size = max(size, end)
        return end - bytes.count
    }

    /// `count` bytes from `offset`; nil when the file ends first or cannot be read.
    func read(at offset: Int, count: Int) -> [UInt8]? {
        guard count >= 0, offset >= 0 else { return nil }
        var failed = false
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            var done = 0
            while done < count {
                let n = pread(fd, buffer.baseAddress! + done, count - done, off_t(offset + done))
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { failed = true; break }
                done += n
            }
            initialized = failed ? 0 : count
        }
        return failed ? nil : bytes
    }

    /// Walks the entries from the start, as they are on disk now; returns where the last whole
    /// one ends. Past damage (a head that fails its checksum, an entry the file ends inside) it
    /// looks for the next whole head and goes on from there: a payload, JSON, never holds the
    /// NUL bytes a head does, so none is taken for one.
    @discardableResult
    func scan(_ visit: (PackEntry, _ offset: Int) -> Void) -> Int {
        var st = stat()
        let end = fstat(fd, &st) == 0 ? Int(st.st_size) : 0
        var offset = 0, wholeEnd = 0
        while offset + PackEntry.headSize <= end {
            if let entry = entry(at: offset, fileEnd: end) {
                visit(entry, offset)
                offset += entry.length
                wholeEnd = offset
            } else if let next = nextHead(after: offset, fileEnd: end) {
                offset = next
            } else {
                break
            }
        }
        return wholeEnd
    }

    /// The whole entry at `offset`, or nil.
    private func entry(at offset: Int, fileEnd end: Int) -> PackEntry? {
        // A head with its key and ETag fits in one read nearly always.
        guard var bytes = read(at: offset, count: min(512, end - offset)),
              let (key, etag, payload) = bytes.withUnsafeBytes({ PackEntry.lengths(ofHead: $0) }) else { return nil }
        let headEnd = PackEntry.headSize + key + etag
        guard offset + headEnd + payload <= end else { return nil }
        if headEnd > bytes.count {
            guard let more = read(at: offset, count: headEnd) else { return nil }
            bytes = more
        }
        return bytes.withUnsafeBytes { PackEntry.parse($0) }
    }

    /// Where the next whole entry after `offset` starts, or nil.
    private func nextHead(after offset: Int, fileEnd end: Int) -> Int? {
        var from = offset + 1
        let chunk = 64 << 10
        while from + PackEntry.headSize <= end {
            guard let bytes = read(at: from, count: min(chunk, end - from)) else { return nil }
            var i = 0
            while let hit = bytes[i...].firstIndex(of: PackEntry.magic[0]) {
                if hit + 4 <= bytes.count, bytes[hit..<(hit + 4)].elementsEqual(PackEntry.magic), entry(at: from + hit, fileEnd: end) != nil {
                    return from + hit
                }
                i = hit + 1
            }
            // The magic may straddle two chunks.
            from += max(1, bytes.count - 3)
        }
        return nil
    }

    /// Cuts off what follows `length` (a torn last entry).
    func truncate(to length: Int) {
        if ftruncate(fd, off_t(length)) == 0 { size = length }
    }
}
