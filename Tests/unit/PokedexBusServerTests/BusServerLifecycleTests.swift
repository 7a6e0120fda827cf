import CSystemd
import Foundation
import PokedexBusClient
@testable import PokedexBusServer
import PokedexCore
import PokedexTestKit
import XCTest

/// The server's life on virtual time: the idle exit and what re-arms it, a call that holds it,
/// a call's deadline, SIGTERM's grace period for calls in flight and the extra time a change
/// under way gets. A clock moved by hand stands in for minutes, so each test takes a fraction
/// of a second; the replies are the ones a caller on the bus gets.
final class BusServerLifecycleTests: XCTestCase {
    var bus: PrivateBus!
    override func setUpWithError() throws { bus = try PrivateBus() }
    override func tearDown() { bus = nil }

    static let list = "/pokemon/?offset"
    static let unavailable = PokedexError.Kind.unavailable.dbusName

    func testReadyOnceTheNameIsOwnedAndTheIdleExitComesOnTime() throws {
        let s = try ServedService(bus: bus, idleTimeout: 60)
        XCTAssertTrue(try s.ownsName())
        XCTAssertEqual(s.notifications().first?.hasPrefix("READY=1"), true)
        s.advance(59.9)
        XCTAssertFalse(s.hasExited(), "59.9 s without a call is not idle yet")
        XCTAssertTrue(try s.ownsName())
        let watcher = try PokedexSignalWatcher()
        s.advance(0.1)
        XCTAssertTrue(s.hasExited(within: 10), "idle for its 60 s: it exits")
        XCTAssertEqual(s.exitCode, 0)
        XCTAssertFalse(try s.ownsName(), "the name is released, for the next call to activate it again")
        XCTAssertEqual(s.notifications(), ["STOPPING=1"], "STOPPING=1 once, and nothing after")
        let stopping = try watcher.next(timeout: 10)
        XCTAssertEqual(stopping?.member, Pokedex1.stopping.name)
        XCTAssertEqual(stopping?.values.first?.string, Pokedex1.StopReason.idle.rawValue, "a watcher hears why")
    }

    func testEveryCallPutsTheIdleExitOff() throws {
        let s = try ServedService(bus: bus, idleTimeout: 60)
        let c = try PokedexClient()
        for _ in 0..<5 {
            s.advance(50)
            _ = try c.status()  // a call to the service (the bus's Peer.Ping is answered by sd-bus alone)
        }
        s.advance(59)
        XCTAssertFalse(s.hasExited(), "250 s of service, never 60 s without a call")
        s.advance(1)
        XCTAssertTrue(s.hasExited(within: 10))
    }

    func testNoIdleExitWhenTheTimeoutIsZero() throws {
        let s = try ServedService(bus: bus, idleTimeout: 0)
        XCTAssertEqual(s.clock.armedTimers, 0, "no timer at all")
        s.advance(86_400)
        XCTAssertFalse(s.hasExited())
        XCTAssertTrue(try s.ownsName())
    }

    func testACallInFlightHoldsTheIdleExitUntilItIsAnswered() throws {
        let s = try ServedService(bus: bus, idleTimeout: 60, deadline: 600)
        s.api.hold(Self.list)
        let page = Background { () throws(BusError) in try PokedexClient(timeout: 60).listPage(offset: 0, limit: 20) }
        try eventually("the call to wait on the network") { s.api.waiting == 1 }
        s.advance(300)
        XCTAssertFalse(s.hasExited(), "a call is in flight: not idle")
        XCTAssertEqual(s.pendingCalls, 1)
        s.api.release(Self.list)
        XCTAssertEqual(try page.wait().get().entries.count, 20)
        try eventually("the call to be gone") { s.pendingCalls == 0 }
        s.advance(59)
        XCTAssertFalse(s.hasExited(), "the idle time counts from the reply")
        s.advance(1)
        XCTAssertTrue(s.hasExited(within: 10))
    }

