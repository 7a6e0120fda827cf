@testable import PokedexBusServer
@testable import PokedexCore
import PropertyBased
import Testing

/// The admission of calls, driven by random sequences of arrivals (from a few callers, in
/// both lanes, one caller flooding) and endings (any running or waiting call, in any order).
/// After each event: no lane over its room and no caller over its cap; no room left idle while
/// someone under their cap waits; each caller's calls start in the order they came; a caller
/// under its cap who waits sees any other caller start at most one call before its own turn;
/// no caller over its waiting cap. A failure prints the seed that replays it.
@Suite struct CallAdmissionProperties {
    @Test(arguments: PropertyCounts.shards)
    func callsAreAdmittedFairlyAndNoRoomIsLeftIdle(shard: Int) async {
        await propertyCheck(count: PropertyCounts.share(of: PropertyCounts.cases(400)), input: Gen.uint64()) { seed in
            var rng = SplitMix64(seed: seed)
            let limits = CallAdmission.Limits(
                room: [.light: 1 + Int(rng.next() % 6), .heavy: 1 + Int(rng.next() % 3)],
                perCaller: [.light: 1 + Int(rng.next() % 3), .heavy: 1 + Int(rng.next() % 2)],
                maxWaiting: 1 + Int(rng.next() % 40))
            var admission = CallAdmission(limits)
            let callers = ["flood", "shell", "krunner", "pokectl"].prefix(2 + Int(rng.next() % 3))
            var live: [(id: UInt64, caller: String, lane: CallAdmission.Lane)] = []
            var started: [UInt64] = []
            // For each waiting caller: how many calls each other caller started since it last
            // started (or began waiting), counted only while it was under its cap.
            var overtaken: [CallAdmission.Lane: [String: [String: Int]]] = [.light: [:], .heavy: [:]]
            var nextID: UInt64 = 0

            func noteStarts(_ ids: [UInt64]) {
                for id in ids {
                    guard let call = live.first(where: { $0.id == id }) else { continue }
                    started.append(id)
                    overtaken[call.lane]![call.caller] = [:]
                    for other in callers where other != call.caller && !admission.waiting(call.lane, by: other).isEmpty {
                        overtaken[call.lane]![other, default: [:]][call.caller, default: 0] += 1
                    }
                }
            }

            for step in 0..<300 {
                let roll = rng.next() % 10
                if roll < 6 || live.isEmpty {
                    // Arrivals: the flood sends most, in bursts.
                    let caller = rng.next() % 2 == 0 ? callers.first! : callers[callers.startIndex + Int(rng.next() % UInt64(callers.count))]
                    let lane: CallAdmission.Lane = rng.next() % 3 == 0 ? .light : .heavy
                    for _ in 0..<(caller == "flood" ? 1 + Int(rng.next() % 4) : 1) {
                        nextID += 1
                        // Those already waiting under their cap are overtaken by nobody who starts now.
                        let before = admission.running(lane)
                        switch admission.arrive(nextID, caller: caller, lane: lane) {
                        case .start:
                            live.append((nextID, caller, lane))
                            #expect(admission.running(lane) == before + 1)
                            noteStarts([nextID])
                        case .wait:
                            live.append((nextID, caller, lane))
                        case .refused:
                            #expect(admission.waiting(by: caller) == limits.maxWaiting, "seed \(seed) step \(step)")
                        }
                    }
                } else {
                    // An ending: any call, running or waiting (answered, timed out, its caller gone).
                    let k = Int(rng.next() % UInt64(live.count))
                    let call = live.remove(at: k)
                    let next = admission.finish(call.id)
                    noteStarts(next)
                    #expect(next.allSatisfy { id in live.contains { $0.id == id } })
                }
                for lane in CallAdmission.Lane.allCases {
                    #expect(admission.running(lane) <= limits.room[lane]!, "seed \(seed) step \(step)")
                    for caller in callers {
                        let running = admission.running(lane, by: caller)
                        #expect(running <= limits.perCaller[lane]!, "seed \(seed) step \(step)")
                        #expect(admission.waiting(by: caller) <= limits.maxWaiting)
                        // Work-conserving: room left while this caller, under its cap, waits.
                        let waits = !admission.waiting(lane, by: caller).isEmpty
                        #expect(!(waits && running < limits.perCaller[lane]! && admission.running(lane) < limits.room[lane]!),
                                "seed \(seed) step \(step): \(caller) waits in \(lane) with room free")
                        // Round-robin: no other caller started twice while this one waited under its cap.
                        if waits && running < limits.perCaller[lane]! {
                            for (other, n) in overtaken[lane]![caller] ?? [:] {
                                #expect(n <= 1, "seed \(seed) step \(step): \(other) started \(n) calls while \(caller) waited")
                            }
                        } else {
                            overtaken[lane]![caller] = [:]
                        }
                    }
                }
                // Each caller's calls of a lane start in the order they came.
                for caller in callers {
                    for lane in CallAdmission.Lane.allCases {
                        let mine = started.filter { id in live.contains { $0.id == id && $0.caller == caller && $0.lane == lane } }
                        #expect(mine == mine.sorted(), "seed \(seed): \(caller)'s calls started out of order")
                    }
                }
            }
        }
    }
}
