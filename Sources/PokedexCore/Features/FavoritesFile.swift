#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials
import PokedexModels
import PokedexNetwork

/// `$XDG_DATA_HOME/pokedex/favorites.json`: written to a temporary file, fsynced, renamed over
/// the old one, and the directory fsynced, so a kill -9 at any instant leaves either the old
/// list or the new one.
///
/// What is at that path decides what is done, and nothing is ever read as an empty list or
/// replaced in silence:
/// - a regular file is read; a damaged one keeps every entry that can be read, and its
///   original is kept beside it under a name no other copy has (``FavoritesNotice``);
/// - a symbolic link is followed to a regular file of this user's inside the data folder (the
///   only place the sandbox lets the service write), and written through, so the link stays;
/// - anything else (a link out of the folder or to nothing, a directory, a FIFO, a socket, a
///   device, a file that cannot be read) is left alone: the list is unavailable, the reason is
///   the problem `Status` shows, and a change is refused with that reason.
public struct FileFavoritesPersistence: FavoritesPersistence {
    public let path: String
    private let directory: String
    private let log: Logger
    /// How long another writer's lock on the folder is waited for (``FolderLock``).
    var lockPatience: Duration = .seconds(5)

    public init(directory: String, log: @escaping Logger = { _, _ in }) throws {
        try FileIO.makeDirectory(directory)
        try FileIO.checkPrivate(directory, what: "the data directory")
        // A write that a kill -9 interrupted left its temporary file; the real one is intact.
        FileIO.removeAbandonedTemporaries(in: directory)
        self.directory = directory
        path = directory + "/favorites.json"
        self.log = log
    }

    /// Where the list is read from and written to, or why it cannot be.
    enum Location: Equatable {
        /// A regular file: `path`, or the file its link leads to.
        case file(String)
        /// Nothing there yet: the first change creates `path`.
        case missing
        /// Neither read nor written, for this reason (in the service's words).
        case refused(String)
    }

    func locate() -> Location {
        let M = ServiceMessages.self
        var st = Glibc.stat()
        guard lstat(path, &st) == 0 else {
            return errno == ENOENT ? .missing : .refused(M.format(M.favoritesUnreadable, path, FileIO.errnoText()))
        }
        switch st.st_mode & S_IFMT {
        case S_IFREG: return .file(path)
        case S_IFLNK: return follow()
        default: return Self.notAFile(path, st.st_mode)
        }
    }

    /// Refused: what is at `p` is not a regular file.
    private static func notAFile(_ p: String, _ mode: mode_t) -> Location {
        let M = ServiceMessages.self
        let kind = switch mode & S_IFMT {
        case S_IFDIR: M.favoritesDirectory
        case S_IFIFO: M.favoritesFIFO
        case S_IFSOCK: M.favoritesSocket
        default: M.favoritesDevice
        }
        return .refused(M.joined(M.format(M.favoritesNotAFile, p, kind), M.favoritesMoveAway))
    }

    /// A link: the regular file it leads to, if that is this user's and inside the data folder.
    private func follow() -> Location {
        let M = ServiceMessages.self
        guard let target = Self.realPath(path) else {
            return .refused(M.joined(M.format(M.favoritesDangling, path, Self.linkText(path)), M.favoritesMoveAway))
        }
        let root = Self.realPath(directory) ?? directory
        guard target.hasPrefix(root == "/" ? "/" : root + "/") else {
            return .refused(M.joined(M.format(M.favoritesLinkOutside, path, target), M.favoritesFixLink))
        }
        var st = Glibc.stat()
        guard lstat(target, &st) == 0 else { return .refused(M.format(M.favoritesUnreadable, target, FileIO.errnoText())) }
        guard st.st_mode & S_IFMT == S_IFREG else { return Self.notAFile(target, st.st_mode) }
        guard st.st_uid == geteuid() else {
            return .refused(M.format(M.favoritesNotOwned, target, String(st.st_uid)))
        }
        return .file(target)
    }

