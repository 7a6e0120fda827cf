import Foundation
import CSystemd
@testable import PokedexBusClient
@testable import PokedexBusServer
import PokedexCore
import PokedexEventLoop
import PokedexLocks
import PokedexProtocol
import PokedexTestKit
import XCTest

/// pokedexd's launcher (`pokedexd --launcher`, ``Launcher1``) as the service calls it: each call
/// handed to the launcher whole, a launch it cannot start answered `Unavailable` with why, the
/// activation token only with its own caller's launch, calls from anyone but the service
/// refused, and the name released after its idle time, on a clock moved by hand.
final class LauncherServerTests: XCTestCase {
    var bus: PrivateBus!
    override func setUpWithError() throws { bus = try PrivateBus() }
    override func tearDown() { bus = nil }

    final class Recorder: DesktopLauncher, @unchecked Sendable {
        let state = Mutex((launches: [(BrowseLaunch, String?)](), tokens: [(String, String)](), copied: [String]()))
        let works: Bool
        init(works: Bool) { self.works = works }
        func openBrowse(_ launch: BrowseLaunch, caller: String?, failed: @escaping @Sendable () -> Void) -> Bool {
            state.withLock { $0.launches.append((launch, caller)) }
            return works
        }
        func copy(_ text: String, caller: String?) -> Bool {
            state.withLock { $0.copied.append(text) }
            return works
        }
        func setActivationToken(_ token: String, caller: String) { state.withLock { $0.tokens.append((token, caller)) } }
    }

    /// A launcher served on its own loop thread, its clock moved by hand.
    final class Served: @unchecked Sendable {
        let clock = ManualLoopClock()
        let loop: EventLoop
        let server: LauncherServer
        private let ended = DispatchSemaphore(value: 0)

        init(_ launcher: any DesktopLauncher) throws {
            loop = try EventLoop(clock: clock)
            server = LauncherServer(loop: loop, launcher: launcher, log: { _, _ in })
            let started = DispatchSemaphore(value: 0)
            let failure = Mutex<String?>(nil)
            PlainThread.start { [self] in
                do { try server.start() } catch {
                    failure.withLock { $0 = "\(error)" }
                    started.signal()
                    return
                }
                started.signal()
                _ = loop.run()
                server.close()
                ended.signal()
            }
            started.wait()
            if let failure = failure.withLock({ $0 }) { throw TestFailure("the launcher did not start: \(failure)") }
            try eventually("the loop to run") { loop.isRunning }
        }

        deinit {
            if !loop.hasEnded {
                loop.exit()
                _ = ended.wait(timeout: .now() + 10)
            }
        }

        func advance(_ seconds: Double) { clock.advance(by: seconds, on: loop) }
        func hasExited(within seconds: Double) -> Bool { ended.wait(timeout: .now() + seconds) == .success }
    }

    /// A client on the bus as pokedexd is: the owner of its name.
    func service() throws -> PokedexClient {
        let c = try PokedexClient(timeout: 10)
        let r = sd_bus_request_name(c.bus, Pokedex1.busName, 0)
        guard r >= 0 else { throw TestFailure("cannot own \(Pokedex1.busName): \(r)") }
        return c
    }

    func openBrowse(_ c: PokedexClient, _ card: UInt32, _ query: String, _ token: String) throws(BusError) {
        _ = try c.call(destination: Launcher1.busName, path: Launcher1.objectPath, interface: Launcher1.interfaceName,
                       Launcher1.openBrowse.name) { w throws(BusError) in try Launcher1.openBrowse.writeArgs(w, (card, query, token)) }
    }

