import CTerminalShims
import Glibc

/// The terminal, full screen: raw mode, the alternate screen, no cursor, SGR mouse reports.
///
/// Every way out gives it back as it was found:
/// - quitting: ``restore()``; `atexit`: the C restore (CTerminalShims), which does the same from
///   what ``takeOver()`` armed it with, if nothing gave the terminal back before;
/// - SIGINT: through the loop (``signals``), which ends as on quit, then dies of the signal;
/// - SIGILL and SIGTRAP (a Swift trap), SIGSEGV, SIGBUS, SIGABRT, SIGFPE, SIGTERM, SIGHUP and
///   SIGQUIT: a C handler (CTerminalShims) writes the saved bytes, frees the kitty images and
///   restores the saved settings, with async-signal-safe calls only, then dies of the signal;
/// - Ctrl-Z (when the terminal's `susp` is set) and SIGTSTP: ``suspend()`` gives it back, stops,
///   and takes it again when continued; SIGCONT alone (after SIGSTOP) takes it again too.
///
/// One session per browse, owned by its loop's thread. What a signal handler must reach is in C
/// (CTerminalShims): the signal pipe's write end and the settings to restore, beside lock-free
/// atomics; a handler can touch nothing of Swift's safely.
final class TerminalSession {
    static let enter = "\u{1B}[?1049h\u{1B}[?25l\u{1B}[?1000h\u{1B}[?1006h\u{1B}[H\u{1B}[2J"
    static let leave = "\u{1B}[?1006l\u{1B}[?1000l\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l"

    /// The signals the loop hears through ``signals``.
    static let looped = [SIGWINCH, SIGINT, SIGTSTP, SIGCONT]

    /// The signal numbers the handler saw, written to a pipe the loop polls.
    private var signalPipe: (read: Int32, write: Int32) = (-1, -1)
    /// The terminal's settings before raw mode, restored on every way out.
    private var savedTermios = termios()
    private var rawTermios = termios()
    private var rawModeOn = false

    /// The fd whose bytes are signal numbers.
    var signals: Int32 { signalPipe.read }

    /// Raw mode and the alternate screen. Throws nothing: a terminal that refuses raw mode
    /// is reported by the caller's check (`isatty`) first.
    func begin() {
        signalPipe = makePipe(nonblocking: true)
        pokedex_signal_pipe_set(signalPipe.write)
        for sig in Self.looped { pokedex_signal_forward(sig) }
        pokedex_install_fatal_handlers()
        takeOver()
        atexit { pokedex_terminal_restore() }
    }

    /// After ``restore()`` and the threads' end: the loop's signals back to their default
    /// actions (a Ctrl-C now ends pokectl as it would any program), and their pipe closed.
    func end() {
        for sig in Self.looped { signal(sig, SIG_DFL) }
        pokedex_signal_pipe_set(-1)
        if signalPipe.read >= 0 { close(signalPipe.read) }
        if signalPipe.write >= 0 { close(signalPipe.write) }
        signalPipe = (-1, -1)
    }

    /// Runs `body` (which starts the worker threads) with the loop's signals blocked, so that
    /// the threads it starts never take them: a handler run on a thread waiting in a bus call
    /// would end that wait with EINTR ("lost the bus connection") on every resize or resume.
    static func startingWorkers<T>(_ body: () -> T) -> T {
        var set = sigset_t(), old = sigset_t()
        sigemptyset(&set)
        for sig in looped { sigaddset(&set, sig) }
        pthread_sigmask(SIG_BLOCK, &set, &old)
        defer { pthread_sigmask(SIG_SETMASK, &old, nil) }
        return body()
    }

    /// Saves the settings as they are now, then raw mode, the full screen, and the C handler
    /// armed with what gives them back.
    private func takeOver() {
        tcgetattr(0, &savedTermios)
        rawTermios = savedTermios
        cfmakeraw(&rawTermios)
        rawTermios.c_oflag |= tcflag_t(OPOST | ONLCR)  // "\n" still starts a line, for the messages after
        tcsetattr(0, TCSAFLUSH, &rawTermios)
        rawModeOn = true
        Array(Self.leave.utf8).withUnsafeBufferPointer { bytes in
            bytes.withMemoryRebound(to: CChar.self) { pokedex_terminal_arm(0, 1, &self.savedTermios, $0.baseAddress, $0.count) }
        }
        Self.write(Self.enter)
    }

    /// Back to the shell's terminal: mouse off, cursor on, the main screen, the saved settings.
    /// Safe to call more than once.
    func restore() {
        pokedex_terminal_disarm()
        guard rawModeOn else { return }
        rawModeOn = false
        Self.write(Self.leave)
        tcsetattr(0, TCSAFLUSH, &savedTermios)
    }

    /// Kitty images 1...`last` are in the terminal: a handler frees them on the way out.
    func noteKittyImages(upTo last: UInt32, tmux: Bool) {
        pokedex_terminal_set_kitty(last, tmux ? 1 : 0)
    }

    /// The byte that suspends (`stty susp`, Ctrl-Z by default), if the terminal has one.
    var suspendByte: UInt8? {
        let c = withUnsafeBytes(of: savedTermios.c_cc) { $0[Int(VSUSP)] }
        return c == 0 ? nil : c  // _POSIX_VDISABLE is 0 on Linux
    }

    /// Ctrl-Z or SIGTSTP: the terminal given back (the caller has freed its pictures), then
    /// stopped as the shell expects; when continued, the terminal is taken again. The caller
    /// then draws the whole screen.
    func suspend() {
        restore()
        signal(SIGTSTP, SIG_DFL)
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGTSTP)
        sigprocmask(SIG_UNBLOCK, &set, nil)
        // The whole process group stops, as the shell's job (a wrapper script with it) expects.
        kill(0, SIGTSTP)  // stops here until SIGCONT
        pokedex_signal_forward(SIGTSTP)
        resume()
    }

    /// After SIGCONT: raw mode and the full screen again. Given back before (a suspend): the
    /// settings are saved anew, since the shell may have changed them meanwhile. Never given
    /// back (SIGSTOP, which cannot be caught): raw mode and the screen's modes asserted again,
    /// in case something reset the terminal meanwhile.
    func resume() {
        guard rawModeOn else { return takeOver() }
        tcsetattr(0, TCSAFLUSH, &rawTermios)
        Self.write(Self.enter)
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

    /// Dies of `sig` with its default action (after the terminal was given back), so the
    /// shell sees the signal, not an exit code.
    static func die(of sig: Int32) -> Never {
        signal(sig, SIG_DFL)
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, sig)
        sigprocmask(SIG_UNBLOCK, &set, nil)
        raise(sig)
        Glibc.exit(128 + sig)
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
