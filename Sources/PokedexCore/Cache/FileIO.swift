#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import FoundationEssentials
import PokedexLocks

/// Small POSIX file helpers: private modes, atomic replace, durable writes.
public enum FileIO {
    /// Creates `path` and its parents with mode 0700 where missing.
    public static func makeDirectory(_ path: String) throws {
        var current = ""
        for part in path.split(separator: "/") {
            current += "/" + part
            if mkdir(current, 0o700) != 0 && errno != EEXIST {
                throw PokedexError.storage("cannot create directory \(current): \(errnoText())")
            }
        }
    }

    /// Refuses a directory the service keeps its files in, unless it is a directory this user
    /// owns and nobody else can write to: in one that others can write, they could swap a
    /// record or plant a link between a check and a use.
    /// - Parameter what: for the message: "the cache directory", "the data directory".
    public static func checkPrivate(_ path: String, what: String) throws(PokedexError) {
        var st = Glibc.stat()
        guard stat(path, &st) == 0 else { throw .storage("cannot use \(what) \(path): \(errnoText())") }
        guard st.st_mode & S_IFMT == S_IFDIR else { throw .storage("cannot use \(what) \(path): it is not a directory") }
        guard st.st_uid == geteuid() else {
            throw .storage("refusing \(what) \(path): it belongs to uid \(st.st_uid), not to this user (uid \(geteuid()))")
        }
        guard st.st_mode & 0o022 == 0 else {
            throw .storage("refusing \(what) \(path): group or others can write to it (mode \(String(st.st_mode & 0o7777, radix: 8))); "
                + "fix it with 'chmod go-w \(path)'")
        }
    }

    /// The most ``readFile(_:maxBytes:)`` reads unless told otherwise: far over any record,
    /// sprite or favorites file the service writes.
    public static let defaultMaxRead = 16 << 20

    /// Opens `path` for reading if it is a regular file, without following a link and without
    /// blocking on a FIFO; -1 for anything else.
    private static func openRegular(_ path: String) -> (fd: Int32, size: Int) {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        guard fd >= 0 else { return (-1, 0) }
        var st = Glibc.stat()
        guard fstat(fd, &st) == 0, st.st_mode & S_IFMT == S_IFREG else { close(fd); return (-1, 0) }
        return (fd, Int(st.st_size))
    }

