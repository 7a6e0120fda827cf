import PokedexBusClient
import PokedexModels

/// What pokectl's commands ask of the service. The members are the contract's
/// (`Pokedex1.swift`), reached through typed doors, never named again here; a test passes a
/// fake that answers them, the command line the bus's ``PokedexClient``.
protocol PokedexService: AnyObject {
    /// Per-call timeout, in seconds (a cache verify waits a day).
    var timeout: Double { get set }
    /// A method of the contract, its reply decoded.
    func call<A, R>(_ method: Method<A, R>, _ args: A) throws(BusError) -> R
    /// A method of the contract, its reply as read: every key, for JSON that passes on what the
    /// service says (``Method/decodeReply(_:)`` types it).
    func values<A, R>(_ method: Method<A, R>, _ args: A) throws(BusError) -> [BusValue]
    /// A property of the contract, decoded.
    func get<V>(_ property: Property<V>) throws(BusError) -> V
    /// `Sync()`, reporting its progress and what it waits for while it runs; stopped (the
    /// error ``PokedexClient/interrupted``) when `stop` says.
    func sync(every interval: Double, stop: () -> Bool, progress: (_ done: UInt32, _ total: UInt32, _ waiting: SyncWait?) -> Void) throws(BusError) -> SyncResult
    /// Why PokeAPI does not answer, as the service says; nil while it does.
    func networkDown() -> String?
    /// Whether the service's name has an owner (asked of the bus, without starting it).
    func nameHasOwner(_ name: String) throws(BusError) -> Bool
    /// Why the service cannot answer now (stopped, failing to start); nil when it can.
    func readiness(words: @autoclosure () -> Words) -> String?
    /// Why the service cannot be reached now, asked before a first call (not running and not
    /// starting within `activation` seconds, its unit failed); nil when it can.
    func serviceProblem(activation: Double, words: Words) -> String?
    /// Why a call timed out, when the service's process is stopped or gone; nil otherwise.
    func stoppedService(words: Words) -> String?
    /// Why the service is not running, as its unit says (failed, masked); nil without a reason.
    func notRunningReason(words: Words) -> String?
}

extension PokedexService {
    /// A method of the contract that takes no arguments.
    func call<R>(_ method: Method<Void, R>) throws(BusError) -> R { try call(method, ()) }
}

extension PokedexClient: PokedexService {
    func notRunningReason(words: Words) -> String? {
        PokedexClient.settledUnitState()?.explanation(unit: PokedexClient.unitName, words: words)
    }
}
