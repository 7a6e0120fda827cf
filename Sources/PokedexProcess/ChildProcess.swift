import Glibc

/// `posix_spawn` for pokedexd's session launcher and pokectl's cry player: the child gets
/// /dev/null on 0 and 1, the caller's stderr on 2 (the journal, for the service) or /dev/null,
/// no other descriptor, an empty signal mask and every signal at its default, whatever the
/// caller blocks or ignores.
public enum ChildProcess {
    /// Starts `argv` (`argv[0]` a path) with the caller's environment and `setenv` on top;
    /// its pid, or nil with `errno` set. `detached`: in a session of its own, with /dev/null
    /// on stderr too, so it outlives its caller's terminal and writes nothing on it.
    public static func spawn(_ argv: [String], setenv: [String: String] = [:], detached: Bool = false) -> pid_t? {
        var cArgs = argv.map { strdup($0) } + [nil]
        defer { cArgs.forEach { free($0) } }
        var inherited: [String] = []
        var e = environ
        while let p = e.pointee {
            let entry = String(cString: p)
            let name = entry.split(separator: "=", maxSplits: 1).first.map(String.init) ?? entry
            if setenv[name] == nil { inherited.append(entry) }
            e += 1
        }
        var cEnv = (inherited + setenv.sorted { $0.key < $1.key }.map { $0.key + "=" + $0.value }).map { strdup($0) } + [nil]
        defer { cEnv.forEach { free($0) } }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        if detached { posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0) }
        // The bus socket, the eventfd, curl's sockets, the cache's files: none goes along.
        _ = spawnCloseFrom(&actions, 3)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        var all = sigset_t()
        sigemptyset(&all)
        for signo in 1..<Int32(65) where signo != SIGKILL && signo != SIGSTOP { sigaddset(&all, signo) }
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | (detached ? spawnSetSID : 0)))
        var pid: pid_t = 0
        let r = posix_spawn(&pid, argv[0], &actions, &attributes, &cArgs, &cEnv)
        guard r == 0 else {
            errno = r
            return nil
        }
        return pid
    }
}

/// glibc's `POSIX_SPAWN_SETSID` (2.26; not in the Glibc module): the child starts a session.
private let spawnSetSID: Int32 = 0x80

/// glibc 2.34's `posix_spawn_file_actions_addclosefrom_np` (not in the Glibc module).
@_silgen_name("posix_spawn_file_actions_addclosefrom_np")
private func spawnCloseFrom(_ actions: UnsafeMutablePointer<posix_spawn_file_actions_t>, _ from: Int32) -> Int32
