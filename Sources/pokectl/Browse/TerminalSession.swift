import Glibc

/// The signal numbers the handler saw, written to a pipe the loop polls (the only thing a
/// signal handler may safely do).
nonisolated(unsafe) private var signalPipe: (read: Int32, write: Int32) = (-1, -1)
/// The terminal's settings before raw mode, restored on every way out.
nonisolated(unsafe) private var savedTermios = termios()
nonisolated(unsafe) private var rawModeOn = false

/// The terminal, full screen: raw mode, the alternate screen, no cursor, SGR mouse reports. Every
/// way out restores it: ``restore()`` on quit, on a fatal error, and from `atexit`; SIGTERM,
/// SIGHUP, SIGINT and SIGQUIT reach the loop through ``signals`` and end it the same way.
enum TerminalSession {
    static let enter = "\u{1B}[?1049h\u{1B}[?25l\u{1B}[?1000h\u{1B}[?1006h\u{1B}[H\u{1B}[2J"
    static let leave = "\u{1B}[?1006l\u{1B}[?1000l\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l"

    /// The fd whose bytes are signal numbers.
    static var signals: Int32 { signalPipe.read }

    /// Raw mode and the alternate screen. Throws nothing: a terminal that refuses raw mode
    /// is reported by the caller's check (`isatty`) first.
    static func begin() {
        signalPipe = makePipe(nonblocking: true)
        for sig in [SIGWINCH, SIGTERM, SIGHUP, SIGINT, SIGQUIT] {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { sig in
                var byte = UInt8(truncatingIfNeeded: sig)
                _ = Glibc.write(signalPipe.write, &byte, 1)
            }
            sigemptyset(&action.sa_mask)
            action.sa_flags = SA_RESTART
            sigaction(sig, &action, nil)
        }
        tcgetattr(0, &savedTermios)
        var raw = savedTermios
        cfmakeraw(&raw)
        raw.c_oflag |= tcflag_t(OPOST | ONLCR)  // "\n" still starts a line, for the messages after
        tcsetattr(0, TCSAFLUSH, &raw)
        rawModeOn = true
        atexit { TerminalSession.restore() }
        write(enter)
    }

    /// Back to the shell's terminal: mouse off, cursor on, the main screen, the saved settings.
    /// Safe to call more than once.
    static func restore() {
        guard rawModeOn else { return }
        rawModeOn = false
        write(leave)
        tcsetattr(0, TCSAFLUSH, &savedTermios)
    }

    /// The terminal's size in cells.
    static func size() -> (width: Int, height: Int) {
        var w = winsize()
        guard ioctl(1, UInt(TIOCGWINSZ), &w) == 0, w.ws_col > 0, w.ws_row > 0 else { return (80, 24) }
        return (Int(w.ws_col), Int(w.ws_row))
    }

    /// Writes all of `text` to the terminal.
    static func write(_ text: String) {
        var bytes = Array(text.utf8)
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeMutableBytes { Glibc.write(1, $0.baseAddress! + done, $0.count - done) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return }
            done += n
        }
    }
}

/// A pipe whose ends close on exec; with `nonblocking`, reads and writes never wait.
func makePipe(nonblocking: Bool) -> (read: Int32, write: Int32) {
    var fds: [Int32] = [-1, -1]
    guard pipe(&fds) == 0 else { return (-1, -1) }
    for fd in fds {
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        if nonblocking { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
    }
    return (fds[0], fds[1])
}
