import PokedexLocks

/// Background work below anything a caller waits for: a priority queue of sprite fetches
/// for the page being browsed and the two after it.
///
/// - The queue is replaced on every new page: work for pages left behind is dropped.
/// - The page on screen is urgent; the pages ahead leave one job's room. Callers never queue
///   behind either: the fetcher's request gate admits callers first and keeps room for them.
/// - A caller that needs a queued resource fetches it directly; the two meet in the
///   sprite cache's single flight, so that resource effectively moves to the front.
/// - It pauses while the network is away.
final class Prefetcher: Sendable {
    private struct State {
        var urgent: [UInt32] = []
        var ahead: [UInt32] = []
        /// Jobs under way.
        var running = 0
        var paused = false
    }

    private let state = Mutex(State())
    private let maxConcurrent: Int
    private let work: @Sendable (UInt32) async -> Void
    private let background: BackgroundWork

    /// - Parameters:
    ///   - maxConcurrent: how many jobs run at once.
    ///   - background: the owner each job runs under.
    ///   - work: what one job does: fetch the sprite of this id.
    init(maxConcurrent: Int, background: BackgroundWork, work: @escaping @Sendable (UInt32) async -> Void) {
        self.background = background
        self.maxConcurrent = max(1, maxConcurrent)
        self.work = work
    }

    /// Replaces the queue: `urgent` (the page on screen) first, then `ahead`.
    func schedule(urgent: [UInt32], ahead: [UInt32]) {
        state.withLock { s in
            // A job under way for one of these ids is not trusted to cover it: the cache may have
            // been cleared since it started. Another job for it costs a disk check, or joins
            // the running fetch in the sprite cache's single flight.
            s.urgent = urgent
            s.ahead = ahead
        }
        pump()
    }

    /// Stops or resumes starting new work (running work finishes).
    func setPaused(_ paused: Bool) {
        state.withLock { $0.paused = paused }
        if !paused { pump() }
    }

    var isPaused: Bool { state.withLock { $0.paused } }

    /// Queued and running jobs, for tests and status.
    var pending: (queued: [UInt32], running: Int) { state.withLock { ($0.urgent + $0.ahead, $0.running) } }

    private func pump() {
        let started: [UInt32] = state.withLock { s in
            var out: [UInt32] = []
            while !s.paused {
                let id: UInt32
                if !s.urgent.isEmpty, s.running < maxConcurrent {
                    id = s.urgent.removeFirst()
                } else if s.urgent.isEmpty, !s.ahead.isEmpty, s.running < max(1, maxConcurrent - 1) {
                    id = s.ahead.removeFirst()
                } else {
                    break
                }
                s.running += 1
                out.append(id)
            }
            return out
        }
        for id in started {
            let started = background.run(.utility) { [self] in
                await work(id)
                state.withLock { $0.running -= 1 }
                pump()
            }
            if !started { state.withLock { $0.running -= 1 } }  // the service is stopping
        }
    }
}