    func testACallPastItsDeadlineIsAnsweredThenAndItsWorkCancelled() throws {
        let s = try ServedService(bus: bus, idleTimeout: 0, deadline: 30)
        s.api.hold(Self.list)
        let page = Background { () throws(BusError) in try PokedexClient(timeout: 60).listPage(offset: 0, limit: 20) }
        try eventually("the call to wait on the network") { s.api.waiting == 1 }
        s.advance(29.9)
        XCTAssertEqual(s.pendingCalls, 1)
        XCTAssertFalse(page.isDone)
        s.advance(0.1)
        guard case .failure(let e) = try page.wait() else { return XCTFail("a reply past the deadline") }
        XCTAssertEqual(e.name, Self.unavailable)
        XCTAssertTrue(e.message.hasPrefix("ListPage did not finish within 30 s: it was still waiting for"), e.message)
        try eventually("the transfer to be cancelled") { s.api.cancelled == 1 }
        XCTAssertEqual(s.pendingCalls, 0)
        s.api.release(Self.list)
        XCTAssertEqual(try PokedexClient().listPage(offset: 0, limit: 20).entries.count, 20, "the service goes on")
    }

    func testSigtermLetsACallInFlightFinishWithinTheGrace() throws {
        let s = try ServedService(bus: bus, idleTimeout: 0, deadline: 600, grace: 5)
        s.api.hold(Self.list)
        let page = Background { () throws(BusError) in try PokedexClient(timeout: 60).listPage(offset: 0, limit: 20) }
        try eventually("the call to wait on the network") { s.api.waiting == 1 }
        _ = s.notifications()
        s.onLoop { s.server.shutdown() }
        try eventually("the name to be released") { try !s.ownsName() }
        XCTAssertEqual(s.notifications(), ["STOPPING=1"])
        s.advance(4.9)
        XCTAssertFalse(s.hasExited(), "the call still has its grace")
        s.api.release(Self.list)
        XCTAssertEqual(try page.wait().get().entries.count, 20, "answered, not failed")
        XCTAssertTrue(s.hasExited(within: 10), "and then it exits, without waiting out the grace")
    }

    func testSigtermFailsWhatTheGraceCouldNotFinishSayingNothingChanged() throws {
        let s = try ServedService(bus: bus, idleTimeout: 0, deadline: 600, grace: 5)
        s.api.hold(Self.list)
        let page = Background { () throws(BusError) in try PokedexClient(timeout: 60).listPage(offset: 0, limit: 20) }
        try eventually("the call to wait on the network") { s.api.waiting == 1 }
        s.onLoop { s.server.shutdown() }
        s.onLoop { s.server.shutdown() }  // a second SIGTERM changes nothing
        s.advance(5)
        guard case .failure(let e) = try page.wait() else { return XCTFail("a reply after the grace") }
        XCTAssertEqual(e.name, Self.unavailable)
        XCTAssertTrue(e.message.contains(ServiceMessages.shuttingDown) && e.message.contains(ServiceMessages.nothingChanged), e.message)
        XCTAssertTrue(s.hasExited(within: 10))
        try eventually("the transfer to be cancelled") { s.api.cancelled == 1 }
    }

    /// The grace can end before the bus has confirmed the name's release (a busy bus daemon, or
    /// a stopped one): calls it routed here before the release may still be unread. The service
    /// waits for the confirmation (answering at once whatever arrives meanwhile), up to the
    /// commit grace, instead of exiting with them unanswered.
    func testTheGraceEndingBeforeTheBusConfirmsTheReleaseWaitsForIt() throws {
        let s = try graceEndedWithTheBusStopped()
        bus.thaw()
        XCTAssertTrue(s.hasExited(within: 10), "the confirmation ends it")
    }

    /// Should the bus never confirm the release, the commit grace still ends it.
    func testAReleaseNeverConfirmedStillEndsAfterTheCommitGrace() throws {
        let s = try graceEndedWithTheBusStopped()
        s.advance(PokedexBusServer.commitGrace)
        XCTAssertTrue(s.hasExited(within: 10))
    }

    /// A served service given SIGTERM with dbus-daemon stopped (thawed when the test ends), and
    /// its grace over: still running, as the bus has not confirmed the release.
    private func graceEndedWithTheBusStopped() throws -> ServedService {
        let s = try ServedService(bus: bus, idleTimeout: 0, grace: 5)
        try PokedexClient().ping()
        bus.freeze()
        addTeardownBlock { [bus] in bus?.thaw() }
        s.onLoop { s.server.shutdown() }
        s.advance(5)
        XCTAssertFalse(Self.exitRequested(s), "exited before the bus confirmed the release")
        return s
    }

    /// Whether the loop has been told to end (it may still drain what was queued).
    static func exitRequested(_ s: ServedService) -> Bool {
        var code: Int32 = 0
        return sd_event_get_exit_code(s.loop.event, &code) >= 0 || s.hasExited()
    }

