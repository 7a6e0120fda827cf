import Foundation
@testable import PokedexTerminal
import XCTest

/// Issue 28: widths as terminals count them, grapheme clusters as one, checked against tmux's
/// own rendering of the same strings.
final class TerminalWidthTests: XCTestCase {
    /// (text, columns): emoji and East Asian Wide two; marks, variation selectors, joiners and
    /// bidi controls part of the cluster before them.
    static let cases: [(String, Int)] = [
        ("abc", 3), ("😀😀😀😀😀", 10), ("b\u{301}c", 2), ("a\u{202E}b\u{301}c", 3), ("e\u{301}\u{301}", 1),
        ("👨\u{200D}👩\u{200D}👧", 2), ("\u{1F1EF}\u{1F1F5}", 2), ("漢字", 4), ("ピカチュウ", 10), ("ｱｲ", 2), ("ＰＩＫＡ", 8),
        ("\u{231A}", 2), ("❤\u{FE0F}", 1), ("Flabébé", 7), ("Flabe\u{301}be\u{301}", 7), ("피카츄", 6), ("x\u{200B}y", 2),
    ]

    func testWidthsAndClusters() {
        for (text, columns) in Self.cases {
            XCTAssertEqual(TerminalText.width(text), columns, text.unicodeScalars.map { String($0.value, radix: 16) }.joined(separator: " "))
        }
        // A screen holds a wide cluster in two cells, and a mark with its letter.
        var s = Screen(width: 12, height: 1)
        let end = s.put("a😀b\u{301}c", x: 0, y: 0)
        XCTAssertEqual(end, 5)
        XCTAssertEqual(s.lines[0], "a😀b\u{301}c       ")
    }

    func testTheSearchLineDeletesWholeClusters() {
        var m = BrowseModel()
        _ = m.handle(.resized(width: 80, height: 24))
        _ = m.handle(.input(.key(.char("/"))))
        for u in "pe\u{301}👨\u{200D}👩".unicodeScalars { _ = m.handle(.input(.key(.char(Character(u))))) }
        XCTAssertEqual(m.query.count, 3, "p, é, the family: three clusters")
        _ = m.handle(.input(.key(.backspace)))
        XCTAssertEqual(m.query, "pe\u{301}")
        _ = m.handle(.input(.key(.backspace)))
        XCTAssertEqual(m.query, "p")
    }

    /// Each string printed in its own tmux window: where tmux leaves the cursor is its width.
    func testTmuxCountsTheSameColumns() throws {
        guard let tmux = ["/usr/bin/tmux", "/usr/local/bin/tmux"].first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw XCTSkip("tmux is not installed")
        }
        let dir = NSTemporaryDirectory() + "pokedex-width-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // One shell runs tmux (as a person's shell would): a window per string, then where
        // each window's cursor stopped.
        for (i, (text, _)) in Self.cases.enumerated() { try Data(text.utf8).write(to: URL(fileURLWithPath: "\(dir)/\(i)")) }
        let n = Self.cases.count
        let script = """
            t() { \(tmux) -S \(dir)/tmux.sock -f /dev/null "$@"; }
            t new-session -d -s w -x 120 -y 5 "cat \(dir)/0; touch \(dir)/0.done; sleep 60"
            i=1; while [ $i -lt \(n) ]; do t new-window -t w "cat \(dir)/$i; touch \(dir)/$i.done; sleep 60"; i=$((i + 1)); done
            i=0; while [ $i -lt \(n) ]; do k=0; while [ ! -e \(dir)/$i.done ] && [ $k -lt 100 ]; do sleep 0.05; k=$((k + 1)); done; i=$((i + 1)); done
            sleep 0.2
            i=0; while [ $i -lt \(n) ]; do t display-message -p -t "w:$i" '#{cursor_x}'; i=$((i + 1)); done
            t kill-server
            """
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/sh")
        p.arguments = ["-c", script]
        p.environment = ["LC_ALL": "C.UTF-8", "PATH": "/usr/bin:/bin", "TERM": "xterm-256color"]
        let out = Pipe()
        p.standardOutput = out
        p.standardError = FileHandle.nullDevice
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        let xs = String(decoding: data, as: UTF8.self).split(separator: "\n").map { Int($0) }
        XCTAssertEqual(xs.count, n, "tmux answered for every window")
        for ((text, _), x) in zip(Self.cases, xs) {
            XCTAssertEqual(x, TerminalText.width(text), "tmux and TerminalText differ on \(text.unicodeScalars.map { String($0.value, radix: 16) })")
        }
    }
}