    /// Reads a whole file, or nil if it is missing, unreadable, not a regular file (a link, a
    /// FIFO, a device) or larger than `maxBytes`.
    public static func readFile(_ path: String, maxBytes: Int = defaultMaxRead) -> [UInt8]? {
        let (fd, size) = openRegular(path)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        guard size <= maxBytes else { return nil }
        var out = [UInt8](repeating: 0, count: size)
        var done = 0
        while done < out.count {
            let n = out.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + done, $0.count - done) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return nil }
            done += n
        }
        return out
    }

    /// Reads at most the first `count` bytes of a file, or nil if it is missing or unreadable.
    ///
    /// Buffers are sized by the file, not by `count`: the favorites list, a few hundred bytes
    /// read again at each change under a 4 MiB cap, was read into 4 MiB zeroed for the purpose.
    public static func readPrefix(_ path: String, count: Int) -> [UInt8]? {
        let (fd, _) = openRegular(path)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var st = stat()
        let expected = fstat(fd, &st) == 0 ? min(max(Int(st.st_size), 0), count) : 0
        var out: [UInt8] = []
        out.reserveCapacity(expected)
        // One byte past what fstat said, so a file that grew since is seen to go on.
        var buffer = [UInt8](repeating: 0, count: min(count, expected + 1, 1 << 16))
        while out.count < count {
            let want = min(buffer.count, count - out.count)
            let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress!, want) }
            if n < 0 && errno == EINTR { continue }
            guard n >= 0 else { return nil }
            if n == 0 { break }
            out.append(contentsOf: buffer[0..<n])
        }
        return out
    }

    private static let counter = Mutex(0)

    /// Writes all of `bytes` to `fd`, finishing short writes and retrying on EINTR; false (with
    /// errno set) when a write fails.
    public static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        var done = 0
        while done < bytes.count {
            let w = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + done, $0.count - done) }
            if w < 0 && errno == EINTR { continue }
            guard w > 0 else { return false }
            done += w
        }
        return true
    }

    /// `path`'s directory and last component, as `dirname` and `basename` split them
    /// ("/a/b" is "/a" and "b"; "b" is "." and "b"; "/b" is "/" and "b").
    static func splitPath(_ path: String) -> (directory: String, name: String) {
        var trimmed = Substring(path)
        while trimmed.count > 1, trimmed.last == "/" { trimmed = trimmed.dropLast() }
        guard let slash = trimmed.lastIndex(of: "/") else { return (".", String(trimmed)) }
        let name = String(trimmed[trimmed.index(after: slash)...])
        var dir = trimmed[..<slash]
        while dir.count > 1, dir.last == "/" { dir = dir.dropLast() }
        return (dir.isEmpty ? "/" : String(dir), name)
    }

    /// Writes `bytes` to `path` atomically: an unnamed file in the same directory linked in
    /// under its name once whole, or, replacing a file (or where unnamed files cannot be made),
    /// a temporary file then `rename`. With `durable`, the file and then the directory are
    /// fsynced, so once this returns the new content survives a crash or power loss. Files are
    /// created 0600.
    public static func writeAtomically(_ bytes: [UInt8], to path: String, durable: Bool) throws {
        let (dir, base) = splitPath(path)
        if unnamedFilesWork.withLock({ $0 }), try writeUnnamed(bytes, to: path, in: dir, base: base, durable: durable) { return }
        // A new file of our own: O_EXCL fails on anything already there (a leftover, or a link
        // planted to make us write elsewhere), and O_NOFOLLOW refuses a link outright.
        var tmp = ""
        var fd: Int32 = -1
        for _ in 0..<4 {
            tmp = temporaryName(dir: dir, base: base)
            fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
            if fd >= 0 || errno != EEXIST { break }
        }
        guard fd >= 0 else { throw PokedexError.storage("cannot write \(path): \(errnoText())") }
        var ok = false
        defer {
            if !ok { unlink(tmp) }
        }
        guard writeAll(fd, bytes) else {
            let why = errnoText()
            close(fd)
            throw PokedexError.storage("cannot write \(path): \(why)")
        }
        if durable && fsync(fd) != 0 {
            let why = errnoText()
            close(fd)
            throw PokedexError.storage("cannot sync \(path): \(why)")
        }
        guard close(fd) == 0 else { throw PokedexError.storage("cannot write \(path): \(errnoText())") }
        guard rename(tmp, path) == 0 else { throw PokedexError.storage("cannot replace \(path): \(errnoText())") }
        ok = true
        if durable {
            let dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            if dfd >= 0 { fsync(dfd); close(dfd) }
        }
    }

    /// Whether unnamed files (`O_TMPFILE`, linked in through `/proc/self/fd`) work here; false
    /// once they did not (a filesystem without them, no `/proc`), for the rest of the process.
    /// (Internal: a test takes the named way.)
    static let unnamedFilesWork = Mutex(true)

    /// `O_TMPFILE`, which Swift does not import (a macro of a macro): `__O_TMPFILE` is the same
    /// on every Linux architecture, `O_DIRECTORY` is not.
    private static let openUnnamed: Int32 = 0o20000000 | O_DIRECTORY

    /// ``writeAtomically(_:to:durable:)`` through an unnamed file: a sync makes 7,000 files in
    /// one directory, and a temporary name made and renamed away cost three changes of that
    /// directory a file, a tenth of the sync's CPU in ext4; linking an unnamed file in is one.
    /// False, having written nothing under any name, where unnamed files cannot be made here.
    private static func writeUnnamed(_ bytes: [UInt8], to path: String, in dir: String, base: String, durable: Bool) throws -> Bool {
        let fd = open(dir, openUnnamed | O_WRONLY | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            // A filesystem or kernel without them; any other failure the named way says again.
            if errno == EOPNOTSUPP || errno == EISDIR || errno == EINVAL { unnamedFilesWork.withLock { $0 = false } }
            return false
        }
        defer { close(fd) }
        guard writeAll(fd, bytes) else { throw PokedexError.storage("cannot write \(path): \(errnoText())") }
        if durable && fsync(fd) != 0 { throw PokedexError.storage("cannot sync \(path): \(errnoText())") }
        let source = "/proc/self/fd/\(fd)"
        // linkat makes the name only where nothing has it, and never follows a link there.
        if linkat(AT_FDCWD, source, AT_FDCWD, path, AT_SYMLINK_FOLLOW) != 0 {
            guard errno == EEXIST else {
                unnamedFilesWork.withLock { $0 = false }  // no /proc: the named way from now on
                return false
            }
            // A file is being replaced: linked in under a temporary name, renamed over it.
            var tmp = ""
            var linked = false
            for _ in 0..<4 {
                tmp = temporaryName(dir: dir, base: base)
                linked = linkat(AT_FDCWD, source, AT_FDCWD, tmp, AT_SYMLINK_FOLLOW) == 0
                if linked || errno != EEXIST { break }
            }
            guard linked else { throw PokedexError.storage("cannot write \(path): \(errnoText())") }
            guard rename(tmp, path) == 0 else {
                let why = errnoText()
                unlink(tmp)
                throw PokedexError.storage("cannot replace \(path): \(why)")
            }
        }
        if durable {
            let dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            if dfd >= 0 { fsync(dfd); close(dfd) }
        }
        return true
    }

    /// A temporary file's name beside `base`: `.NAME.tmp.PID.N.RANDOM`, the writer's pid in it
    /// (``isAbandonedTemporary(_:)``).
    private static func temporaryName(dir: String, base: String) -> String {
        let n: Int = counter.withLock { $0 += 1; return $0 }
        return "\(dir)/.\(base).tmp.\(getpid()).\(n).\(UInt32.random(in: 0...UInt32.max))"
    }

    /// Whether a name is a temporary file left by an interrupted ``writeAtomically(_:to:durable:)``.
    public static func isTemporary(_ name: String) -> Bool { name.hasPrefix(".") && name.contains(".tmp.") }

    /// Whether `name` is a temporary file whose writer is gone (killed mid-write): its name
    /// carries the writer's pid, and no process has that pid now.
    public static func isAbandonedTemporary(_ name: String) -> Bool {
        guard isTemporary(name) else { return false }
        // `.NAME.tmp.PID.N.RANDOM` (see ``writeAtomically(_:to:durable:)``): the writer's pid
        // follows "tmp".
        let parts = name.split(separator: ".")
        guard let tmp = parts.lastIndex(of: "tmp"), tmp + 1 < parts.count, let pid = Int32(parts[tmp + 1]) else { return true }
        return pid != getpid() && kill(pid, 0) != 0 && errno == ESRCH
    }

    /// Removes the temporary files that writers killed mid-write left in `directory`.
    public static func removeAbandonedTemporaries(in directory: String) {
        for name in (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [] where isAbandonedTemporary(name) {
            removeFile(directory + "/" + name)
        }
    }

    /// The names in a directory, without `.` and `..`; empty when it does not exist.
    public static func names(in directory: String) throws(PokedexError) -> [String] {
        guard let d = opendir(directory) else {
            if errno == ENOENT { return [] }
            throw .storage("cannot read \(directory): \(errnoText())")
        }
        defer { closedir(d) }
        var out: [String] = []
        while let entry = readdir(d) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name != "." && name != ".." { out.append(name) }
        }
        return out
    }

    /// Size and modification time, or nil if missing.
    public static func fileInfo(_ path: String) -> (size: Int, mtime: Double)? {
        var st = Glibc.stat()
        guard lstat(path, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else { return nil }
        return (Int(st.st_size), Double(st.st_mtim.tv_sec) + Double(st.st_mtim.tv_nsec) / 1e9)
    }

    /// Sets a file's modification time to now (LRU bookkeeping across restarts).
    public static func touch(_ path: String) { utimensat(AT_FDCWD, path, nil, 0) }

    /// Removes a file; false when it is still there (`errnoText()` says why).
    @discardableResult
    public static func removeFile(_ path: String) -> Bool { unlink(path) == 0 || errno == ENOENT }

    static func errnoText() -> String { String(cString: strerror(errno)) }
}
