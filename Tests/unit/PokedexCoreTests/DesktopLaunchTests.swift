import XCTest
@testable import PokedexCore

/// The launch rules: a caller's text never where a terminal or pokectl reads options, one
/// launch a second, an activation token only for the caller who set it.
final class DesktopLaunchTests: XCTestCase {
    static let hostile = ["--help", "--command=sh -c 'touch /tmp/x'", "-e", "--", "-x", "--image-protocol=kitty",
                          "start", "browse", "-", "--title=x", "#25", "pika chu", ""]

    func testTheQueryOnlyEverFollowsPokectlsDoubleDash() {
        for t in TerminalCommand.known {
            for q in Self.hostile {
                let argv = TerminalCommand.browse(terminal: "/usr/bin/" + t.name, run: t.run, pokectl: "/usr/bin/pokectl", launch: BrowseLaunch(query: q))
                // Everything up to pokectl's browse is fixed: the terminal, its convention, pokectl.
                XCTAssertEqual(Array(argv.prefix(3 + t.run.count)), ["/usr/bin/" + t.name] + t.run + ["/usr/bin/pokectl", "browse"], t.name)
                if q.isEmpty {
                    XCTAssertEqual(argv.count, 3 + t.run.count, "\(t.name): no query, no --")
                } else {
                    XCTAssertEqual(Array(argv.suffix(3)), ["--desktop-search", "--", q], "\(t.name): \(q) only after --, the shell's terms")
                    XCTAssertEqual(argv.count, 6 + t.run.count, "\(t.name): \(q) in one argument")
                }
            }
        }
    }

    func testTheTerminalIsTheOneTheDesktopWouldChoose() {
        let launch = BrowseLaunch(card: 10034, query: "chariz")
        func chosen(_ installed: [String], _ environment: [String: String] = [:]) -> [String]? {
            TerminalCommand.choose(launch, pokectl: "/p/pokectl", environment: environment,
                                   find: { name in installed.contains(name) ? "/usr/bin/" + name : nil })
        }
        let tail = ["/p/pokectl", "browse", "--open", "10034", "--desktop-search", "--", "chariz"]
        let everything = TerminalCommand.known.map(\.name)
        // The freedesktop default-terminal spec first: the person's choice, wherever they made it.
        XCTAssertEqual(chosen(everything, ["TERMINAL": "kitty", "XDG_CURRENT_DESKTOP": "KDE"]), ["/usr/bin/xdg-terminal-exec", "--"] + tail)
        let noSpec = everything.filter { $0 != "xdg-terminal-exec" }
        XCTAssertEqual(chosen(noSpec, ["TERMINAL": "kitty", "XDG_CURRENT_DESKTOP": "KDE"]), ["/usr/bin/kitty"] + tail)
        // Then the desktop's own, then the system's default, then any, xterm last.
        XCTAssertEqual(chosen(noSpec, ["XDG_CURRENT_DESKTOP": "KDE"]), ["/usr/bin/konsole", "-e"] + tail)
        XCTAssertEqual(chosen(noSpec, ["XDG_CURRENT_DESKTOP": "ubuntu:GNOME"]), ["/usr/bin/kgx", "--"] + tail)
        XCTAssertEqual(chosen(["gnome-terminal", "konsole", "xterm"], ["XDG_CURRENT_DESKTOP": "GNOME"]), ["/usr/bin/gnome-terminal", "--"] + tail)
        XCTAssertEqual(chosen(["konsole", "x-terminal-emulator", "xterm"], ["XDG_CURRENT_DESKTOP": "sway"]), ["/usr/bin/x-terminal-emulator", "-e"] + tail)
        XCTAssertEqual(chosen(["xterm", "alacritty"]), ["/usr/bin/alacritty", "-e"] + tail)
        // xterm alone: a scalable font that fontconfig picks for the session's language.
        XCTAssertEqual(chosen(["xterm"], ["LANG": "ja_JP.UTF-8"]), ["/usr/bin/xterm", "-fa", "monospace:lang=ja", "-fs", "11", "-e"] + tail)
        XCTAssertEqual(chosen(["xterm"], ["LC_ALL": "zh_TW.UTF-8", "LANG": "C"]),
                       ["/usr/bin/xterm", "-fa", "monospace:lang=zh-tw", "-fs", "11", "-e"] + tail)
        XCTAssertEqual(chosen(["xterm"], ["LANG": "de_DE.UTF-8"]), ["/usr/bin/xterm", "-fa", "monospace", "-fs", "11", "-e"] + tail)
        // A $TERMINAL whose convention is not known: -e and the card, but no text a caller typed.
        XCTAssertEqual(chosen(["my-term", "xterm"], ["TERMINAL": "my-term"]), ["/usr/bin/my-term", "-e", "/p/pokectl", "browse", "--open", "10034"])
        XCTAssertNil(chosen([]), "no terminal at all")
        // The system's default or $TERMINAL where that is xterm (Debian's alternatives): xterm's
        // font too, before its -e; another terminal behind the link gets nothing more.
        func behind(_ target: String, _ environment: [String: String]) -> [String]? {
            TerminalCommand.choose(launch, pokectl: "/p/pokectl", environment: environment,
                                   find: { ["x-terminal-emulator", "xterm", "my-link"].contains($0) ? "/usr/bin/" + $0 : nil },
                                   resolve: { $0.hasSuffix("x-terminal-emulator") || $0.hasSuffix("my-link") ? target : $0 })
        }
        XCTAssertEqual(behind("/usr/bin/xterm", ["LANG": "ja_JP.UTF-8"]),
                       ["/usr/bin/x-terminal-emulator", "-fa", "monospace:lang=ja", "-fs", "11", "-e"] + tail)
        XCTAssertEqual(behind("/usr/bin/gnome-terminal.wrapper", [:]), ["/usr/bin/x-terminal-emulator", "-e"] + tail)
        XCTAssertEqual(behind("/usr/bin/uxterm", ["TERMINAL": "x-terminal-emulator"]),
                       ["/usr/bin/x-terminal-emulator", "-fa", "monospace", "-fs", "11", "-e"] + tail)
    }

