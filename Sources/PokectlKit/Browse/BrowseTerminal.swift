import PokedexTerminal

/// What browse draws on: the real terminal (``TerminalSession``), or a test's fake that keeps
/// what was written.
protocol BrowseTerminal: AnyObject {
    /// The size in cells.
    func size() -> (width: Int, height: Int)
    /// Writes all of `text`.
    func write(_ text: String)
    /// Kitty images 1...`last` are in the terminal (freed on the way out).
    func noteKittyImages(upTo last: UInt32, tmux: Bool)
    /// The byte that suspends (`stty susp`), if the terminal has one.
    var suspendByte: UInt8? { get }
    /// Gives the terminal back and stops; returns once continued, the terminal taken again.
    func suspend()
    /// After SIGCONT: raw mode and the full screen again.
    func resume()
}

extension TerminalSession: BrowseTerminal {
    func size() -> (width: Int, height: Int) { Self.size() }
    func write(_ text: String) { Self.write(text) }
}
