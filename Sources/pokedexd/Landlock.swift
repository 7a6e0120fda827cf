import CLandlock
import FoundationEssentials
import Glibc
import PokedexCore

/// pokedexd confines itself with Landlock: a sandbox that needs no namespaces and no
/// privileges, so it holds wherever the service runs (a user manager that cannot set up
/// namespaces, a shell, a container). Applied once the configuration is known and before any
/// other thread exists: Landlock restricts the calling thread and what it starts.
enum Landlock {
    /// What the service may touch.
    struct Policy {
        /// Read-only: its libraries, the CA store, resolver and NSS files.
        var read: [String] = []
        /// Read-write: its cache and favorites directories.
        var readWrite: [String] = []
        /// Files it reads and writes (/dev/null).
        var readWriteFiles: [String] = []
        /// TCP ports it may connect to.
        var connectPorts: Set<UInt16> = []
    }

    /// The files every libcurl/glibc process reads: libraries, the CA store, the resolver's and
    /// NSS's files. Paths that do not exist are skipped; a link is followed to what it names.
    static let systemReads = [
        "/usr", "/lib", "/lib64", "/lib32", "/libx32", "/bin", "/sbin",
        "/etc/ssl", "/etc/pki", "/etc/ca-certificates", "/etc/crypto-policies", "/etc/gnutls",
        "/etc/resolv.conf", "/etc/hosts", "/etc/host.conf", "/etc/nsswitch.conf", "/etc/gai.conf",
        "/etc/services", "/etc/protocols", "/etc/passwd", "/etc/group", "/etc/localtime", "/etc/machine-id",
        "/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/ld.so.conf.d",
        "/dev/urandom", "/dev/random",
        // libdispatch reads /proc/self/task/TID/stat and traps when it cannot. A rule on
        // /proc/self would name one /proc/PID inode, which procfs may drop and make again:
        // the whole of /proc, read-only. Other processes' environ, maps and mem stay closed
        // (Landlock denies ptrace-mode access outside the domain, once the capabilities that
        // pass it are dropped: Sandbox.confine).
        "/proc",
    ]

    /// The policy for this configuration: the API's and sprites' ports, the two directories.
    static func policy(_ config: ServiceConfiguration, localeDirectory: String? = nil,
                       environment: [String: String]) -> Policy {
        var p = Policy()
        p.read = systemReads + (config.caFile.map { [$0] } ?? []) + (localeDirectory.map { [$0] } ?? [])
        p.readWrite = [config.cacheDirectory, config.dataDirectory]
        p.readWriteFiles = ["/dev/null"]
        // Nothing to execute: what it starts for the desktop, the user manager starts
        // (``TransientUnits``), outside this sandbox.
        // Exactly the ports the URLs name: the API's and the sprite template's, each its
        // scheme's when the URL names none; no scheme's default besides (the default API and
        // sprites are both https, 443).
        let urls = [config.apiURL, config.spriteURLTemplate?.replacing("{id}", with: "1")].compactMap { $0 }
        for url in urls {
            if let port = Self.port(url) { p.connectPorts.insert(port) }
        }
        // A proxy curl is told about in the environment is where every request goes first.
        for name in ["https_proxy", "HTTPS_PROXY", "http_proxy", "HTTP_PROXY", "all_proxy", "ALL_PROXY"] {
            if let v = environment[name], !v.isEmpty, let port = Self.port(v.contains("://") ? v : "http://" + v) { p.connectPorts.insert(port) }
        }
        return p
    }

    /// The URL's port, or its scheme's.
    static func port(_ url: String) -> UInt16? {
        guard let u = URLComponents(string: url), u.host != nil else { return nil }
        if let port = u.port { return UInt16(exactly: port) }
        switch u.scheme?.lowercased() {
        case "https": return 443
        case "http": return 80
        default: return nil
        }
    }

