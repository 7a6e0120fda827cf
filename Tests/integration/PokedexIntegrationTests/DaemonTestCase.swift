import XCTest

/// What every integration test class does around each test: a fresh ``Harness`` (a private
/// bus, the mock PokeAPI, a throwaway HOME) before it, and everything that harness started
/// stopped and removed after it.
///
/// A class whose tests all want the daemon running from the start says with which arguments
/// (``daemonArguments``); the others start it in each test. A class with more to set up or tear
/// down overrides `setUpWithError` or `tearDown` and calls `super`'s: after it in set-up, before
/// it in tear-down, so that the harness is there for its own steps.
class DaemonTestCase: XCTestCase {
    var h: Harness!

    /// pokedexd's arguments, to start it before each test; nil (the default) leaves that to
    /// the tests.
    var daemonArguments: [String]? { nil }

    override func setUpWithError() throws {
        try super.setUpWithError()
        h = try Harness()
        if let daemonArguments { try h.startDaemon(daemonArguments) }
    }

    override func tearDown() {
        h?.shutdown()
        h = nil
        super.tearDown()
    }
}
