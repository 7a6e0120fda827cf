@testable import PokedexCore
@testable import PokedexWidgets
import PropertyBased
import Testing

/// A widget following the service, driven by random timelines: the service starting, stopping
/// (idle or told to), favorites changing in bursts or one by one, and time passing, as the real
/// loop feeds them (each deadline met before the next event). After each event and each tick:
/// - nothing is asked of a service that is not running (which would start it), but the first
///   answer a widget needs;
/// - a start is answered at once, a stop that is not idle says "unavailable" at once, an idle
///   exit changes nothing shown;
/// - a service that vanished (no `Stopping`) says "unavailable" at once and is asked once
///   again, no sooner than a second later (which starts it), unless it started meanwhile;
/// - every change while the service runs is answered within ``WidgetFollow/longest``, and an
///   answer to changes comes only once they are quiet for ``WidgetFollow/settle`` or the first
///   has waited ``WidgetFollow/longest``: a burst of toggles is shown once.
/// A failure prints the seed that replays it.
@Suite struct WidgetFollowProperties {
    @Test func followsTheServiceAndSettlesBursts() async {
        await propertyCheck(count: PropertyCounts.cases(2000), input: Gen.uint64()) { seed in
            var rng = SplitMix64(seed: seed)
            var now = Double(rng.next() % 1000)
            let startsRunning = rng.next() % 2 == 0
            var machine = WidgetFollow(running: startsRunning, at: now)
            var running = startsRunning
            var refreshes: [Double] = []
            // Changes not answered yet: the first and the last.
            var firstUnanswered: Double? = now
            var lastChange: Double? = now - WidgetFollow.settle
            // The service vanished at this time and was not asked again since.
            var vanishedAt: Double?
            let eps = 1e-9

            func check(_ effects: [WidgetFollow.Effect], at t: Double, step: Int, cause: String) {
                for e in effects where e == .refresh {
                    if !running, !refreshes.isEmpty {
                        let v = vanishedAt
                        #expect(v != nil, "seed \(seed) step \(step): asked a service that is not running (\(cause))")
                        if let v { #expect(t - v >= 1 - eps, "seed \(seed) step \(step): a vanished service asked again after \(t - v) s") }
                        vanishedAt = nil
                    }
                    if let first = firstUnanswered, let last = lastChange {
                        #expect(t - last >= WidgetFollow.settle - eps || t - first >= WidgetFollow.longest - eps,
                                "seed \(seed) step \(step): answered a burst before it settled (\(cause))")
                    }
                    refreshes.append(t)
                    firstUnanswered = nil
                    lastChange = nil
                }
            }

            for step in 0..<200 {
                let next = now + Double(rng.next() % 700) / 1000  // the next event, 0–0.7 s away
                // The loop meets each deadline before the next event.
                while let d = machine.deadline, d <= next {
                    let t = max(d, now)
                    check(machine.tick(at: t), at: t, step: step, cause: "tick")
                    now = t
                }
                now = next
                // Every change not answered while running is overdue now?
                if running, let first = firstUnanswered {
                    #expect(now - first <= WidgetFollow.longest + eps, "seed \(seed) step \(step): a change waited \(now - first) s")
                }
                let roll = rng.next() % 20
                if roll == 19 {
                    running = false
                    firstUnanswered = nil
                    lastChange = nil
                    vanishedAt = now
                    let effects = machine.receive(.vanished, at: now)
                    #expect(effects == [.showUnavailable], "seed \(seed) step \(step): a vanished service says unavailable at once")
                    #expect((machine.deadline ?? 0) >= now + 1 - eps, "seed \(seed) step \(step): and is asked again later")
                } else if roll < 2 {
                    vanishedAt = nil
                    running = true
                    firstUnanswered = firstUnanswered ?? now
                    lastChange = now - WidgetFollow.settle
                    let effects = machine.receive(.started, at: now)
                    #expect(effects == [.refresh], "seed \(seed) step \(step): a start is answered at once")
                    check(effects, at: now, step: step, cause: "started")
                } else if roll < 4 {
                    let idle = rng.next() % 2 == 0
                    running = false
                    vanishedAt = nil
                    firstUnanswered = nil
                    lastChange = nil
                    let effects = machine.receive(.stopped(idle: idle), at: now)
                    #expect(effects == (idle ? [] : [.showUnavailable]), "seed \(seed) step \(step)")
                    #expect(machine.deadline == nil, "seed \(seed) step \(step): nothing asked until it runs again")
                } else if roll < 14 {
                    // A burst of changes a few milliseconds apart, or one.
                    for _ in 0..<(rng.next() % 3 == 0 ? 1 + Int(rng.next() % 10) : 1) {
                        if running {
                            firstUnanswered = firstUnanswered ?? now
                            lastChange = now
                        }
                        check(machine.receive(.changed, at: now), at: now, step: step, cause: "changed")
                        now += Double(rng.next() % 40) / 1000
                        while let d = machine.deadline, d <= now { check(machine.tick(at: d), at: d, step: step, cause: "tick in burst") }
                    }
                }
                #expect(machine.running == running, "seed \(seed) step \(step)")
            }
        }
    }
}
