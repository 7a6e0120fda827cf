import CSystemd
import Glibc
import XCTest
@testable import PokedexProtocol

/// A bus that never connects: a socketpair is enough for sd-bus to build messages, so the tests
/// read back what the codings write, on real messages.
final class ScratchBus {
    private let bus: OpaquePointer
    private let peer: Int32

    init() throws {
        var fds: [Int32] = [-1, -1]
        XCTAssertEqual(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &fds), 0)
        var b: OpaquePointer?
        XCTAssertGreaterThanOrEqual(sd_bus_new(&b), 0)
        bus = try XCTUnwrap(b)
        XCTAssertGreaterThanOrEqual(sd_bus_set_fd(bus, fds[0], fds[0]), 0)
        XCTAssertGreaterThanOrEqual(sd_bus_start(bus), 0)
        peer = fds[1]
    }

    deinit {
        sd_bus_close(bus)  // not flushed: nobody is at the other end
        sd_bus_unref(bus)
        close(peer)
    }

    /// A sealed message holding what `write` wrote, ready to be read from its start.
    func message(_ write: (MessageWriter) throws(BusError) -> Void) throws -> OpaquePointer {
        var m: OpaquePointer?
        XCTAssertGreaterThanOrEqual(sd_bus_message_new_method_call(bus, &m, "io.example.Test", "/", "io.example.Test", "Reply"), 0)
        let message = try XCTUnwrap(m)
        try write(MessageWriter(message))
        XCTAssertGreaterThanOrEqual(sd_bus_message_seal(message, 1, 0), 0)
        XCTAssertGreaterThanOrEqual(sd_bus_message_rewind(message, 1), 0)
        return message
    }
}
