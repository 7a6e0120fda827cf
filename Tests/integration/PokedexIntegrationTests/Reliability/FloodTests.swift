import Foundation
import PokedexBusClient
import PokedexLocks
import XCTest

/// Fifty clients at once, a thousand calls each: every call answered, and memory within the
/// configured caps.
final class FloodTests: DaemonTestCase {
    func testFiftyClientsTimesAThousandCalls() throws {
        let clients = 50
        let perClient = Int(ProcessInfo.processInfo.environment["POKEDEX_FLOOD_CALLS"] ?? "") ?? 1000
        try h.startDaemon(["--notify=no", "--memory-cache-mib", "4", "--disk-cache-mib", "8"])
        let warm = try PokedexClient()
        for offset in stride(from: 0, to: 60, by: 20) { _ = try warm.listPage(offset: UInt32(offset), limit: 20) }
        for id in 1...44 { _ = try warm.detail(String(id)) }
        let before = h.daemonResources()

        let answered = Mutex(0)
        let failures = Mutex<[String]>([])
        let peakRSS = Mutex(0)
        let start = now()
        let threads = (0..<clients).map { k in
            Thread {
                guard let c = try? PokedexClient(timeout: 60) else {
                    failures.withLock { $0.append("client \(k) could not connect") }
                    return
                }
                var rng = SystemRandomNumberGenerator()
                for i in 0..<perClient {
                    do throws(BusError) {
                        switch i % 6 {
                        case 0: _ = try c.listPage(offset: UInt32.random(in: 0...40, using: &rng), limit: 20)
                        case 1: _ = try c.detail(String(Int.random(in: 1...44, using: &rng)))
                        case 2: _ = try c.search(["pika", "char", "saur", "zu"].randomElement(using: &rng)!, limit: 5)
                        case 3: _ = try c.status()
                        case 4: _ = try c.listFavorites()
                        default:
                            if i % 60 == 5 { try c.setFavorite(String(k % 44 + 1), Bool.random(using: &rng)) } else { try c.ping() }
                        }
                        answered.withLock { $0 += 1 }
                    } catch {
                        failures.withLock { $0.append("client \(k) call \(i): \(error)") }
                    }
                }
            }
        }
        threads.forEach { $0.start() }
        while threads.contains(where: { !$0.isFinished }) {
            let r = h.daemonResources().rssKiB
            peakRSS.withLock { $0 = max($0, r) }
            usleep(50_000)
        }
        let seconds = now() - start
        let status = try warm.status()
        let after = h.daemonResources()
        print("flood: \(clients) clients × \(perClient) calls in \(String(format: "%.1f", seconds)) s (\(Int(Double(clients * perClient) / seconds)) calls/s); answered \(answered.withLock { $0 }); RSS \(before.rssKiB) → peak \(peakRSS.withLock { $0 }) → \(after.rssKiB) KiB; memory tier \(status.memoryBytes) of \(status.memoryCapBytes) B, disk tier \(status.diskBytes) of \(status.diskCapBytes) B")
        XCTAssertEqual(failures.withLock { $0.prefix(5) }, [])
        XCTAssertEqual(answered.withLock { $0 }, clients * perClient, "every call answered")
        XCTAssertTrue(h.daemonIsRunning)
        XCTAssertLessThanOrEqual(status.memoryBytes, status.memoryCapBytes)
        XCTAssertLessThanOrEqual(status.diskBytes, status.diskCapBytes)
        if !underSanitizer {
            XCTAssertLessThanOrEqual(peakRSS.withLock { $0 }, before.rssKiB + 4 * 1024 + 16 * 1024,
                                     "the peak stays within the working size, the memory cap and the bus buffers")
        }
        XCTAssertLessThanOrEqual(after.fds, before.fds + 2)
    }
}
