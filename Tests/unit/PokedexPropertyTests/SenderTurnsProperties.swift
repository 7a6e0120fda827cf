@testable import PokedexBusServer
@testable import PokedexCore
import PropertyBased
import Testing

/// The order the loop works on the calls it has read (``SenderTurns``), driven by random
/// arrivals (a few senders, two flooding in bursts, one probing a call at a time) and random
/// turns. After each event: nothing lost or served twice, each sender's calls in the order
/// they came; a fresh sender goes ahead of the rotation but never twice in a row while the
/// rotation waits; in the rotation no sender is served twice while another waits there; a
/// call is refused only past its sender's share. A failure prints the seed that replays it.
@Suite struct SenderTurnsProperties {
    @Test(arguments: PropertyCounts.shards)
    func callsAreServedInTurnsAndNoneIsLost(shard: Int) async {
        await propertyCheck(count: PropertyCounts.share(of: PropertyCounts.cases(400)), input: Gen.uint64()) { seed in
            var rng = SplitMix64(seed: seed)
            let limits = TurnLimits(perSender: 1 + Int(rng.next() % 20), total: 1 + Int(rng.next() % 60))
            var turns = SenderTurns<Int>(limits)
            let senders = ["flood", "flood2", "shell", "krunner", "probe"].prefix(2 + Int(rng.next() % 4))
            var model: [String: [Int]] = [:]
            var nextCall = 0
            var lastKind: Bool?  // the last served was fresh
            // For each sender waiting in the rotation: the rotation turns others had since it joined.
            var overtaken: [String: [String: Int]] = [:]

            for step in 0..<300 {
                let where_ = "seed \(seed) step \(step)"
                if rng.next() % 10 < 5 {
                    let sender = senders[senders.startIndex + Int(rng.next() % UInt64(senders.count))]
                    let burst = sender.hasPrefix("flood") ? 1 + Int(rng.next() % 6) : 1
                    for _ in 0..<burst {
                        let mine = model[sender, default: []].count
                        let total = model.values.reduce(0) { $0 + $1.count }
                        let active = model.values.filter { !$0.isEmpty }.count
                        nextCall += 1
                        let overShare = total >= limits.total && mine > 0 && mine * active >= total
                        let expected: SenderTurns<Int>.Arrival = mine >= limits.perSender || overShare ? .refused : .queued
                        let got = turns.arrive(nextCall, from: sender)
                        #expect(got == expected, "\(where_): \(sender) with \(mine) of \(total) queued")
                        if got == .queued { model[sender, default: []].append(nextCall) }
                    }
                } else {
                    let freshBefore = Set(senders.filter { turns.isFresh($0) })
                    let rotationBefore = Set(senders.filter { !turns.isFresh($0) && turns.queued(by: $0) > 0 })
                    guard let (call, sender) = turns.next() else {
                        let left = model.values.reduce(0) { $0 + $1.count }
                        #expect(left == 0, "\(where_): nothing served with \(left) calls queued")
                        continue
                    }
                    #expect(model[sender]?.first == call, "\(where_): \(sender) served \(call), not its oldest")
                    model[sender]!.removeFirst()
                    let wasFresh = freshBefore.contains(sender)
                    #expect(wasFresh || rotationBefore.contains(sender))
                    // Fresh first, but not twice in a row while the rotation waits.
                    if !freshBefore.isEmpty && !rotationBefore.isEmpty {
                        #expect(wasFresh == !(lastKind ?? false), "\(where_): fresh \(freshBefore), rotation \(rotationBefore), served \(sender)")
                    } else if !freshBefore.isEmpty {
                        #expect(wasFresh)
                    }
                    lastKind = wasFresh
                    if !wasFresh {
                        overtaken[sender] = nil
                        for other in rotationBefore where other != sender {
                            overtaken[other, default: [:]][sender, default: 0] += 1
                            #expect(overtaken[other]![sender]! <= 1, "\(where_): \(sender) had two turns while \(other) waited")
                        }
                    } else {
                        overtaken[sender] = nil
                    }
                }
                for sender in senders {
                    #expect(turns.queued(by: sender) == model[sender, default: []].count, "\(where_): \(sender)")
                    #expect(turns.queued(by: sender) <= limits.perSender)
                    if turns.queued(by: sender) == 0 { overtaken[sender] = nil }
                }
                #expect(turns.count == model.values.reduce(0) { $0 + $1.count }, "\(where_)")
            }
            // What is left comes out whole, each sender's in order.
            let rest = turns.removeAll()
            for sender in senders {
                #expect(rest.filter { $0.sender == sender }.map(\.call) == model[sender, default: []], "seed \(seed): \(sender)'s rest")
            }
            #expect(turns.isEmpty)
        }
    }
}
