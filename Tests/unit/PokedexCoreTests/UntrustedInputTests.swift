import Foundation
import Glibc
import PokedexLocks
import PokedexTestKit
import XCTest
@testable import PokedexCore

/// What a hostile API, mirror, proxy or cache writer can send, and what the core makes of it.
final class UntrustedInputTests: XCTestCase {
    // MARK: The sanitiser

    func testTerminalTextDropsEveryControlAndKeepsPrintableText() {
        let hostile = "Mouse\u{1B}]52;c;aGFja2Vk\u{07} Pokémon\u{1B}[2J \u{9B}31m\u{202E}ピカチュウ\u{7F}\u{2066}!"
        XCTAssertEqual(UntrustedText.terminal(hostile), "Mouse]52;c;aGFja2Vk Pokémon[2J 31mピカチュウ!")
        XCTAssertEqual(UntrustedText.terminal("two\nlines\tand\u{0C}a form feed"), "two lines and a form feed")
        XCTAssertEqual(UntrustedText.terminal("plain"), "plain")
    }

    func testLogLinesAreOneLineWithControlsVisible() {
        let url = "https://pokeapi.co/api/v2/pokemon/x\n<0>forged emergency"
        XCTAssertEqual(UntrustedText.logLine(url), "https://pokeapi.co/api/v2/pokemon/x\\n<0>forged emergency")
        XCTAssertEqual(UntrustedText.logLine("\u{1B}[2J\u{9B}\u{202E}a\\n"), "\\x1b[2J\\u{9b}\\u{202e}a\\\\n")
    }

    func testMarkupEscapesEveryTagAndEntity() {
        XCTAssertEqual(UntrustedText.markup("<b>Mouse</b> & \"co\" 'x'\u{1B}[1m"),
                       "&lt;b&gt;Mouse&lt;/b&gt; &amp; &quot;co&quot; &apos;x&apos;[1m")
    }

    // MARK: Validation at decode time

    func testListEntriesThatAreNotPokeAPINamesAreDroppedAndSaid() throws {
        let body = """
        {"count": 6, "results": [
          {"name": "bulbasaur", "url": "https://pokeapi.co/api/v2/pokemon/1/"},
          {"name": "evil\\u001b[2J", "url": "https://pokeapi.co/api/v2/pokemon/9001/"},
          {"name": "../../etc/passwd", "url": "https://pokeapi.co/api/v2/pokemon/9002/"},
          {"name": "\(String(repeating: "a", count: 300))", "url": "https://pokeapi.co/api/v2/pokemon/9003/"},
          {"name": "Pika<b>", "url": "https://pokeapi.co/api/v2/pokemon/9004/"},
          {"name": "mr-mime", "url": "https://pokeapi.co/api/v2/pokemon/122/"}
        ]}
        """
        var notes: [String] = []
        let index = try APIDecoding.index(Array(body.utf8)) { notes.append($0) }
        XCTAssertEqual(index.items.map(\.name), ["bulbasaur", "mr-mime"])
        XCTAssertEqual(notes.count, 4, "\(notes)")
        XCTAssertTrue(notes.allSatisfy { $0.contains("not a PokeAPI name") })
    }

    func testARecordNamedOutsideTheShapeIsRefusedWholeAndItsBadPartsDropped() throws {
        let bad = #"{"id": 25, "name": "<b>pika", "types": [], "abilities": [], "stats": []}"#
        XCTAssertThrowsError(try APIDecoding.pokemon(Array(bad.utf8)))
        let mixed = """
        {"id": 25, "name": "pikachu", "height": 4, "weight": 60,
         "types": [{"slot": 1, "type": {"name": "electric"}}, {"slot": 2, "type": {"name": "\\u009b31m"}}],
         "abilities": [{"slot": 1, "ability": {"name": "static"}}, {"slot": 3, "ability": {"name": "a b"}}],
         "stats": [{"base_stat": 35, "stat": {"name": "hp"}}, {"base_stat": 1, "stat": {"name": "HP!"}}]}
        """
        var notes: [String] = []
        let p = try APIDecoding.pokemon(Array(mixed.utf8)) { notes.append($0) }
        XCTAssertEqual(p.types, ["electric"])
        XCTAssertEqual(p.abilities, ["static"])
        XCTAssertEqual(p.stats.map(\.name), ["hp"])
        XCTAssertEqual(notes.count, 3)
    }

