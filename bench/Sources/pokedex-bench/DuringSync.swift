import Foundation
import Glibc
import PokedexBusClient
import PokedexLocks

/// `pokedex-bench during-sync MS NAME`: what a person's calls wait while a whole sync runs.
///
/// A warm `ListPage(0, 20)` and a warm `Detail(NAME)` through the bus's own client (no process
/// started per call), one pair every MS ms: first 40 pairs with nothing else running, then for
/// as long as a `Sync()` started from another connection runs. Prints one line per phase and
/// call: how many, p50, p99 and the longest, in ms, and the sync's result.
func duringSync(_ args: [String]) {
    guard args.count == 4, let interval = Double(args[2]), interval > 0 else { fail("during-sync MS NAME") }
    let name = args[3]
    do {
        let c = try PokedexClient()
        for _ in 0..<20 {
            _ = try c.listPage(offset: 0, limit: 20)
            _ = try c.detail(name)
        }
        func pair(_ page: inout [Double], _ detail: inout [Double]) throws(BusError) {
            var t = now()
            _ = try c.listPage(offset: 0, limit: 20)
            page.append(now() - t)
            t = now()
            _ = try c.detail(name)
            detail.append(now() - t)
            usleep(UInt32(interval * 1000))
        }
        var idlePage: [Double] = [], idleDetail: [Double] = []
        for _ in 0..<40 { try pair(&idlePage, &idleDetail) }
        let outcome = Mutex<String?>(nil)
        let syncing = Thread {
            let said: String
            do {
                let r = try PokedexClient().sync { _, _, _ in }
                said = "complete=\(r.complete) failed=\(r.failed)"
            } catch {
                said = "error=\(error)"
            }
            outcome.withLock { $0 = said }
        }
        syncing.start()
        var page: [Double] = [], detail: [Double] = []
        let t0 = now()
        while outcome.withLock({ $0 }) == nil { try pair(&page, &detail) }
        let took = now() - t0
        func line(_ phase: String, _ call: String, _ xs: [Double]) -> String {
            "\(phase) \(call) n=\(xs.count) p50_ms=\(ms(percentile(xs, 0.5))) p99_ms=\(ms(percentile(xs, 0.99))) max_ms=\(ms(xs.max() ?? 0))"
        }
        print(line("idle", "listpage", idlePage))
        print(line("idle", "detail", idleDetail))
        print(line("sync", "listpage", page))
        print(line("sync", "detail", detail))
        print("sync_s=\(ms(took / 1000)) \(outcome.withLock { $0 } ?? "")")
    } catch {
        fail("\(error.name): \(error.message)")
    }
}
