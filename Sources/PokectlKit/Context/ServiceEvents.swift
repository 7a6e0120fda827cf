import PokedexBusClient
import PokedexProtocol

/// What `watch` and `widget --follow` need of the service's comings and goings and its signals:
/// ``ServiceFollower`` on the session bus, or a test's script of events.
protocol ServiceEvents: AnyObject {
    /// The service's unique name while it runs.
    var owner: String? { get }
    /// The state as it is now: started (with its owner) or stopped.
    func current() -> ServiceFollower.Event
    /// The next event, waiting at most `timeout` seconds (nil: as long as it takes); `.readerGone`
    /// once `fd`'s reader went away.
    func next(timeout: Double?, endingWith fd: Int32?) throws(BusError) -> ServiceFollower.Event
    /// Every property of the service `owner`, as `Properties.GetAll` gives them.
    func properties(of owner: String) -> BusValue?
}

extension ServiceFollower: ServiceEvents {}
