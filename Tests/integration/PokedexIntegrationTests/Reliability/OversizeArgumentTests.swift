import Foundation
import Glibc
import PokedexBusClient
import PokedexLocks
import XCTest

/// Every argument of every member of every interface the service publishes, sent over its cap
/// and then as a 16 MB payload by an ordinary bus client, while another connection pings the
/// service: each call is refused with `InvalidArgument` naming the argument and the cap, the
/// pings keep answering within 50 ms, and the daemon never exits.
final class OversizeArgumentTests: DaemonTestCase {
    static let interfaces = [Pokedex1.interface, SearchProvider2.interface, KRunner1.interface]
    static let hugeBytes = 16 << 20

    /// A value of `signature` as a caller sends it.
    enum Payload {
        case string(String)
        case strings([String])
        case uint32s([UInt32])
        case uint32(UInt32)
        case bool(Bool)
        case double(Double)

        func write(_ w: MessageWriter) throws(BusError) {
            switch self {
            case .string(let s): try w.append(s)
            case .strings(let a): try w.append(strings: a)
            case .uint32s(let a): try w.append(uints: a)
            case .uint32(let u): try w.append(u)
            case .bool(let b): try w.append(b)
            case .double(let d): try w.append(d)
            }
        }

        /// An ordinary value, for the arguments not under test.
        static func ordinary(_ signature: String) -> Payload? {
            switch signature {
            // "": read as any string argument is (Moves' method before its language is ""
            // or a way: "1" would be refused before the oversized argument after it is read).
            case "s": return .string("")
            case "as": return .strings(["1"])
            case "au": return .uint32s([1])
            case "u": return .uint32(1)
            case "b": return .bool(false)
            case "d": return .double(0)
            default: return nil
            }
        }

        /// Just over the cap, each way it can be, then 16 MB.
        static func hostile(_ signature: String, _ cap: ArgumentCap) -> [(String, Payload)] {
            switch signature {
            case "s":
                return [("\(cap.bytes + 1) bytes", .string(String(repeating: "a", count: cap.bytes + 1))),
                        ("16 MB", .string(String(repeating: "a", count: hugeBytes)))]
            case "as":
                let items = cap.items ?? 0
                // "1"…"150", as a caller asking for every Pokémon over and over would send.
                var ids: [String] = []
                var bytes = 0
                while bytes < hugeBytes {
                    let s = String(ids.count % 150 + 1)
                    ids.append(s)
                    bytes += s.utf8.count + 5  // length, string, NUL
                }
                return [("\(items + 1) strings", .strings(Array(repeating: "1", count: items + 1))),
                        ("one string of \(cap.bytes + 1) bytes", .strings([String(repeating: "1", count: cap.bytes + 1)])),
                        ("16 MB of \(ids.count) ids", .strings(ids)),
                        ("one 16 MB string", .strings([String(repeating: "1", count: hugeBytes)]))]
            case "au":
                let items = cap.items ?? 0
                return [("\(items + 1) ids", .uint32s(Array(repeating: 25, count: items + 1))),
                        ("16 MB of ids", .uint32s(Array(repeating: 25, count: hugeBytes / 4)))]
            default:
                return []
            }
        }
    }

    /// Pings the service from its own connection until stopped; the round trips, in seconds.
    final class Pinger: @unchecked Sendable {
        private let stopped = Mutex(false)
        private let times = Mutex<[Double]>([])
        private let failures = Mutex(0)
        private var thread: Thread?

        func start() {
            let t = Thread { [self] in
                guard let c = try? PokedexClient(timeout: 5) else { failures.withLock { $0 += 1 }; return }
                while !stopped.withLock({ $0 }) {
                    let t0 = monotonicNow()
                    do throws(BusError) { try c.ping() } catch { failures.withLock { $0 += 1 } }
                    let dt = monotonicNow() - t0
                    times.withLock { $0.append(dt) }
                    usleep(2000)
                }
            }
            thread = t
            t.start()
        }

        /// How many round trips are in so far: where a phase begins.
        func mark() -> Int { times.withLock { $0.count } }

        func stop() -> (times: [Double], failures: Int) {
            stopped.withLock { $0 = true }
            usleep(50_000)
            return (times.withLock { $0 }, failures.withLock { $0 })
        }
    }