    func testATerminalIsKnownByItsBasenameOnly() {
        XCTAssertEqual(TerminalCommand.convention(of: "/usr/bin/gnome-terminal"), ["--"])
        XCTAssertEqual(TerminalCommand.convention(of: "gnome-terminal"), ["--"])
        XCTAssertEqual(TerminalCommand.convention(of: "konsole"), ["-e"])
        XCTAssertEqual(TerminalCommand.convention(of: "/opt/wezterm/wezterm"), ["start", "--"])
        XCTAssertEqual(TerminalCommand.convention(of: "kitty"), [])
        for unknown in ["my-term", "gnome-terminal.wrapper", "/usr/bin/xterm-but-not", "", "/", "sh", "tilix"] {
            XCTAssertNil(TerminalCommand.convention(of: unknown), unknown)
        }
    }

    func testABurstCollapsesIntoOneLaunchASecond() {
        var gate = LaunchGate()
        var admitted = 0
        // 200 calls in 0.9 s.
        for i in 0..<200 where gate.admit(now: 100 + Double(i) * 0.0045) { admitted += 1 }
        XCTAssertEqual(admitted, 1)
        XCTAssertEqual(gate.refused, 199)
        XCTAssertTrue(gate.admit(now: 101.0), "a second after the last launch")
        XCTAssertEqual(gate.refused, 0)
        XCTAssertFalse(gate.admit(now: 101.5))
        // One call every 0.3 s for 10 s: at most one launch a second.
        var g2 = LaunchGate()
        let n = (0..<34).filter { g2.admit(now: Double($0) * 0.3) }.count
        XCTAssertLessThanOrEqual(n, 10)
        XCTAssertGreaterThanOrEqual(n, 8)
    }

    func testATokenGoesOnlyWithALaunchByItsCallerWithinAFewSeconds() {
        var t = ActivationTokens()
        t.set("kwin-1234", caller: ":1.5", now: 10)
        XCTAssertNil(t.take(caller: ":1.9", now: 10.5), "another caller's launch")
        XCTAssertNil(t.take(caller: nil, now: 10.5), "the service's own launch (a card's button)")
        XCTAssertEqual(t.take(caller: ":1.5", now: 11), "kwin-1234")
        XCTAssertNil(t.take(caller: ":1.5", now: 11.1), "used once")
        t.set("kwin-5678", caller: ":1.5", now: 20)
        XCTAssertNil(t.take(caller: ":1.5", now: 20 + ActivationTokens.lifetime + 0.1), "too late")
        for bad in ["", "with space", "new\nline", String(repeating: "a", count: 257), "é"] {
            t.set(bad, caller: ":1.5", now: 30)
            XCTAssertNil(t.take(caller: ":1.5", now: 30), bad)
        }
        t.set("ok", caller: "", now: 40)
        XCTAssertNil(t.take(caller: "", now: 40), "no caller, no token")
    }
}
