import Glibc

/// browse's loop (ratatui's `run`): `poll` on the keyboard, the lanes' inbox and the signals,
/// what came handed to the ``BrowseApp`` as one ``BrowseWake``, until it says how browse ends.
struct BrowseLoop {
    let session: TerminalSession
    let inbox: Inbox

    func run(_ app: inout BrowseApp) -> BrowseOutcome {
        if let end = app.start() { return end }
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            var fds = [pollfd(fd: 0, events: Int16(POLLIN), revents: 0), pollfd(fd: inbox.wake.read, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: session.signals, events: Int16(POLLIN), revents: 0)]
            let ready = poll(&fds, nfds_t(fds.count), app.timeout())
            if ready < 0 && errno != EINTR { return .serviceGone("poll failed") }
            var wake = BrowseWake(timedOut: ready == 0)
            if fds[2].revents != 0 {
                var sig: UInt8 = 0
                while read(session.signals, &sig, 1) == 1 { wake.signals.append(Int32(sig)) }
            }
            if fds[0].revents & Int16(POLLIN) != 0 {
                let n = read(0, &buffer, buffer.count)
                if n == 0 { wake.keyboard = .closed } else if n > 0 { wake.keyboard = .bytes(Array(buffer[0..<n])) }
            } else if fds[0].revents & Int16(POLLHUP | POLLERR) != 0 {
                wake.keyboard = .closed
            }
            if fds[1].revents != 0 { wake.results = inbox.take() }
            if let end = app.step(wake) { return end }
        }
    }
}
