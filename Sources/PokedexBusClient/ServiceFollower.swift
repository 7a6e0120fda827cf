import CSystemd
import Glibc
import PokedexProtocol

/// Follows the service itself, not only its signals: it tells when the service comes (started,
/// restarted, activated by someone's call) and when it goes, and whether it went idle (it
/// starts again on the next call, and nothing it answered has changed) or stopped.
///
/// Waiting never starts the service: only the bus daemon is asked (`GetNameOwner`,
/// `ListActivatableNames`), and the service's properties are read from the unique name that
/// owns it, which the bus never activates. One follower belongs to one thread.
public final class ServiceFollower {
    /// What happened, in the order it happened.
    public enum Event: Equatable, Sendable {
        /// The service owns its name now (`owner` is its unique name): whatever a widget shows
        /// is to be asked again.
        case started(owner: String)
        /// The name went, after `Stopping`. `idle`: it left after its idle timeout and starts
        /// again when called.
        case stopped(idle: Bool)
        /// The name went without `Stopping`: killed or crashed. Nothing may start it again (a
        /// bus without a user manager) until someone calls it.
        case vanished
        case favoriteChanged(id: UInt32, name: String, favorite: Bool)
        case cacheCleared
        /// `PropertiesChanged` as sent: interface, changed (a dict), invalidated (an array).
        case propertiesChanged(interface: BusValue, changed: BusValue, invalidated: BusValue)
        case timeout
        /// The reader of the follower's output went away.
        case readerGone
    }

    let watcher: PokedexSignalWatcher
    /// The reason the service gave in `Stopping` before its name went, if it gave one.
    private var stopReason: Pokedex1.StopReason?

    public init() throws(BusError) {
        watcher = try PokedexSignalWatcher(reportingOwner: true)
    }

    /// The unique name owning the service now; nil while it does not run.
    public var owner: String? { watcher.owner }

    /// The state as it is, without starting the service: ``Event/started(owner:)`` when it runs,
    /// else ``Event/stopped(idle:)`` with `idle` true when the bus can start it on a call.
    public func current() -> Event {
        if let owner = watcher.owner { return .started(owner: owner) }
        return .stopped(idle: Self.activatable(watcher.bus))
    }

    /// The next event, within `timeout` seconds (nil: forever), or the hang-up of `fd`.
    public func next(timeout: Double?, endingWith fd: Int32? = nil) throws(BusError) -> Event {
        let deadline = timeout.map { monotonicSeconds() + $0 }
        while true {
            let left = deadline.map { max(0, $0 - monotonicSeconds()) }
            switch try watcher.wait(timeout: left, endingWith: fd) {
            case .timeout: return .timeout
            case .readerGone: return .readerGone
            case .signal(let s): if let event = translate(s) { return event }
            }
        }
    }

    private func translate(_ s: BusSignal) -> Event? {
        switch s.member {
        case PokedexSignalWatcher.ownerChanged:
            guard s.values.count == 3, let new = s.values[2].string else { return nil }
            if !new.isEmpty {
                stopReason = nil
                return .started(owner: new)
            }
            defer { stopReason = nil }
            guard let reason = stopReason else { return .vanished }
            return .stopped(idle: reason == .idle)
        case Pokedex1.stopping.name:
            stopReason = (try? Pokedex1.stopping.decode(s.values)).flatMap(Pokedex1.StopReason.init(rawValue:))
            return nil
        case Pokedex1.favoriteChanged.name:
            guard let (id, name, favorite) = try? Pokedex1.favoriteChanged.decode(s.values) else { return nil }
            return .favoriteChanged(id: id, name: name, favorite: favorite)
        case Pokedex1.cacheCleared.name:
            return .cacheCleared
        case FreedesktopBus.propertiesChanged where s.values.count == 3:
            return .propertiesChanged(interface: s.values[0], changed: s.values[1], invalidated: s.values[2])
        default:
            return nil
        }
    }

    /// Every property of the service, read from `owner` (its unique name: never activates);
    /// nil when it has gone meanwhile.
    public func properties(of owner: String) -> BusValue? {
        guard let c = try? PokedexClient(timeout: 5),
              let v = try? c.call(destination: owner, interface: FreedesktopBus.properties, "GetAll", { w throws(BusError) in
                  try w.append(Pokedex1.interfaceName)
              }) else { return nil }
        return v.first
    }

    /// Whether the bus starts the service when it is called (`ListActivatableNames`).
    static func activatable(_ bus: OpaquePointer) -> Bool {
        guard let names = PokedexSignalWatcher.daemonCall(bus, "ListActivatableNames")?.first?.array else { return false }
        return names.contains { $0.string == Pokedex1.busName }
    }
}
