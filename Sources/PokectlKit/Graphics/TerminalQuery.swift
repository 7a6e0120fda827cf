import Glibc
import PokedexLocks
import PokedexTerminal

/// Asks the terminal what it can show, once per process: the kitty graphics query, its cell
/// size and Primary Device Attributes, on `/dev/tty`. Not inside tmux, which answers for itself
/// (``Pictures`` asks tmux instead), and not from a background job, which may not change the
/// terminal's modes.
///
/// Device Attributes go last and every terminal answers them: their answer is the fence after
/// which nothing more comes. The choice is made within ``timeout`` (100 ms) when nothing has
/// come by then, or within ``fenceWait`` (1 s) once the terminal has started to answer. What the
/// terminal sends later still (kitty over SSH, a slow link) must not reach the shell: the
/// terminal stays in non-echoing raw mode until ``settle()``, which waits for the fence (at
/// most ``fenceWait`` after the queries went), discards everything read, and gives the modes
/// back. pokectl settles before it exits, and browse before it takes the screen.
enum TerminalQuery {
    static let timeout = 0.1
    /// How long after the queries their answers are waited for, at most.
    static let fenceWait = 1.0

    /// The terminal left in raw mode for ``settle()``: its descriptor, its modes before, when
    /// the queries went, and whether the fence has come.
    private struct Pending {
        var fd: Int32
        var saved: termios
        var sent: Double
        var reply: [UInt8]
    }

    private static let state = Mutex<(cached: GraphicsSupport?, pending: Pending?)>((nil, nil))

    /// What the terminal answered; an empty answer when it is not asked (not a terminal, `TERM=dumb`).
    static func support(environment: [String: String]) -> GraphicsSupport {
        if let cached = state.withLock({ $0.cached }) { return cached }
        let answer = ask(environment: environment)
        state.withLock { $0.cached = answer }
        return answer
    }

    private static func ask(environment: [String: String]) -> GraphicsSupport {
        guard isatty(1) == 1, (environment["TERM"] ?? "dumb") != "dumb", environment["NO_COLOR"] == nil, environment["TMUX"] == nil
        else { return GraphicsSupport() }
        let fd = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard fd >= 0 else { return GraphicsSupport() }
        var saved = termios()
        guard tcgetpgrp(fd) == getpgrp(), tcgetattr(fd, &saved) == 0 else { close(fd); return GraphicsSupport() }
        var raw = saved
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
        raw.c_cc.6 = 0  // VMIN
        raw.c_cc.5 = 0  // VTIME
        tcsetattr(fd, TCSANOW, &raw)
        var bytes = Array(GraphicsSupport.queries.utf8)
        _ = write(fd, &bytes, bytes.count)
        var pending = Pending(fd: fd, saved: saved, sent: monotonic(), reply: [])
        // 100 ms for a first byte; once the terminal answers, up to a second for the fence.
        read(&pending, until: { p in p.reply.isEmpty ? p.sent + timeout : p.sent + fenceWait })
        let answer = GraphicsSupport.parse(pending.reply)
        if answer.complete {
            tcsetattr(fd, TCSANOW, &pending.saved)
            close(fd)
        } else {
            state.withLock { $0.pending = pending }
        }
        return answer
    }

    /// Reads the terminal's answers into `p.reply` until the fence or the deadline.
    private static func read(_ p: inout Pending, until deadline: (Pending) -> Double) {
        var buffer = [UInt8](repeating: 0, count: 512)
        while !GraphicsSupport.parse(p.reply).complete {
            let left = deadline(p) - monotonic()
            guard left > 0 else { return }
            var pfd = pollfd(fd: p.fd, events: Int16(POLLIN), revents: 0)
            guard poll(&pfd, 1, Int32((left * 1000).rounded(.up))) > 0 else { continue }
            let n = Glibc.read(p.fd, &buffer, buffer.count)
            guard n > 0 else { return }
            // Bounded: a terminal (or noise) that sends and sends is not kept.
            if p.reply.count < 64 << 10 { p.reply += buffer[0..<n] }
        }
    }

    /// Waits for the answers still owed (until the fence, at most ``fenceWait`` after the
    /// queries), discards them, and gives the terminal its modes back. At once when nothing is
    /// owed. Called before pokectl exits and before browse takes the screen.
    static func settle() {
        guard var p = state.withLock({ s -> Pending? in defer { s.pending = nil }; return s.pending }) else { return }
        read(&p, until: { $0.sent + fenceWait })
        tcsetattr(p.fd, TCSAFLUSH, &p.saved)
        close(p.fd)
    }
}
