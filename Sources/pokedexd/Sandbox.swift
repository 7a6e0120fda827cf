import PokedexCore
import PokedexEventLoop
import PokedexModels
import Glibc
import CLandlock

/// How the service confines itself, in the order the main calls it: Landlock before any other
/// thread exists, then, once every Unix socket it needs is open, no new ones.
enum Sandbox {
    /// Drops every capability, then applies Landlock as the configuration asks (`--landlock`),
    /// and records in the configuration what is in effect, for `Status` and the start-up line.
    static func confine(_ config: inout ServiceConfiguration, localeDirectory: String?,
                        environment: [String: String], log: Logger) {
        // The service needs none; as root they would open what Landlock shuts (other
        // processes' environ and maps, through CAP_SYS_ADMIN or CAP_PERFMON).
        let dropped = pdx_drop_capabilities()
        if dropped < 0 { log(.warning, "sandbox: cannot drop capabilities: \(String(cString: strerror(-dropped)))") }
        config.sandbox = config.landlock
            ? Landlock.apply(Landlock.policy(config, localeDirectory: localeDirectory,
                                             environment: environment), log: log)
            : SandboxStatus(missing: [ServiceMessages.landlockOff], namespaces: Landlock.ownUserNamespace())
        if environment["POKEDEX_SANDBOX_FALLBACK"] == "1" {
            config.sandbox.fallback = true
            log(.warning, "running as pokedex-fallback.service: pokedex.service could not start with its namespace sandbox "
                + "(has the kernel stopped allowing user namespaces? 'journalctl --user -u pokedex' says why); Landlock alone confines "
                + "the service until the next login tries the namespaces again, or run pokedex-sandbox-setup to install only what applies")
        }
    }

    /// What the sandbox cannot confine when the service runs as root, said once after the
    /// start line; nil as a user.
    static var asRoot: String? {
        geteuid() == 0 ? "running as root: the sandbox drops every capability and confines files, TCP and sockets, but the "
            + "process keeps what root owns that no rule names (System V IPC objects, for one); run pokedexd as a user "
            + "(systemctl --user), as its unit does" : nil
    }

    /// Where Landlock confines the files, hands the manager's notify socket to a process of
    /// its own and refuses the service new Unix sockets (seccomp), the last door closed; then
    /// runs the tests' self-check (`POKEDEX_SANDBOX_SELFCHECK`), if asked.
    static func closeUnixSockets(_ config: inout ServiceConfiguration, manager: ServiceManager,
                                 environment: [String: String], log: Logger) {
        if config.sandbox.restricted.contains("files") {
            if let why = UnixSocketFilter.handOverNotifySocket(manager) {
                log(.warning, "sandbox: the service manager's notify socket stays in the service: \(why)")
            }
            if let why = UnixSocketFilter.apply() {
                log(.warning, "sandbox: cannot refuse new unix sockets: \(why)")
            } else {
                config.sandbox.unixSocketsClosed = true
            }
        }
        if let checks = environment["POKEDEX_SANDBOX_SELFCHECK"], !checks.isEmpty {
            SandboxSelfCheck.run(checks, report: config.cacheDirectory + "/sandbox-self-check", log: log)
        }
    }
}

/// glibc's allocator, tuned for a service that holds a few large messages at times.
enum Heap {
    static func tune() {
        // A fixed mmap threshold: a rare 1 MB message is mmapped and handed back on free,
        // instead of glibc raising the threshold and keeping such blocks in the heap for good.
        _ = glibcMallopt(-3 /* M_MMAP_THRESHOLD */, 128 * 1024)
        // Two heaps, not eight per core: the pool's threads take turns decoding bodies, and
        // each heap of its own would keep its high-water mark (600 calls at once: 66 → 5x MiB).
        _ = glibcMallopt(-8 /* M_ARENA_MAX */, 2)
    }

    /// Hands the heaps' free pages back to the kernel. After a sync, a block still in use near a
    /// heap's top keeps the free megabytes below it resident for good (1.2 MiB of the release
    /// build after a sync of the tests' mock PokeAPI, 4 MiB of the debug build in FuzzTests); a sync is rare, and this takes milliseconds.
    @Sendable static func trim() {
        _ = glibcMallocTrim(0)
    }
}

/// glibc's `malloc_trim(3)`.
@_silgen_name("malloc_trim")
func glibcMallocTrim(_ pad: Int) -> Int32

/// glibc's `mallopt(3)` (malloc.h is not part of the Glibc module).
@_silgen_name("mallopt")
func glibcMallopt(_ parameter: Int32, _ value: Int32) -> Int32
