import FoundationEssentials
import Glibc
import PokedexCore
import PokedexEventLoop
import CSeccomp

/// `--check-folders TOKEN`, pokedex-sandbox-setup's probe of a drop-in: run confined as the
/// service (the unit's options, then Landlock), it reads TOKEN from the cache's
/// `.sandbox-TOKEN` (which the script wrote outside) and writes it, durably, to the data
/// folder's (which the script reads outside). Both folders are then the real ones: a bind that
/// was skipped would show an empty tmpfs, where favorites would be lost at the next exit.
enum FolderCheck {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Runs the probe; its exit status (the reason on stderr when it is not 0).
    static func main(token: String, _ config: ServiceConfiguration) -> Int32 {
        do {
            try run(token: token, config)
            return 0
        } catch {
            _ = FileIO.writeAll(2, Array("pokedexd: \(error)\n".utf8))
            return 1
        }
    }

    static func run(token: String, _ config: ServiceConfiguration) throws(Failure) {
        guard !token.isEmpty, token.utf8.count <= 64, token.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }) else {
            throw Failure(description: "--check-folders takes letters, digits and hyphens, at most 64")
        }
        let cache = config.cacheDirectory + "/.sandbox-" + token
        guard let read = FileIO.readFile(cache, maxBytes: 64), read == Array(token.utf8) else {
            throw Failure(description: "cannot read the cache's \(cache) as the service: \(String(cString: strerror(errno)))")
        }
        var st = stat()
        guard stat(config.dataDirectory, &st) == 0, st.st_mode & S_IFMT == S_IFDIR else {
            throw Failure(description: "the favorites' folder \(config.dataDirectory) is not there for the service: \(String(cString: strerror(errno)))")
        }
        do {
            try FileIO.writeAtomically(Array(token.utf8), to: config.dataDirectory + "/.sandbox-" + token, durable: true)
        } catch {
            throw Failure(description: "cannot write in the favorites' folder as the service: \(error)")
        }
        print("pokedexd: as the service, read the cache (\(config.cacheDirectory)) and wrote favorites' folder (\(config.dataDirectory))")
    }
}

/// A test-only check that the sandbox holds, by behaviour: with
/// `POKEDEX_SANDBOX_SELFCHECK="read:PATH write:PATH connect:PORT unix:PATH …"` the service
/// tries each (`unix`: a new socket to a listening Unix socket; the kinds of ``probes``: the
/// other ways past the last doors, sandbox_probes.h) after confining itself and logs
/// `sandbox self-check: read PATH: denied (…)` or `… ALLOWED`.
/// The tests turn it on to prove that the running service cannot read ~/.ssh, write ~/.bashrc
/// or reach a port on 127.0.0.1 that is not its API's; nothing else reads the variable. The
/// lines also go to `report` (the cache directory's `sandbox-self-check`), which the tests read
/// where there is no journal.
enum SandboxSelfCheck {
    /// The ways past the last doors `pdx_sandbox_probe` tries (sandbox_probes.h).
    static let probes: Set<String> = ["unix-high", "unix-type-high", "dgram-high", "pair-dgram", "pair-high", "pair-seqpacket",
                                      "pair-sendmsg", "pair-sendto", "held-dgram", "io-uring", "raw", "packet", "netlink", "vsock"]

    static func run(_ spec: String, report: String, log: Logger) {
        var lines = ""
        for item in spec.split(separator: " ") {
            let parts = item.split(separator: ":", maxSplits: 1).map(String.init)
            guard parts.count == 2 else { continue }
            let outcome: Int32
            switch parts[0] {
            case "read": outcome = attempt { open(parts[1], O_RDONLY | O_CLOEXEC) }
            case "write": outcome = attempt { open(parts[1], O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600) }
            case "connect": outcome = connectLoopback(UInt16(parts[1]) ?? 0)
            case "unix": outcome = connectUnix(parts[1])
            case let kind where probes.contains(kind): outcome = pdx_sandbox_probe(kind, parts[1])
            default: continue
            }
            let why = parts[0] == "held-dgram" && outcome == ENOENT ? "the service holds none" : String(cString: strerror(outcome))
            let line = "sandbox self-check: \(parts[0]) \(parts[1]): " + (outcome == 0 ? "ALLOWED" : "denied (\(why))")
            log(.notice, line)
            lines += line + "\n"
        }
        try? lines.write(toFile: report, atomically: true, encoding: .utf8)
    }

    /// 0 when `body` gave a descriptor (closed again), else its errno.
    static func attempt(_ body: () -> Int32) -> Int32 {
        let fd = body()
        if fd >= 0 { close(fd); return 0 }
        return errno
    }

    static func connectUnix(_ path: String) -> Int32 {
        guard let address = UnixAddress(path) else { return EINVAL }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return errno }
        defer { close(fd) }
        return address.withSockaddr { connect(fd, $0, $1) } == 0 ? 0 : errno
    }

    static func connectLoopback(_ port: UInt16) -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return errno }
        defer { close(fd) }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = port.bigEndian
        addr.sin_addr.s_addr = UInt32(0x7f00_0001).bigEndian
        let r = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        return r == 0 ? 0 : errno
    }
}
