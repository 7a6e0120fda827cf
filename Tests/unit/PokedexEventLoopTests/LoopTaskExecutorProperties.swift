import Dispatch
import Foundation
import Glibc
import PokedexEventLoop
import PokedexLocks
import XCTest

/// The loop executor's queue and its source, turned on by the job that finds it off and off by
/// the slice that empties it, from random sequences: tasks started from other threads and from
/// the loop's own work, tasks that start others from inside a job, tasks that yield, the loop's
/// other work in between, pauses, and slices from none to 2 ms. After each sequence every job
/// has run, once, on the loop's thread, each starter's tasks in the order it started them, and
/// the loop still serves. A failure names its seed: `LOOP_EXECUTOR_SEED=N` replays it alone.
final class LoopTaskExecutorProperties: XCTestCase {
    /// What the tasks of one sequence record as they run, read by the test.
    final class Record: @unchecked Sendable {
        // @unchecked: every field is behind `lock`.
        private let lock = Mutex(State())
        struct State {
            var ran: [Int: [Int]] = [:]
            var offLoop = 0
        }
        func ran(_ origin: Int, _ n: Int, onLoop: Bool) {
            lock.withLock { s in
                s.ran[origin, default: []].append(n)
                if !onLoop { s.offLoop += 1 }
            }
        }
        var state: State { lock.withLock { $0 } }
    }

    enum Event {
        case fromOtherThread(count: Int)
        case fromLoop(count: Int)
        case chain(depth: Int)
        case yielding(times: Int)
        case loopWork
        case pause(microseconds: UInt32)
    }

    /// How a failure spells it: `other(12) loop(3) chain(5) yield(7) work pause(120)`.
    static func spell(_ events: [Event]) -> String {
        events.map { e in
            switch e {
            case .fromOtherThread(let n): "other(\(n))"
            case .fromLoop(let n): "loop(\(n))"
            case .chain(let n): "chain(\(n))"
            case .yielding(let n): "yield(\(n))"
            case .loopWork: "work"
            case .pause(let us): "pause(\(us))"
            }
        }.joined(separator: " ")
    }

    func testRandomSequencesRunEveryJobOnceOnTheLoopInEachStartersOrder() throws {
        let seeds: [UInt64]
        if let one = ProcessInfo.processInfo.environment["LOOP_EXECUTOR_SEED"].flatMap(UInt64.init) { seeds = [one] } else { seeds = Array(0..<300) }
        for seed in seeds {
            guard try check(seed: seed) else { return }  // the first failing seed is enough to read
        }
    }

    /// Whether the sequence of `seed` held.
    private func check(seed: UInt64) throws -> Bool {
        var rng = Generator(seed: seed)
        let slices: [Duration] = [.zero, .microseconds(50), .milliseconds(2)]
        let slice = slices[rng.next(slices.count)]
        let r = try EventLoopTests.Running()
        defer { r.stop() }
        let made = Mutex<LoopTaskExecutor?>(nil)
        r.loop.runAndWait { made.withLock { $0 = try? LoopTaskExecutor(loop: r.loop, slice: slice) } }
        let executor = try XCTUnwrap(made.withLock { $0 }, "seed \(seed)")
        let loop = r.loop
        let record = Record()
        var expected: [Int: Int] = [:]  // event → the jobs it records, each in turn: 0, 1, 2…
        let events = (0..<(1 + rng.next(40))).map { _ in Self.event(&rng) }
        for (origin, event) in events.enumerated() {
            switch event {
            case .fromOtherThread(let count):
                expected[origin] = count
                DispatchQueue.global().async {
                    for n in 0..<count { Task(executorPreference: executor) { record.ran(origin, n, onLoop: loop.inLoop) } }
                }
            case .fromLoop(let count):
                expected[origin] = count
                loop.execute {
                    for n in 0..<count { Task(executorPreference: executor) { record.ran(origin, n, onLoop: loop.inLoop) } }
                }
            case .chain(let depth):
                expected[origin] = depth
                @Sendable func link(_ n: Int) {
                    Task(executorPreference: executor) {
                        record.ran(origin, n, onLoop: loop.inLoop)
                        if n + 1 < depth { link(n + 1) }
                    }
                }
                link(0)
            case .yielding(let times):
                expected[origin] = times
                Task(executorPreference: executor) {
                    for n in 0..<times {
                        record.ran(origin, n, onLoop: loop.inLoop)
                        await Task.yield()
                    }
                }
            case .loopWork:
                loop.execute { usleep(50) }
            case .pause(let us):
                usleep(us)
            }
        }
        let total = expected.values.reduce(0, +)
        let deadline = Date() + 30
        while record.state.ran.values.map(\.count).reduce(0, +) < total && Date() < deadline { usleep(200) }
        // Whatever was queued before this runs before it (the queue is in order): a job run
        // twice would show now.
        let barrier = DispatchSemaphore(value: 0)
        Task(executorPreference: executor) { barrier.signal() }
        XCTAssertEqual(barrier.wait(timeout: .now() + 30), .success, "seed \(seed): the queue never reached the end")
        let state = record.state
        let context = "seed \(seed) (LOOP_EXECUTOR_SEED=\(seed)), slice \(slice), events \(Self.spell(events))"
        var held = true
        for (origin, count) in expected.sorted(by: { $0.key < $1.key }) {
            let ran = state.ran[origin] ?? []
            if ran != Array(0..<count) {
                XCTFail("event \(origin) ran \(ran) where \(count) jobs were started; \(context)")
                held = false
            }
        }
        if state.offLoop != 0 {
            XCTFail("\(state.offLoop) jobs ran off the loop's thread; \(context)")
            held = false
        }
        if !loop.runAndWait({}) {
            XCTFail("the loop no longer serves; \(context)")
            held = false
        }
        return held
    }

    private static func event(_ rng: inout Generator) -> Event {
        switch rng.next(6) {
        case 0: .fromOtherThread(count: 1 + rng.next(50))
        case 1: .fromLoop(count: 1 + rng.next(50))
        case 2: .chain(depth: 1 + rng.next(30))
        case 3: .yielding(times: 1 + rng.next(30))
        case 4: .loopWork
        default: .pause(microseconds: UInt32(rng.next(500)))
        }
    }

    /// SplitMix64: the same sequence for a seed on every machine.
    struct Generator {
        var state: UInt64
        init(seed: UInt64) { state = seed &+ 0x9E37_79B9_7F4A_7C15 }
        mutating func next(_ bound: Int) -> Int {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            z ^= z >> 31
            return Int(z % UInt64(bound))
        }
    }
}
