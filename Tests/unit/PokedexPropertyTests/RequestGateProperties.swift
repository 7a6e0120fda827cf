@testable import PokedexCore
@testable import PokedexNetwork
import PropertyBased
import Testing

/// Issue 58: the request gate's admission stops early and asks about a host once a call; who
/// it admits, and the state it leaves, are what walking the whole line gave, after every event
/// of random sequences (waiters of every priority to hosts that multiplex, do not, or are not
/// known yet; transfers ending; a caller promoting what background work asked for; a host
/// learnt), under random limits.
@Suite struct RequestGateProperties {
    typealias State = RequestGate.State
    typealias Waiter = RequestGate.Waiter

    /// The admission as it was: every waiter looked at, the host asked each time.
    static func reference(_ s: inout State, limits: RequestGate.Limits, multiplexes: (String) -> Bool?) -> [UInt64] {
        var out: [UInt64] = []
        var i = 0
        let reserve = max(1, limits.maxInFlight / 8)
        while i < s.waiting.count, s.inFlight < limits.maxInFlight {
            let w = s.waiting[i]
            let callers = w.priority.isCallers
            let globalRoom = callers ? limits.maxInFlight : limits.maxInFlight - reserve
            let hostCap = multiplexes(w.host) ?? w.mayMultiplex ? limits.maxInFlight : limits.perHostConnections
            let hostRoom = callers || w.priority == .prefetch ? hostCap : max(1, hostCap - 1)
            let byteRoom = callers ? limits.maxHeldBytes : limits.maxHeldBytes / 4 * 3
            if s.heldBytes > 0 && s.heldBytes + w.bytes > byteRoom { break }
            guard s.inFlight < globalRoom, s.perHost[w.host, default: 0] < hostRoom else {
                i += 1
                continue
            }
            s.waiting.remove(at: i)
            s.inFlight += 1
            s.maxInFlightSeen = max(s.maxInFlightSeen, s.inFlight)
            s.perHost[w.host, default: 0] += 1
            s.heldBytes += w.bytes
            out.append(w.id)
        }
        return out
    }

    static func summary(_ s: State) -> String {
        "inFlight \(s.inFlight) seen \(s.maxInFlightSeen) held \(s.heldBytes) perHost \(s.perHost.sorted { $0.key < $1.key }) "
            + "waiting \(s.waiting.map { "\($0.id)/\($0.priority)/\($0.host)" })"
    }

    @Test func admissionIsTheWholeLinesWalk() async {
        await propertyCheck(count: PropertyCounts.cases(3000), input: Gen.uint64()) { seed in
            var rng = SplitMix64(seed: seed)
            let limits = RequestGate.Limits(maxInFlight: Int.random(in: 1...12, using: &rng),
                                            perHostConnections: Int.random(in: 1...4, using: &rng),
                                            maxHeldBytes: [1 << 10, 64 << 10, 8 << 20].randomElement(using: &rng)!)
            let hosts = ["a.test", "b.test", "c.test:8080"]
            var learnt: [String: Bool] = [:]
            var state = State()
            var running: [(host: String, bytes: Int)] = []
            for step in 0..<Int.random(in: 1...80, using: &rng) {
                switch Int.random(in: 0..<10, using: &rng) {
                case 0..<5:  // a request enters the line
                    let host = hosts.randomElement(using: &rng)!
                    let url = (Bool.random(using: &rng) ? "https://" : "http://") + host + "/\(Int.random(in: 0..<6, using: &rng))"
                    let priority = FetchPriority(rawValue: Int.random(in: 0...3, using: &rng))!
                    state.nextID += 1
                    let w = Waiter(id: state.nextID, host: host, url: url, priority: priority,
                                   bytes: [0, 0, 100, 4 << 10, 1 << 20].randomElement(using: &rng)!)
                    let at = state.waiting.firstIndex { ($0.priority, $0.id) > (w.priority, w.id) } ?? state.waiting.endIndex
                    state.waiting.insert(w, at: at)
                case 5..<8:  // a transfer ends and its body is decoded
                    guard !running.isEmpty else { continue }
                    let r = running.remove(at: Int.random(in: 0..<running.count, using: &rng))
                    state.inFlight -= 1
                    state.perHost[r.host, default: 1] -= 1
                    if state.perHost[r.host] == 0 { state.perHost.removeValue(forKey: r.host) }
                    state.heldBytes -= r.bytes
                case 8:  // a caller now waits for what background work asked for
                    guard let w = state.waiting.randomElement(using: &rng) else { continue }
                    for other in state.waiting where other.url == w.url && other.priority > .required { other.priority = .required }
                    state.waiting.sort { ($0.priority, $0.id) < ($1.priority, $1.id) }
                default:  // a host has answered: whether it multiplexes is known
                    learnt[hosts.randomElement(using: &rng)!] = Bool.random(using: &rng)
                }
                var expected = state
                let before = Self.summary(state)
                let want = Self.reference(&expected, limits: limits) { learnt[$0] }
                var asked: [String] = []
                let admitted = RequestGate.admit(&state, limits: limits) { asked.append($0); return learnt[$0] }
                let got = admitted.map(\.id)
                #expect(got == want, "seed \(seed) step \(step) \(limits): from \(before)")
                #expect(Self.summary(state) == Self.summary(expected), "seed \(seed) step \(step)")
                #expect(asked.count == Set(asked).count, "seed \(seed) step \(step): a host asked about twice: \(asked)")
                guard got == want else { return }
                running += admitted.map { ($0.host, $0.bytes) }
            }
        }
    }
}
