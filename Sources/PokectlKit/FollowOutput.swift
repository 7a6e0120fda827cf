import Glibc

/// The output of a command that follows the service (`watch`, `widget --follow`): it ends when
/// its reader goes away, which it can only see if no other end of its pipe stays open.
enum FollowOutput {
    /// Closes every descriptor this process holds on the read end of its own stdout pipe.
    ///
    /// A bar can leak that end into the programs it starts: Waybar 0.9 gives its child the
    /// pipe's read end as well as the write end (fd 12 beside fd 1). The child then holds the
    /// pipe open for reading itself, the pipe never breaks when the bar exits or restarts, and
    /// a follower would wait for good: the leftover processes of issue 39.
    static func closeLeakedReadEnds() {
        var out = stat()
        guard fstat(STDOUT_FILENO, &out) == 0, out.st_mode & S_IFMT == S_IFIFO, let dir = opendir("/proc/self/fd") else { return }
        var leaked: [Int32] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard let fd = Int32(name), fd > STDERR_FILENO, fd != dirfd(dir) else { continue }
            var s = stat()
            guard fstat(fd, &s) == 0, s.st_dev == out.st_dev, s.st_ino == out.st_ino,
                  fcntl(fd, F_GETFL) & O_ACCMODE == O_RDONLY else { continue }
            leaked.append(fd)
        }
        closedir(dir)
        for fd in leaked { close(fd) }
    }
}
