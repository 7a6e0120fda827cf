import XCTest
@testable import PokedexCore

extension XCTestCase {
    /// Returns once the service's background work is done (pre-warming, revalidation, warming
    /// for the desktop, probes until a host is back): a hook, not a poll. Fails after
    /// `timeout` seconds instead of hanging the suite.
    func settle(_ service: PokedexService, timeout: Double = 10) async {
        let done = expectation(description: "the service's background work ends")
        Task { await service.background.idle(); done.fulfill() }
        await fulfillment(of: [done], timeout: timeout)
    }
}
