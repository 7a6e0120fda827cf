import CSystemd
import Glibc
import PokedexBusClient
import PokedexLocks
@testable import PokedexProtocol
@testable import PokectlKit

/// The service as a test scripts it: each method of the contract answers from a closure, its
/// reply written and read back through the contract's own coding (on real sd-bus messages, as
/// the bus would carry it), so that JSON passed on "as read" is what a client would read.
/// Every call is recorded by its member's name.
final class FakeService: PokedexService, @unchecked Sendable {
    var timeout: Double = 25
    private let lock = Mutex<Void>(())
    private var answers: [String: (Any) -> Result<[BusValue], BusError>] = [:]
    private var properties: [String: BusValue] = [:]
    private(set) var calls: [String] = []
    /// What ``readiness(words:)`` says (the service stopped, not starting); nil: ready.
    var notReady: String?
    /// Whether the service's name has an owner (status).
    var running = true
    /// The unit's reason when it is not running.
    var unitReason: String?
    /// What ``stoppedService(words:)`` says (its process stopped); nil: it runs.
    var stopped: String?
    /// What a sync waits for at each step, and the API's reason it is down.
    var syncWaiting: SyncWait?
    var apiDown: String?
    var syncSteps: [(UInt32, UInt32)] = []
    var syncResult = SyncResult(complete: 0, failed: 0)

    /// `method` answers with what `reply` returns for its arguments (or the error it throws).
    func on<A, R>(_ method: Method<A, R>, _ reply: @escaping (A) throws(BusError) -> R) {
        answers[method.name] = { args in Self.answer(method, reply, args as! A) }
    }

    private static func answer<A, R>(_ method: Method<A, R>, _ reply: (A) throws(BusError) -> R, _ args: A) -> Result<[BusValue], BusError> {
        let value: R
        do { value = try reply(args) } catch { return .failure(error) }
        do {
            return .success(try MessageCoder.shared.values { w throws(BusError) in try method.writeReply(w, value) })
        } catch {
            return .failure(error)
        }
    }

    /// `property` reads `value`.
    func set<V>(_ property: Property<V>, _ value: V) {
        properties[property.name] = try! MessageCoder.shared.values { w throws(BusError) in try property.write(w, value) }.first
    }

    func values<A, R>(_ method: Method<A, R>, _ args: A) throws(BusError) -> [BusValue] {
        lock.withLock { _ in calls.append(method.name) }
        guard let answer = answers[method.name] else {
            throw BusError(name: BusError.Name.unknownMethod, message: "Unknown method \(method.name)")
        }
        return try answer(args).get()
    }

    func call<A, R>(_ method: Method<A, R>, _ args: A) throws(BusError) -> R { try method.decodeReply(try values(method, args)) }

    func get<V>(_ property: Property<V>) throws(BusError) -> V {
        lock.withLock { _ in calls.append(property.name) }
        guard let value = properties[property.name] else {
            throw BusError(name: "org.freedesktop.DBus.Error.UnknownProperty", message: "no property \(property.name)")
        }
        return try property.decode(value)
    }

    func sync(every interval: Double, stop: () -> Bool, progress: (UInt32, UInt32, SyncWait?) -> Void) throws(BusError) -> SyncResult {
        lock.withLock { _ in calls.append("Sync") }
        for (done, total) in syncSteps {
            if stop() { throw BusError(name: PokedexClient.interrupted, message: "interrupted") }
            progress(done, total, syncWaiting)
        }
        return syncResult
    }
    func networkDown() -> String? { (try? get(Pokedex1.online)) == false ? apiDown ?? "" : nil }

    func nameHasOwner(_ name: String) throws(BusError) -> Bool { running }
    func readiness(words: @autoclosure () -> Words) -> String? { notReady }
    func serviceProblem(activation: Double, words: Words) -> String? { notReady }
    func stoppedService(words: Words) -> String? { stopped }
    func notRunningReason(words: Words) -> String? { unitReason }
}

/// Writes values as the contract does, into sealed sd-bus messages on a bus that never
/// connects (a socketpair is enough for sd-bus to build them), and reads them back as a
/// generic client reads a reply.
final class MessageCoder: @unchecked Sendable {
    static let shared = MessageCoder()
    private let bus: OpaquePointer
    private let lock = Mutex<Void>(())

    private init() {
        var fds: [Int32] = [-1, -1]
        precondition(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &fds) == 0)
        var b: OpaquePointer?
        precondition(sd_bus_new(&b) >= 0)
        bus = b!
        precondition(sd_bus_set_fd(bus, fds[0], fds[0]) >= 0)
        precondition(sd_bus_start(bus) >= 0)
    }

    func values(_ write: (MessageWriter) throws(BusError) -> Void) throws(BusError) -> [BusValue] {
        try lock.withLock { (_: inout Void) throws(BusError) -> [BusValue] in
            var m: OpaquePointer?
            guard sd_bus_message_new_method_call(bus, &m, "io.example.Test", "/", "io.example.Test", "Reply") >= 0, let message = m else {
                throw BusError(name: "io.example.Error", message: "cannot build a message")
            }
            defer { sd_bus_message_unref(message) }
            try write(MessageWriter(message))
            guard sd_bus_message_seal(message, 1, 0) >= 0, sd_bus_message_rewind(message, 1) >= 0 else {
                throw BusError(name: "io.example.Error", message: "cannot seal a message")
            }
            return try MessageReader(message).readAll()
        }
    }
}
