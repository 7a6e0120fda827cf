import Glibc
import PokedexTerminal

/// Asks the terminal what it can show, once per process: the kitty graphics query, its cell
/// size and Primary Device Attributes, on `/dev/tty`, waiting at most ``timeout`` for the last
/// answer (a terminal that never answers costs that, and no more). Not inside tmux, which
/// answers for itself (``Pictures`` asks tmux instead), and not from a background job, which
/// may not change the terminal's modes.
enum TerminalQuery {
    static let timeout = 0.1

    nonisolated(unsafe) private static var cached: GraphicsSupport?

    /// What the terminal answered; an empty answer when it is not asked (not a terminal, `TERM=dumb`).
    static func support(environment: [String: String]) -> GraphicsSupport {
        if let cached { return cached }
        let answer = ask(environment: environment)
        cached = answer
        return answer
    }

    private static func ask(environment: [String: String]) -> GraphicsSupport {
        guard isatty(1) == 1, (environment["TERM"] ?? "dumb") != "dumb", environment["NO_COLOR"] == nil, environment["TMUX"] == nil
        else { return GraphicsSupport() }
        let fd = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard fd >= 0 else { return GraphicsSupport() }
        defer { close(fd) }
        var saved = termios()
        guard tcgetpgrp(fd) == getpgrp(), tcgetattr(fd, &saved) == 0 else { return GraphicsSupport() }
        var raw = saved
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
        raw.c_cc.6 = 0  // VMIN
        raw.c_cc.5 = 0  // VTIME
        tcsetattr(fd, TCSANOW, &raw)
        var complete = false
        // An answer cut short by the timeout: what came of it is flushed with the modes put
        // back, so none of it is echoed or read as typing.
        defer { tcsetattr(fd, complete ? TCSANOW : TCSAFLUSH, &saved) }
        var bytes = Array(GraphicsSupport.queries.utf8)
        _ = write(fd, &bytes, bytes.count)
        var reply: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 512)
        let deadline = monotonic() + timeout
        while true {
            let left = deadline - monotonic()
            guard left > 0 else { break }
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&p, 1, Int32((left * 1000).rounded(.up))) > 0 else { break }
            let n = read(fd, &buffer, buffer.count)
            guard n > 0 else { break }
            reply += buffer[0..<n]
            if GraphicsSupport.parse(reply).complete { break }
        }
        let answer = GraphicsSupport.parse(reply)
        complete = answer.complete
        return answer
    }
}