    func testAChangeUnderWayAtTheEndOfTheGraceAnswersWithWhatItDid() throws {
        let saving = BlockingFavorites()
        let s = try ServedService(bus: bus, idleTimeout: 0, grace: 5, favorites: saving)
        _ = try PokedexClient().listPage(offset: 0, limit: 20)  // the names are known
        saving.block()
        let set = Background { () throws(BusError) in try PokedexClient(timeout: 60).toggleFavorite("pikachu") }
        try eventually("the favorite to be saving") { saving.isSaving }
        s.onLoop { s.server.shutdown() }
        s.advance(5)
        XCTAssertFalse(set.isDone, "a change under way is not failed with 'nothing was changed'")
        s.advance(PokedexBusServer.commitGrace - 0.1)
        XCTAssertFalse(s.hasExited(), "it gets its commit grace")
        saving.unblock()
        XCTAssertEqual(try set.wait().get(), true, "answered with what it did")
        XCTAssertTrue(s.hasExited(within: 10))
        XCTAssertEqual(saving.saved.last?.map(\.id), [25])
    }

    func testAChangeThatOutlastsEveryGraceIsAbandonedWithWhatToCheck() throws {
        let saving = BlockingFavorites()
        let s = try ServedService(bus: bus, idleTimeout: 0, grace: 5, favorites: saving)
        _ = try PokedexClient().listPage(offset: 0, limit: 20)
        saving.block()
        let set = Background { () throws(BusError) in try PokedexClient(timeout: 60).toggleFavorite("pikachu") }
        try eventually("the favorite to be saving") { saving.isSaving }
        s.onLoop { s.server.shutdown() }
        s.advance(5)
        s.advance(PokedexBusServer.commitGrace)
        guard case .failure(let e) = try set.wait() else { return XCTFail("a reply after every grace") }
        XCTAssertEqual(e.name, Self.unavailable)
        XCTAssertTrue(e.message.contains("check whether it was made"), e.message)
        XCTAssertTrue(s.hasExited(within: 10))
        saving.unblock()
    }

    func testSigtermDuringAnIdleExitsDrainStillGivesTheGrace() throws {
        let s = try ServedService(bus: bus, idleTimeout: 60, deadline: 3600, grace: 5)
        s.api.hold(Self.list)
        // A call that arrives as the idle exit begins: answered though the name goes.
        let page = Background { () throws(BusError) in try PokedexClient(timeout: 60).listPage(offset: 0, limit: 20) }
        try eventually("the call to wait on the network") { s.api.waiting == 1 }
        s.onLoop { s.server.perform(s.server.exit.idle()) }
        try eventually("the name to be released") { try !s.ownsName() }
        s.advance(600)
        XCTAssertFalse(s.hasExited(), "an idle exit waits for the call it has")
        s.onLoop { s.server.shutdown() }
        s.advance(4.9)
        XCTAssertFalse(s.hasExited())
        s.advance(0.1)
        guard case .failure(let e) = try page.wait() else { return XCTFail("a reply after the grace") }
        XCTAssertTrue(e.message.contains(ServiceMessages.shuttingDown), e.message)
        XCTAssertTrue(s.hasExited(within: 10))
        XCTAssertEqual(s.notifications().filter { $0 == "STOPPING=1" }.count, 1, "STOPPING=1 once")
    }
}

/// Favorites whose save blocks until the test lets it go: a change under way at shutdown.
final class BlockingFavorites: FavoritesPersistence, @unchecked Sendable {
    // @unchecked: every field is behind `lock`; the semaphore is thread-safe.
    private let lock = NSLock()
    private var blocked = false
    private var saving = false
    private var list: [[Favorite]] = []
    private let gate = DispatchSemaphore(value: 0)

    func block() { lock.withLock { blocked = true } }
    func unblock() {
        let wasBlocked = lock.withLock { () -> Bool in defer { blocked = false }; return blocked }
        if wasBlocked { gate.signal() }
    }
    var isSaving: Bool { lock.withLock { saving } }
    var saved: [[Favorite]] { lock.withLock { list } }

    func load() -> LoadedFavorites { LoadedFavorites(favorites: lock.withLock { list.last ?? [] }) }
    func isKept(_ notice: FavoritesNotice) -> Bool { true }
    func save(_ favorites: [Favorite], notice: FavoritesNotice?) throws {
        let wait = lock.withLock { () -> Bool in saving = true; return blocked }
        if wait { gate.wait() }
        lock.withLock {
            list.append(favorites)
            saving = false
        }
    }
}