    /// Restricts this process to `policy` with every right this kernel's ABI has; says what it
    /// could not restrict. Never fails the start: without Landlock the service runs as before.
    static func apply(_ policy: Policy, log: Logger) -> SandboxStatus {
        var status = SandboxStatus(namespaces: ownUserNamespace())
        let abi = Int(pdx_landlock_abi())
        guard abi > 0 else {
            status.missing = [abi == -Int(EOPNOTSUPP) ? "landlock is disabled at boot (lsm=)"
                : abi == -Int(ENOSYS) ? ServiceMessages.landlockNotInKernel : "landlock refused: " + String(cString: strerror(Int32(-abi)))]
            return status
        }
        var fsAll: UInt64 = (1 << 13) - 1
        if abi >= 2 { fsAll |= UInt64(PDX_LL_FS_REFER) } else { status.missing.append(ServiceMessages.format(ServiceMessages.needsABI, "refer", "2")) }
        if abi >= 3 { fsAll |= UInt64(PDX_LL_FS_TRUNCATE) } else { status.missing.append(ServiceMessages.format(ServiceMessages.needsABI, "truncate", "3")) }
        if abi >= 5 { fsAll |= UInt64(PDX_LL_FS_IOCTL_DEV) } else { status.missing.append(ServiceMessages.format(ServiceMessages.needsABI, "ioctl_dev", "5")) }
        let net: UInt64 = abi >= 4 ? UInt64(PDX_LL_NET_BIND_TCP | PDX_LL_NET_CONNECT_TCP) : 0
        if net == 0 { status.missing.append(ServiceMessages.format(ServiceMessages.needsABI, "tcp", "4")) }
        let scoped: UInt64 = abi >= 6 ? UInt64(PDX_LL_SCOPE_SIGNAL | PDX_LL_SCOPE_ABSTRACT_UNIX_SOCKET) : 0
        if scoped == 0 { status.missing.append(ServiceMessages.format(ServiceMessages.needsABI, "scopes", "6")) }

        let ruleset = pdx_landlock_create(fsAll, net, scoped)
        guard ruleset >= 0 else {
            status.missing = ["landlock refused: " + String(cString: strerror(-ruleset))]
            return status
        }
        defer { close(ruleset) }
        let read = UInt64(PDX_LL_FS_READ_FILE | PDX_LL_FS_READ_DIR)
        let devices = UInt64(PDX_LL_FS_MAKE_CHAR | PDX_LL_FS_MAKE_BLOCK | PDX_LL_FS_MAKE_FIFO
            | PDX_LL_FS_MAKE_SOCK | PDX_LL_FS_IOCTL_DEV | PDX_LL_FS_EXECUTE)
        let readWrite = fsAll & ~devices
        let file = UInt64(PDX_LL_FS_READ_FILE | PDX_LL_FS_WRITE_FILE) | (fsAll & UInt64(PDX_LL_FS_TRUNCATE))
        for dir in policy.readWrite { mkdirs(dir) }
        var rules: [(String, UInt64)] = policy.read.map { ($0, read) } + policy.readWrite.map { ($0, readWrite) }
        rules += policy.readWriteFiles.map { ($0, file) }
        for (path, rights) in rules {
            let r = pdx_landlock_allow_path(ruleset, path, rights & fsAll)
            if r < 0 && r != -ENOENT && r != -ENOTDIR {
                log(.warning, "sandbox: cannot allow \(path): \(String(cString: strerror(-r)))")
            }
        }
        if net != 0 {
            for port in policy.connectPorts.sorted() {
                let r = pdx_landlock_allow_port(ruleset, UInt64(port), UInt64(PDX_LL_NET_CONNECT_TCP))
                if r < 0 { log(.warning, "sandbox: cannot allow TCP port \(port): \(String(cString: strerror(-r)))") }
            }
        }
        let r = pdx_landlock_restrict(ruleset)
        guard r == 0 else {
            status.missing = ["landlock refused: " + String(cString: strerror(-r))]
            return status
        }
        status.landlockABI = abi
        status.restricted = ["files"] + (net != 0 ? ["tcp"] : []) + (scoped != 0 ? ["scopes"] : [])
        return status
    }

    /// Whether this process runs in a user namespace other than the first (PrivateUsers=):
    /// the initial namespace maps every id to itself.
    static func ownUserNamespace() -> Bool {
        guard let map = try? String(contentsOfFile: "/proc/self/uid_map", encoding: .utf8) else { return false }
        let fields = map.split(whereSeparator: { $0 == " " || $0 == "\n" })
        return fields != ["0", "0", "4294967295"]
    }

    /// `mkdir -p`, each new directory 0700 (the rule needs the directory to exist).
    static func mkdirs(_ path: String) {
        var prefix = ""
        for part in path.split(separator: "/") {
            prefix += "/" + part
            _ = mkdir(prefix, 0o700)
        }
    }
}
