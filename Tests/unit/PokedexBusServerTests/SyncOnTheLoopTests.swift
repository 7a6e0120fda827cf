import Foundation
import PokedexBusClient
@testable import PokedexBusServer
import PokedexCore
import PokedexProtocol
import XCTest

/// Issue 58: pokedexd runs a sync's steps on its event loop's thread (`LoopTaskExecutor`), as
/// ``ServedService`` wires it. Its requests are made there; the bus is served while a sync is
/// under way; SIGTERM during a sync ends the service within its grace, the sync's caller told.
final class SyncOnTheLoopTests: XCTestCase {
    var bus: PrivateBus!
    override func setUpWithError() throws { bus = try PrivateBus() }
    override func tearDown() { bus = nil }

    /// Pikachu's detail, held so the sync is under way for as long as the test needs.
    static let held = "/pokemon/25/"

    private func syncWaitingOnPikachu(_ s: ServedService) throws -> Background<SyncResult> {
        s.api.hold(Self.held)
        let sync = Background { () throws(BusError) in try PokedexClient(timeout: 60).sync { _, _, _ in } }
        try eventually("the sync to wait for Pikachu") { s.api.waitingURLs.contains { $0.hasSuffix(Self.held) } }
        return sync
    }

    func testASyncsRequestsAreMadeOnTheLoopWhichServesTheBusMeanwhile() throws {
        let s = try ServedService(bus: bus, idleTimeout: 0)
        let sync = try syncWaitingOnPikachu(s)
        let c = try PokedexClient()
        try c.ping()
        XCTAssertEqual(try c.get(Pokedex1.syncState), "running", "the loop answers while the sync is under way")
        XCTAssertFalse(sync.isDone)
        s.api.release(Self.held)
        let result = try sync.wait().get()
        XCTAssertEqual(result.failed, 0)
        let details = s.api.requestsAndThreads.filter { $0.url.contains("/pokemon/") && !$0.url.contains("?") }
        XCTAssertGreaterThan(details.count, 100, "the sync fetched every Pokémon")
        let offLoop = details.filter { !$0.onLoop }.map(\.url)
        XCTAssertEqual(offLoop.count, 0, "made off the loop's thread, among them \(offLoop.prefix(3))")
        XCTAssertEqual(try c.get(Pokedex1.syncState), "done")
    }

    func testSigtermDuringASyncEndsTheServiceWithinItsGrace() throws {
        let s = try ServedService(bus: bus, idleTimeout: 0, deadline: 600, grace: 5)
        let sync = try syncWaitingOnPikachu(s)
        s.onLoop { s.server.shutdown() }
        try eventually("the name to be released") { try !s.ownsName() }
        s.advance(4.9)
        XCTAssertFalse(s.hasExited(), "the sync still has its grace")
        s.advance(0.1)
        guard case .failure = try sync.wait() else { return XCTFail("the sync ended with Pikachu held") }
        XCTAssertTrue(s.hasExited(within: 10))
    }
}