    func testSpeciesTextIsCappedAndLanguagesChecked() throws {
        let body = """
        {"id": 25, "name": "pikachu",
         "genera": [{"genus": "\(String(repeating: "x", count: 300))", "language": {"name": "en"}}],
         "flavor_text_entries": [{"flavor_text": "Fine text.", "language": {"name": "en"}}],
         "names": [{"name": "ピカチュウ", "language": {"name": "ja-Hrkt"}}, {"name": "x", "language": {"name": "e\\u001bn"}}]}
        """
        var notes: [String] = []
        let s = try APIDecoding.species(Array(body.utf8)) { notes.append($0) }
        XCTAssertEqual(s.genus, "", "a genus over its cap is dropped")
        XCTAssertEqual(s.flavorText, "Fine text.")
        XCTAssertEqual(s.names, ["ja-Hrkt": "ピカチュウ"])
        XCTAssertEqual(notes.count, 2, "\(notes)")
    }

    func testDropLogSaysAFewThenCounts() {
        let lines = Mutex<[String]>([])
        let drops = DropLog({ _, m in lines.withLock { $0.append(m) } }, source: "https://x/list")
        for i in 0..<12 { drops.dropped("dropped \(i)") }
        drops.finish()
        XCTAssertEqual(lines.withLock { $0.count }, DropLog.linesPerBody + 1)
        XCTAssertEqual(lines.withLock { $0.last }, "https://x/list: 7 more entries dropped")
    }

    // MARK: No downgrade

    func testNothingIsFetchedOverHTTPWhenTheAPIIsHTTPS() async throws {
        let client = FakeHTTPClient(), clock = ManualClock()
        let logged = Mutex<[String]>([])
        let f = Fetcher(client: client, clock: clock, allowedHosts: ["pokeapi.test", "sprites.test"], httpsOnly: true,
                        log: { level, m in if level != .debug { logged.withLock { $0.append(m) } } })
        // A redirect to http, and a body's URL on http: both refused, nothing sent there.
        client.route("https://pokeapi.test/api/v2/pokemon/25/") { _ in HTTPResponse(status: 301, headers: ["location": "http://pokeapi.test/api/v2/pokemon/25/"]) }
        for url in ["https://pokeapi.test/api/v2/pokemon/25/", "http://sprites.test/25.png", "HTTP://sprites.test/26.png"] {
            do {
                _ = try await f.fetch(url)
                XCTFail("fetched \(url)")
            } catch {
                guard case .insecure = error else { return XCTFail("\(error)") }
            }
        }
        XCTAssertEqual(client.requests.map(\.url), ["https://pokeapi.test/api/v2/pokemon/25/"])
        XCTAssertTrue(FetchError.insecure(url: "http://x/").asPokedexError(context: "pikachu").message.contains("plain http"))
        XCTAssertEqual(logged.withLock { $0.count }, 2, "one line per host, however often: \(logged.withLock { $0 })")
        // Without an https API, http stays allowed (a self-hosted mirror, serve.py).
        let plain = Fetcher(client: client, clock: clock, allowedHosts: ["sprites.test"])
        XCTAssertTrue(plain.isAllowed("http://sprites.test/25.png"))
    }

    // MARK: Images that lie about their size

    func testAPNGClaimingAHugeSizeIsNotASprite() {
        XCTAssertTrue(PNGCheck.isValid(makePNG((1, 2, 3), size: 96)))
        // The same PNG with its IHDR rewritten (CRC fixed): 64×64 passes, 100000×100000 does not.
        func claiming(_ side: UInt32) -> [UInt8] {
            var png = makePNG((1, 2, 3), size: 4)
            for i in 0..<8 { png[16 + i] = UInt8(truncatingIfNeeded: side >> (24 - 8 * UInt32(i % 4))) }
            let crc = CRC32.checksum(png[12..<29])
            for i in 0..<4 { png[29 + i] = UInt8(truncatingIfNeeded: crc >> (24 - 8 * UInt32(i))) }
            return png
        }
        XCTAssertTrue(PNGCheck.isValid(claiming(64)))
        XCTAssertTrue(PNGCheck.isValid(claiming(4096)))
        XCTAssertFalse(PNGCheck.isValid(claiming(4097)))
        XCTAssertFalse(PNGCheck.isValid(claiming(100_000)))
    }

