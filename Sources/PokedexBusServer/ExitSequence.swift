/// How the service leaves, whichever comes first and whatever follows: an idle exit, SIGTERM,
/// or SIGTERM during an idle exit's drain. It decides; ``PokedexBusServer`` does what it says.
///
/// - Idle exit: tell systemd STOPPING=1, then release the name; exit once no call is pending.
/// - SIGTERM: the same if not already under way, and in every case a grace period for the calls
///   in flight, after which the ones that have not begun a change are failed.
struct ExitSequence: Equatable {
    enum Step: Equatable {
        /// `sd_notify("STOPPING=1")`: before the name goes, so an activation meanwhile starts a new instance.
        case notifyStopping
        /// Release the bus name; calls already routed here are still answered.
        case releaseName
        /// Arm the grace timer for the calls in flight.
        case armGrace
    }

    /// The name is being released (idle exit or SIGTERM).
    private(set) var stopping = false
    /// SIGTERM was received.
    private(set) var terminating = false

    /// The idle timer found nothing to do for the whole timeout.
    mutating func idle() -> [Step] {
        guard !stopping else { return [] }
        stopping = true
        return [.notifyStopping, .releaseName]
    }

    /// SIGTERM (or SIGINT). A second one changes nothing: the grace already runs.
    mutating func terminate() -> [Step] {
        guard !terminating else { return [] }
        terminating = true
        if stopping { return [.armGrace] }  // an idle exit's drain: the name is already going
        stopping = true
        return [.notifyStopping, .releaseName, .armGrace]
    }
}
