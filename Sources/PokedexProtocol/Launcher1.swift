/// `io.github.pokedexd.Launcher1`: pokedexd's launches, opened by `pokedexd --launcher`, which
/// D-Bus activation starts as the bus's own child, outside the service's sandbox. pokedexd asks
/// it when no user manager takes a launch (a session bus without `systemd --user`) and Landlock
/// keeps pokedexd from starting the program itself: that program would share the sandbox. It
/// opens only what a launch of pokedexd's opens, never a command a caller names, and takes
/// calls from pokedexd alone (the owner of ``Pokedex1/busName``), which limited them by their
/// own callers already; anyone else is `Unavailable`. Internal: not part of the service's
/// documented API.
public enum Launcher1 {
    public static let busName = "io.github.pokedexd.Launcher1"
    public static let interfaceName = busName
    public static let objectPath = "/io/github/pokedexd/Launcher1"
    /// Seconds without a call after which the launcher exits; the next call starts it again.
    public static let idleSeconds = 30.0

    /// `pokectl browse` opening `card` (0: none) with `query` as its search, in the terminal the
    /// desktop would choose; `activation_token` ("" for none) lets it take the focus.
    /// `Unavailable` when there is no terminal to open, or the caller is not pokedexd.
    public static let openBrowse = Method(
        "OpenBrowse", args: .three("card", Coding.uint32, "query", Coding.argument, "activation_token", Coding.argument),
        reply: .none, errors: [.unavailable])
    /// `text` onto the clipboard (wl-copy, xclip or xsel); `Unavailable` when none is installed,
    /// or the caller is not pokedexd.
    public static let copy = Method("Copy", args: .one("text", Coding.argument), reply: .none, errors: [.unavailable])

    public static let interface = Interface(name: interfaceName, objectPath: objectPath, members: [openBrowse.shape, copy.shape])
}