    func testAGIFWhoseFramesDoNotFitItsScreenIsRefused() {
        let gif: (UInt16, UInt16, UInt16, UInt16, UInt16, UInt16) -> [UInt8] = { sw, sh, left, top, w, h in
            func le(_ v: UInt16) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8)] }
            // Appended step by step: one expression of these took Swift 6.0 past its type-check limit.
            var bytes: [UInt8] = Array("GIF89a".utf8)
            bytes += le(sw) + le(sh)
            bytes += [0x80, 0, 0, 0, 0, 0, 255, 255, 255, 0x2C]
            bytes += le(left) + le(top)
            bytes += le(w) + le(h)
            bytes += [0, 2, 2, 0x44, 0x01, 0, 0x3B]
            return bytes
        }
        XCTAssertTrue(GIFCheck.isValid(gif(8, 8, 0, 0, 8, 8)))
        XCTAssertTrue(GIFCheck.isValid(gif(8, 8, 6, 6, 2, 2)))
        XCTAssertFalse(GIFCheck.isValid(gif(8, 8, 0, 0, 65535, 65535)), "a frame larger than its screen")
        XCTAssertFalse(GIFCheck.isValid(gif(8, 8, 60000, 60000, 8, 8)), "a frame far outside its screen")
        XCTAssertFalse(GIFCheck.isValid(gif(65535, 65535, 0, 0, 1, 1)), "a screen no sprite has")
        XCTAssertFalse(GIFCheck.isValid(gif(8, 8, 0, 0, 0, 8)), "an empty frame")
    }

    func testARefusedBodyIsNotFetchedAgainOnEveryCall() async throws {
        let client = FakeHTTPClient(), clock = ManualClock()
        let f = Fetcher(client: client, clock: clock, allowedHosts: ["sprites.test"])
        let url = "https://sprites.test/24.png"
        client.route(url) { _ in HTTPResponse(status: 200, body: [1, 2, 3]) }
        for _ in 0..<5 {
            do {
                _ = try await FetchPriority.$current.withValue(.prefetch) {
                    try await f.fetch(url, as: .png) { _ throws -> Int in throw PokedexError.unavailable("not a whole image") }
                }
                XCTFail("decoded")
            } catch {
                guard case .unusable? = error as? FetchError else { return XCTFail("\(error)") }
            }
        }
        XCTAssertEqual(client.count(url), 1, "remembered for \(Fetcher.refusedTTL) s")
        // A person asking gets a new attempt; and after the time, anyone does.
        _ = try await f.fetch(url, as: .png) { $0.count }
        XCTAssertEqual(client.count(url), 2)
        clock.advance(Fetcher.refusedTTL + 1)
        _ = try await FetchPriority.$current.withValue(.prefetch) { try await f.fetch(url, as: .png) { $0.count } }
        XCTAssertEqual(client.count(url), 3, "then believed again")
    }

    // MARK: Files

    func testReadsRefuseLinksFIFOsAndOversizedFiles() throws {
        let dir = temporaryDirectory()
        let secret = dir + "/secret"
        try FileIO.writeAtomically(Array("secret".utf8), to: secret, durable: false)
        XCTAssertEqual(FileIO.readFile(secret), Array("secret".utf8))
        XCTAssertEqual(symlink(secret, dir + "/link"), 0)
        XCTAssertNil(FileIO.readFile(dir + "/link"), "a link planted in the cache is not followed")
        XCTAssertNil(FileIO.readPrefix(dir + "/link", count: 4))
        XCTAssertEqual(mkfifo(dir + "/fifo", 0o600), 0)
        // A FIFO with no writer blocks whoever opens it to read: refused without blocking, the
        // read returns. (If it blocked, a writer opened after 10 s ends the test, failed.)
        let read = DispatchSemaphore(value: 0)
        let got = Mutex<[UInt8]?>([])
        Thread.detachNewThread {
            got.withLock { $0 = FileIO.readFile(dir + "/fifo") }
            read.signal()
        }
        if read.wait(timeout: .now() + 10) == .timedOut {
            let fd = open(dir + "/fifo", O_WRONLY | O_NONBLOCK)
            if fd >= 0 { close(fd) }
            read.wait()
            XCTFail("reading a FIFO blocked")
        }
        XCTAssertNil(got.withLock { $0 }, "a FIFO is refused")
        XCTAssertNil(FileIO.readFile(dir, maxBytes: 1 << 20), "a directory is not a file")
        XCTAssertNil(FileIO.readFile(secret, maxBytes: 3), "over the cap")
    }

    func testAtomicWritesReplaceALinkInsteadOfWritingThroughIt() throws {
        let dir = temporaryDirectory()
        let target = dir + "/elsewhere"
        try FileIO.writeAtomically(Array("mine".utf8), to: target, durable: false)
        XCTAssertEqual(symlink(target, dir + "/favorites.json"), 0)
        try FileIO.writeAtomically(Array("new".utf8), to: dir + "/favorites.json", durable: true)
        XCTAssertEqual(FileIO.readFile(target), Array("mine".utf8), "the link's target is untouched")
        XCTAssertEqual(FileIO.readFile(dir + "/favorites.json"), Array("new".utf8))
        let names = try FileManager.default.contentsOfDirectory(atPath: dir)
        XCTAssertFalse(names.contains { FileIO.isTemporary($0) }, "\(names)")
        // A temporary's name still tells whose it is: a dead writer's is abandoned, ours is not.
        XCTAssertTrue(FileIO.isAbandonedTemporary(".favorites.json.tmp.2147483000.3.1234567"))
        XCTAssertFalse(FileIO.isAbandonedTemporary(".favorites.json.tmp.\(getpid()).3.1234567"))
    }

    /// Issue 58: a new file is written unnamed and linked in whole; a file replaced goes
    /// through a temporary name. Either way: the content, 0600, no temporary left, and a
    /// reader never sees a part (what is read is the old content or the new).
    func testNewAndReplacedFilesAreWholePrivateAndLeaveNoTemporary() throws {
        try newAndReplacedFiles()
    }

    /// The same where unnamed files cannot be made (a filesystem without them, no `/proc`):
    /// through a temporary name and `rename`.
    func testTheNamedWayWritesTheSame() throws {
        FileIO.unnamedFilesWork.withLock { $0 = false }
        defer { FileIO.unnamedFilesWork.withLock { $0 = true } }
        try newAndReplacedFiles()
    }

    private func newAndReplacedFiles() throws {
        let dir = temporaryDirectory()
        for round in 0..<50 {
            let path = dir + "/record\(round % 5)"
            let bytes = Array(repeating: UInt8(round), count: 1 + round * 997)
            try FileIO.writeAtomically(bytes, to: path, durable: round % 7 == 0)
            XCTAssertEqual(FileIO.readFile(path), bytes, "round \(round)")
            var st = stat()
            XCTAssertEqual(lstat(path, &st), 0)
            XCTAssertEqual(st.st_mode & 0o777, 0o600)
            XCTAssertEqual(st.st_nlink, 1, "one name: no temporary still linked")
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: dir).sorted()
        XCTAssertEqual(names, (0..<5).map { "record\($0)" })
    }

    func testDirectoriesOthersCanWriteOrThatAnotherUserOwnsAreRefused() throws {
        let dir = temporaryDirectory()
        XCTAssertNoThrow(try FileIO.checkPrivate(dir, what: "the cache directory"))
        chmod(dir, 0o777)
        XCTAssertThrowsError(try FileIO.checkPrivate(dir, what: "the cache directory")) { e in
            let m = (e as? PokedexError)?.message ?? ""
            XCTAssertTrue(m.contains("group or others can write") && m.contains("chmod go-w"), m)
        }
        XCTAssertThrowsError(try FileCacheStore(directory: dir, capacity: 1 << 20), "the store refuses it too")
        chmod(dir, 0o700)
        if geteuid() == 0 {
            chown(dir, 65534, 65534)
            XCTAssertThrowsError(try FileIO.checkPrivate(dir, what: "the data directory")) { e in
                XCTAssertTrue(((e as? PokedexError)?.message ?? "").contains("belongs to uid 65534"))
            }
            XCTAssertThrowsError(try FileFavoritesPersistence(directory: dir))
            chown(dir, 0, 0)
        }
        XCTAssertNoThrow(try FileFavoritesPersistence(directory: dir))
    }

    func testRelativePathsAreResolvedOnceAgainstTheWorkingDirectory() {
        XCTAssertEqual(XDGPaths.absolute("cache", from: "/home/ash/work"), "/home/ash/work/cache")
        XCTAssertEqual(XDGPaths.absolute("./a/../b/", from: "/home/ash"), "/home/ash/b")
        XCTAssertEqual(XDGPaths.absolute("../../../x", from: "/home/ash"), "/x")
        XCTAssertEqual(XDGPaths.absolute("/var/cache/p", from: "/home/ash"), "/var/cache/p")
    }

    // MARK: Shutdown

    func testAChangeEitherBeginsBeforeShutdownOrNeverAfter() {
        let begun = CallTrace()
        XCTAssertTrue(begun.beginCommit())
        XCTAssertFalse(begun.closeUnlessCommitting(), "a change under way is let answer")
        let idle = CallTrace()
        XCTAssertTrue(idle.closeUnlessCommitting())
        XCTAssertFalse(idle.beginCommit(), "once answered 'nothing was changed', nothing is")
    }

    func testAFavoriteIsNotSavedAfterItsCallWasAnsweredAtShutdown() async throws {
        let persistence = MemoryFavoritesPersistence()
        let book = try FavoritesBook(persistence: persistence)
        let trace = CallTrace()
        XCTAssertTrue(trace.closeUnlessCommitting())
        do {
            _ = try await CallTrace.$current.withValue(trace) { try await book.set(id: 25, name: "pikachu", favorite: true) }
            XCTFail("saved after the call was answered")
        } catch {
            let message = (error as? PokedexError)?.message ?? "\(error)"
            XCTAssertTrue(message.contains("nothing was changed"), message)
        }
        XCTAssertEqual(persistence.saves, 0)
        let all = await book.all()
        XCTAssertEqual(all.count, 0)
    }
}