    func testEveryArgumentOfEveryMemberOverItsCapIsRefusedWhilePingAnswers() throws {
        try h.startDaemon(["--no-prefetch"])
        let c = try PokedexClient(timeout: 30)
        _ = try c.listPage(offset: 0, limit: 20)  // the index is loaded: refusals are not "not found"
        let pinger = Pinger()
        pinger.start()
        // A baseline measured alongside: the same pings with nothing else asked, on this machine now.
        usleep(500_000)
        let quietEnd = pinger.mark()
        var sent = 0
        for interface in Self.interfaces {
            for case .method(let member, let ins, _) in interface.members {
                for (i, arg) in ins.enumerated() {
                    // A value whose size the caller chooses has a cap in the contract.
                    let sized = arg.signature.contains("s") || arg.signature.contains("a")
                    guard sized else { continue }
                    guard let cap = arg.cap else {
                        XCTFail("\(interface.name).\(member)'s \(arg.name) (\(arg.signature)) has no cap")
                        continue
                    }
                    let hostile = Payload.hostile(arg.signature, cap)
                    XCTAssertFalse(hostile.isEmpty, "\(interface.name).\(member)'s \(arg.name): no hostile payload for \(arg.signature)")
                    for (what, payload) in hostile {
                        let values = ins.enumerated().map { j, a in j == i ? payload : Payload.ordinary(a.signature) }
                        guard values.allSatisfy({ $0 != nil }) else {
                            XCTFail("\(member): an argument of a signature the test does not know")
                            continue
                        }
                        let message = assertBusError(errorPrefix + "InvalidArgument") { () throws(BusError) in
                            _ = try c.call(path: interface.objectPath, interface: interface.name, member) { w throws(BusError) in
                                for v in values { try v!.write(w) }
                            }
                        }
                        let context = "\(interface.name).\(member) with \(arg.name) = \(what): \(message)"
                        XCTAssertTrue(message.hasPrefix(arg.name + ":"), "the error names the argument: \(context)")
                        XCTAssertTrue(message.contains("cap"), "the error gives the cap: \(context)")
                        XCTAssertTrue(message.contains(String(cap.bytes)) || cap.items.map { message.contains(String($0)) } == true,
                                      "the error gives the cap's figure: \(context)")
                        XCTAssertTrue(h.daemon?.isRunning == true, "the daemon is still running after \(context)")
                        sent += 1
                    }
                }
            }
        }
        let (all, failures) = pinger.stop()
        let quiet = all.prefix(quietEnd).sorted(), times = Array(all.dropFirst(quietEnd))
        XCTAssertGreaterThanOrEqual(sent, 30, "every capped argument was tried")
        XCTAssertEqual(failures, 0, "every Peer.Ping was answered")
        XCTAssertGreaterThan(times.count, 50, "pings were sent throughout")
        XCTAssertGreaterThan(quiet.count, 10, "pings were sent before")
        let sorted = times.sorted()
        let p99 = sorted[min(sorted.count - 1, sorted.count * 99 / 100)]
        let quietP99 = quiet[min(quiet.count - 1, quiet.count * 99 / 100)]
        print("oversize: \(sent) refused calls; \(times.count) pings, p50 \(ms(sorted[sorted.count / 2])) ms, "
              + "p99 \(ms(p99)) ms, max \(ms(sorted.last!)) ms; before them p99 \(ms(quietP99)) ms")
        // Work that grew with an argument's size would hold the loop for its whole length: far
        // beyond the pings' own p99 before, however busy the machine is.
        let floor = ProcessInfo.processInfo.environment["POKEDEX_SANITIZER"] == nil ? 0.050 : 0.250
        XCTAssertLessThanOrEqual(p99, max(floor, 5 * quietP99), "Peer.Ping p99 during the oversize calls, against its p99 before")
        // Still the service it was.
        XCTAssertTrue(h.daemon?.isRunning == true)
        XCTAssertEqual(try c.detail("pikachu").name, "pikachu")
        let metas = try c.call(path: SearchProvider2.objectPath, interface: SearchProvider2.interfaceName,
                               SearchProvider2.getResultMetas.name) { w throws(BusError) in try w.append(strings: (1...64).map(String.init)) }
        XCTAssertGreaterThan(metas.first?.array?.count ?? 0, 0, "64 ids, at the cap, are described (those the mock has)")
    }

    private func ms(_ s: Double) -> String { String(format: "%.1f", s * 1000) }
}

private func monotonicNow() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}