    func testEachLaunchReachesTheLauncherWholeWithItsCallersToken() throws {
        let recorder = Recorder(works: true)
        let s = try Served(recorder)
        let c = try service()
        try openBrowse(c, 25, "pika -- --help", "token-1")
        try openBrowse(c, 0, "", "")
        _ = try c.call(destination: Launcher1.busName, path: Launcher1.objectPath, interface: Launcher1.interfaceName,
                       Launcher1.copy.name) { w throws(BusError) in try w.append("/cache/sprites/25.png") }
        let got = recorder.state.withLock { $0 }
        XCTAssertEqual(got.launches.map(\.0), [BrowseLaunch(card: 25, query: "pika -- --help"), BrowseLaunch()])
        let me = got.launches.first?.1
        XCTAssertNotNil(me)
        XCTAssertEqual(got.tokens.map(\.0), ["token-1"], "an empty token is none")
        XCTAssertEqual(got.tokens.first?.1, me, "the token goes with its own caller's launch")
        XCTAssertEqual(got.copied, ["/cache/sprites/25.png"])
        withExtendedLifetime(s) {}
    }

    func testALaunchNothingCanStartIsUnavailableAndSaysWhatToDo() throws {
        let s = try Served(Recorder(works: false))
        let c = try service()
        XCTAssertThrowsError(try openBrowse(c, 25, "", "")) { error in
            let e = error as? BusError
            XCTAssertEqual(e?.name, PokedexError.Kind.unavailable.dbusName)
            XCTAssertTrue(e?.message.contains("install one") == true, e?.message ?? "")
        }
        withExtendedLifetime(s) {}
    }

    /// pokedexd admitted each launch it forwards, by its own caller: a burst of them all go (a
    /// budget keyed by pokedexd's one connection dropped the fifth), while any other peer, and
    /// pokedexd's next instance before it owns the name, are refused and told whom to ask.
    func testOnlyTheServiceIsHeardAndEveryLaunchItForwardsGoes() throws {
        let recorder = Recorder(works: true)
        let s = try Served(recorder)
        let stranger = try PokedexClient(timeout: 10)
        for (card, c) in [(UInt32(1), stranger)] {
            XCTAssertThrowsError(try openBrowse(c, card, "", "")) { error in
                let e = error as? BusError
                XCTAssertEqual(e?.name, PokedexError.Kind.unavailable.dbusName)
                XCTAssertTrue(e?.message.contains(Pokedex1.busName) == true, e?.message ?? "")
            }
        }
        XCTAssertThrowsError(try stranger.call(destination: Launcher1.busName, path: Launcher1.objectPath, interface: Launcher1.interfaceName,
                                               Launcher1.copy.name) { w throws(BusError) in try w.append("x") })
        let c = try service()
        for card in 1...12 { try openBrowse(c, UInt32(card), "", "") }
        XCTAssertEqual(recorder.state.withLock { $0.launches.map(\.0.card) }, (1...12).map { Optional(UInt32($0)) })
        // pokedexd leaves and another instance takes its name: the new owner is heard, the old one not.
        let next = try PokedexClient(timeout: 10)
        XCTAssertThrowsError(try openBrowse(next, 99, "", ""), "not the owner yet")
        XCTAssertGreaterThanOrEqual(sd_bus_release_name(c.bus, Pokedex1.busName), 0)
        XCTAssertGreaterThanOrEqual(sd_bus_request_name(next.bus, Pokedex1.busName, 0), 0)
        XCTAssertThrowsError(try openBrowse(c, 98, "", ""), "the old owner is not heard any more")
        try openBrowse(next, 13, "", "")
        XCTAssertEqual(recorder.state.withLock { $0.launches.last?.0.card }, 13)
        XCTAssertEqual(recorder.state.withLock { $0.copied }, [], "the stranger's copy went nowhere")
        withExtendedLifetime(s) {}
    }

    func testItLeavesAfterItsIdleTimeAndEveryCallPutsThatOff() throws {
        let s = try Served(Recorder(works: true))
        let c = try service()
        XCTAssertTrue(try c.nameHasOwner(Launcher1.busName))
        s.advance(Launcher1.idleSeconds - 1)
        try openBrowse(c, 1, "", "")
        s.advance(Launcher1.idleSeconds - 1)
        XCTAssertFalse(s.hasExited(within: 0.05), "a call \(Launcher1.idleSeconds - 1) s ago: not idle yet")
        s.advance(1)
        XCTAssertTrue(s.hasExited(within: 10), "idle for its \(Launcher1.idleSeconds) s: it exits")
        XCTAssertFalse(try c.nameHasOwner(Launcher1.busName), "the name is released, for the next call to start it again")
    }
}