    public func load() -> LoadedFavorites {
        let M = ServiceMessages.self
        let file: String
        switch locate() {
        case .missing: return LoadedFavorites()
        case .refused(let why):
            log(.error, why)
            return LoadedFavorites(refused: why)
        case .file(let f): file = f
        }
        var st = Glibc.stat()
        guard let bytes = FileIO.readPrefix(file, count: FavoritesSalvage.maxBytes), lstat(file, &st) == 0 else {
            let why = M.format(M.favoritesUnreadable, file, FileIO.errnoText())
            log(.error, why)
            return LoadedFavorites(refused: why)
        }
        let (read, kept) = FavoritesSalvage.read(bytes)
        if read.sound && Int(st.st_size) <= FavoritesSalvage.maxBytes {
            return LoadedFavorites(favorites: read.favorites, notice: kept.flatMap { isKept($0) ? $0 : nil })
        }
        // Damaged: the original is kept beside it first, then what could be read replaces it.
        let damaged = M.format(M.favoritesDamaged, file, String(read.favorites.count), String(read.entries))
        let aside: String
        switch keepAside(file) {
        case .success(let a): aside = a
        case .failure(let e):
            let why = M.joined(damaged, M.format(M.favoritesNotKeptAside, e.message))
            log(.error, why)
            return LoadedFavorites(favorites: read.favorites, refused: why)
        }
        let notice = FavoritesNotice(text: M.joined(damaged, M.format(M.favoritesKeptAside, aside)), kept: aside)
        do {
            try write(read.favorites, notice, to: file)
        } catch {
            // The original is safe beside it; this list is kept in memory, and the next change
            // tries the write again.
            log(.error, "\(notice.text); cannot write the list that was kept: \(error)")
            return LoadedFavorites(favorites: read.favorites, notice: notice)
        }
        log(.error, notice.text)
        return LoadedFavorites(favorites: read.favorites, notice: notice)
    }

    public func save(_ favorites: [Favorite], notice: FavoritesNotice?) throws {
        switch locate() {
        case .missing: try write(favorites, notice, to: path)
        case .file(let f): try write(favorites, notice, to: f)
        case .refused(let why): throw PokedexError.storage(ServiceMessages.joined(why, ServiceMessages.favoritesUnchanged))
        }
    }

    /// The list read again and changed under an advisory lock on the data folder (`flock`),
    /// which every pokedexd on the same folder takes: two services (two sessions of one user, a
    /// container sharing the home) each make their change to what the other stored, and a list
    /// a person edited by hand (written, then renamed into place) is changed as it now is.
    public func update(_ change: ([Favorite]) throws(PokedexError) -> [Favorite]?) throws -> LoadedFavorites {
        let lock = try FolderLock(directory, patience: lockPatience)
        defer { lock.release() }
        return try FavoritesUpdate.apply(change, to: self)
    }

    public func isKept(_ notice: FavoritesNotice) -> Bool {
        var st = Glibc.stat()
        return lstat(notice.kept, &st) == 0
    }

    private func write(_ favorites: [Favorite], _ notice: FavoritesNotice?, to file: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let body = FavoritesSalvage.Body(version: 1, favorites: favorites, notice: notice)
        try FileIO.writeAtomically(Array(encoder.encode(body)) + [0x0A], to: file, durable: true)
    }

    /// Keeps `file` as it is under `file.damaged-YYYYMMDDTHHMMSSZ` (then `-2`, `-3`…): a hard
    /// link, made only where no file has that name, so two damaged files in one second each keep
    /// their own copy.
    private func keepAside(_ file: String) -> Result<String, PokedexError> {
        var t = time(nil)
        var tm = Glibc.tm()
        gmtime_r(&t, &tm)
        var buffer = [CChar](repeating: 0, count: 32)
        strftime(&buffer, buffer.count, "%Y%m%dT%H%M%SZ", &tm)
        let stem = "\(file).damaged-\(String(cString: buffer))"
        for n in 1...1000 {
            let name = n == 1 ? stem : "\(stem)-\(n)"
            if link(file, name) == 0 {
                let dfd = open(FileIO.splitPath(file).directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
                if dfd >= 0 { fsync(dfd); close(dfd) }
                return .success(name)
            }
            if errno != EEXIST { return .failure(.storage(FileIO.errnoText())) }
        }
        return .failure(.storage("1000 copies already have that name"))
    }

    private static func realPath(_ p: String) -> String? {
        guard let r = realpath(p, nil) else { return nil }
        defer { free(r) }
        return String(cString: r)
    }

    private static func linkText(_ p: String) -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let n = readlink(p, &buffer, buffer.count - 1)
        return n > 0 ? String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self) : "?"
    }
}

/// An exclusive `flock` on a folder, held while a writer reads and replaces a file in it.
/// Another holder is waited for a few seconds at most (a write takes milliseconds): one that
/// keeps it longer is named in the error, and nothing is changed.
struct FolderLock {
    private let fd: Int32

    init(_ directory: String, patience: Duration) throws(PokedexError) {
        fd = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else {
            throw PokedexError.storage(ServiceMessages.format(ServiceMessages.favoritesUnreadable, directory, FileIO.errnoText()))
        }
        let start = ContinuousClock.now
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            let waited = ContinuousClock.now - start
            guard errno == EWOULDBLOCK || errno == EINTR, waited < patience else {
                let why = errno == EWOULDBLOCK ? ServiceMessages.format(ServiceMessages.favoritesLocked, directory) : FileIO.errnoText()
                close(fd)
                throw PokedexError.storage(ServiceMessages.joined(why, ServiceMessages.favoritesUnchanged))
            }
            usleep(waited < .milliseconds(50) ? 1_000 : 20_000)
        }
    }

    /// Lets the next writer in (closing the folder drops the lock).
    func release() { close(fd) }
}
