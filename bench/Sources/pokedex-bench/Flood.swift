import CSystemd
import Foundation
import Glibc
import Synchronization
import PokedexBusClient

// Floods of expensive calls, and what another caller meets meanwhile.
//   pokedex-bench flood-names SENDERS CALLS IDS DEPTH
//       SENDERS connections each send CALLS DisplayNames of IDS ids, DEPTH in flight at once;
//       meanwhile another connection alternates Peer.Ping and ListPage(0, 20), every 2 ms, and a
//       third pings dbus-daemon itself, for scale. Prints p50/p99/max ms of each and the flood's
//       calls a second.
//   pokedex-bench flood-localized SENDERS CALLS DEPTH LANGUAGE
//       the same with LocalizedDetail of Pokémon 1–1025 in turn, in LANGUAGE.
//   pokedex-bench probe SECONDS
//       the probes alone, for a flood sent by another process.
//   pokedex-bench big-message MB [sink]
//       five GetResultMetas of MB megabytes (refused at its cap), while another connection pings:
//       the worst Ping during it, and dbus-daemon's own. With `sink`, the same messages go to a
//       sink in this process instead (an sd-bus connection that refuses every call at once, on
//       a thread of its own), pinged the same way: the floor that dbus-daemon's relaying and
//       sd-bus's reading of the message set, which no service can go below.

/// Latencies seen by one prober, in seconds.
final class Probe: @unchecked Sendable {
    // @unchecked: written by the prober's thread until `stop`, read after it joined.
    var samples: [String: [Double]] = [:]
    let stop = Atomic(false)
}

/// Runs `body` on a thread of its own; the returned closure joins it.
func spawn(_ body: @escaping @Sendable () -> Void) -> () -> Void {
    let done = DispatchSemaphore(value: 0)
    let t = Thread { body(); done.signal() }
    t.stackSize = 1 << 20
    t.start()
    return { done.wait() }
}

/// The bench's sink: its bus name.
let sinkName = "io.github.pokedexd.BenchSink"

/// Pings the service and asks it for the first page (or pings dbus-daemon, or the sink), every
/// 2 ms, until stopped.
func probe(_ p: Probe, service: Bool, sink: Bool = false) -> () -> Void {
    spawn {
        guard let c = try? PokedexClient(timeout: 60) else { return }
        while !p.stop.load(ordering: .relaxed) {
            var t = now()
            if sink {
                _ = try? c.call(destination: sinkName, path: "/", interface: FreedesktopBus.peer, "Ping")
                p.samples["ping", default: []].append(now() - t)
            } else if service {
                _ = try? c.ping()
                p.samples["ping", default: []].append(now() - t)
                t = now()
                _ = try? c.listPage(offset: 0, limit: 20)
                p.samples["listpage", default: []].append(now() - t)
            } else {
                _ = try? c.call(destination: FreedesktopBus.daemonName, path: FreedesktopBus.daemonPath,
                                interface: FreedesktopBus.peer, "Ping")
                p.samples["dbus_ping", default: []].append(now() - t)
            }
            usleep(2000)
        }
    }
}

/// The service's probe (Ping and ListPage, or the sink's Ping) and dbus-daemon's, started now;
/// the returned closure stops and joins them and gives the line of their latencies, the
/// service's `reported` ones first.
func startProbes(sink: Bool = false, reported: [String] = ["ping", "listpage"]) -> () -> String {
    let service = Probe(), daemon = Probe()
    let joinService = probe(service, service: true, sink: sink), joinDaemon = probe(daemon, service: false)
    return {
        service.stop.store(true, ordering: .relaxed)
        daemon.stop.store(true, ordering: .relaxed)
        joinService()
        joinDaemon()
        return (reported.map { summary($0, service.samples[$0] ?? []) } + [summary("dbus_ping", daemon.samples["dbus_ping"] ?? [])])
            .joined(separator: " ")
    }
}

func summary(_ name: String, _ xs: [Double]) -> String {
    guard !xs.isEmpty else { return "\(name)=none" }
    // Which sample was the slowest (0: the first call, which may load what later ones reuse).
    let worst = xs.indices.max { xs[$0] < xs[$1] }!
    return "\(name)_p50_ms=\(ms(percentile(xs, 0.5))) \(name)_p99_ms=\(ms(percentile(xs, 0.99))) \(name)_max_ms=\(ms(xs[worst])) "
        + "\(name)_max_at=\(worst) \(name)_n=\(xs.count)"
}

/// `connections` connections on this thread, each sending `calls` calls built by `build` (given
/// the connection's index and the call's number), `depth` in flight on each. Returns how many
/// were answered without an error.
func pipelines(connections: Int, calls: Int, depth: Int,
               _ build: (OpaquePointer, inout OpaquePointer?, Int, Int) -> Int32) -> Int {
    final class Tally { var ok = 0; var inFlight = 0 }
    var buses: [OpaquePointer] = []
    for _ in 0..<connections {
        var bus: OpaquePointer?
        guard sd_bus_open_user(&bus) >= 0, let bus else { break }
        buses.append(bus)
    }
    defer { buses.forEach { sd_bus_flush_close_unref($0) } }
    let tallies = buses.map { _ in Tally() }
    var sent = [Int](repeating: 0, count: buses.count)
    while zip(sent, tallies).contains(where: { $0 < calls || $1.inFlight > 0 }) {
        for (c, bus) in buses.enumerated() {
            while sent[c] < calls && tallies[c].inFlight < depth {
                var m: OpaquePointer?
                guard build(bus, &m, c, sent[c]) >= 0, let m else { return tallies.reduce(0) { $0 + $1.ok } }
                let r = sd_bus_call_async(bus, nil, m, { reply, userdata, _ in
                    let t = Unmanaged<Tally>.fromOpaque(userdata!).takeUnretainedValue()
                    if sd_bus_message_is_method_error(reply, nil) == 0 { t.ok += 1 }
                    t.inFlight -= 1
                    return 1
                }, Unmanaged.passUnretained(tallies[c]).toOpaque(), 120_000_000)
                sd_bus_message_unref(m)
                guard r >= 0 else { return tallies.reduce(0) { $0 + $1.ok } }
                sent[c] += 1
                tallies[c].inFlight += 1
            }
        }
        var progressed = false
        for bus in buses { while sd_bus_process(bus, nil) > 0 { progressed = true } }
        if !progressed {
            var fds = buses.map { pollfd(fd: sd_bus_get_fd($0), events: Int16(POLLIN), revents: 0) }
            _ = poll(&fds, nfds_t(fds.count), 100)
        }
    }
    return tallies.reduce(0) { $0 + $1.ok }
}

func floodNames(_ args: [String]) {
    guard args.count == 6, let senders = Int(args[2]), let calls = Int(args[3]), let idCount = Int(args[4]),
          let depth = Int(args[5]) else { fail("flood-names SENDERS CALLS IDS DEPTH") }
    let all: [UInt32] = Array(1...1025) + Array(10001...10277)
    let ids = (0..<idCount).map { all[$0 % all.count] }
    flood(senders: senders, calls: calls, depth: depth, what: "DisplayNames(\(idCount) ids)") { bus, m, _ in
        serviceCall(Pokedex1.displayNames, (ids, ""), on: bus, into: &m)
    }
}

/// `flood-localized SENDERS CALLS DEPTH LANGUAGE`: LocalizedDetail of Pokémon 1–1025 in turn
/// (each sender from its own offset).
func floodLocalized(_ args: [String]) {
    guard args.count == 6, let senders = Int(args[2]), let calls = Int(args[3]), let depth = Int(args[4]) else {
        fail("flood-localized SENDERS CALLS DEPTH LANGUAGE")
    }
    let language = args[5]
    flood(senders: senders, calls: calls, depth: depth, what: "LocalizedDetail(…, \(language))") { bus, m, n in
        serviceCall(Pokedex1.localizedDetail, (String(n % 1025 + 1), language), on: bus, into: &m)
    }
}

/// A call of `method` on the service with `args`, into `m`: what a flood's `build` returns.
func serviceCall<Args, Reply>(_ method: Method<Args, Reply>, _ args: Args, on bus: OpaquePointer, into m: inout OpaquePointer?) -> Int32 {
    let r = sd_bus_message_new_method_call(bus, &m, Pokedex1.busName, Pokedex1.objectPath, Pokedex1.interfaceName, method.name)
    guard r >= 0, let msg = m else { return r }
    do throws(BusError) {
        try method.writeArgs(MessageWriter(msg), args)
    } catch { return -EINVAL }
    return 0
}

/// `probe SECONDS`: only the probes (Ping and ListPage to the service every 2 ms, and Ping to
/// dbus-daemon) for SECONDS, their latencies printed: run beside a flood in another process,
/// at a higher CPU priority, it measures the service's answer rather than its own scheduling.
func probeOnly(_ args: [String]) {
    guard args.count == 3, let seconds = Double(args[2]) else { fail("probe SECONDS") }
    let stopProbes = startProbes()
    usleep(UInt32(seconds * 1_000_000))
    print(stopProbes())
}

/// SENDERS connections each send `calls` calls built by `build` (given the call's number),
/// `depth` in flight at once, while another connection alternates Peer.Ping and ListPage and a
/// third pings dbus-daemon; prints the flood's rate and what the probes met.
func flood(senders: Int, calls: Int, depth: Int, what: String,
           _ build: @escaping @Sendable (OpaquePointer, inout OpaquePointer?, Int) -> Int32) {
    let stopProbes = startProbes()
    usleep(300_000)  // a baseline before the flood
    let answered = Atomic(0)
    let t0 = now()
    // A connection per sender, driven by a few threads: a hundred runnable threads of the
    // bench's own would make the service wait for a core, whatever it does.
    let threads = min(senders, 4)
    let joins = (0..<threads).map { t in
        spawn {
            let mine = Array(stride(from: t, to: senders, by: threads))
            let ok = pipelines(connections: mine.count, calls: calls, depth: depth) { bus, m, c, k in
                build(bus, &m, mine[c] * 7 + k)
            }
            answered.add(ok, ordering: .relaxed)
        }
    }
    joins.forEach { $0() }
    let seconds = now() - t0
    let probes = stopProbes()
    let total = senders * calls
    print("flood: \(answered.load(ordering: .relaxed)) of \(total) \(what) answered in \(ms(seconds)) ms, "
        + "\(Int(Double(total) / seconds)) calls/s")
    print(probes)
}

/// A connection that owns ``sinkName`` and refuses every call but Peer's at once, on a thread of
/// its own, until `control.stop`; the returned closure joins it.
func sink(_ control: Probe) -> () -> Void {
    let owned = DispatchSemaphore(value: 0)
    let join = spawn {
        var bus: OpaquePointer?
        guard sd_bus_open_user(&bus) >= 0, let bus, sd_bus_request_name(bus, sinkName, 0) >= 0 else { fail("cannot own \(sinkName)") }
        defer { sd_bus_flush_close_unref(bus) }
        var filter: OpaquePointer?
        sd_bus_add_filter(bus, &filter, { m, _, _ in
            guard sd_bus_message_get_type(m, nil) >= 0, sd_bus_message_is_method_call(m, nil, nil) > 0,
                  sd_bus_message_is_method_call(m, FreedesktopBus.peer, nil) == 0 else { return 0 }
            sd_bus_reply_method_errno(m, E2BIG, nil)
            return 1
        }, nil)
        owned.signal()
        while !control.stop.load(ordering: .relaxed) {
            if sd_bus_process(bus, nil) == 0 { sd_bus_wait(bus, 100_000) }
        }
        sd_bus_slot_unref(filter)
    }
    owned.wait()
    return join
}

func bigMessage(_ args: [String]) {
    guard args.count == 3 || (args.count == 4 && args[3] == "sink"), let mb = Int(args[2]) else { fail("big-message MB [sink]") }
    let toSink = args.count == 4
    let sinkControl = Probe()
    let joinSink = toSink ? sink(sinkControl) : {}
    let stopProbes = startProbes(sink: toSink, reported: ["ping"])
    usleep(300_000)
    let id = String(repeating: "2", count: 30)
    let count = mb << 20 / (id.utf8.count + 5)
    var answers = 0
    for _ in 0..<5 {
        answers += pipelines(connections: 1, calls: 1, depth: 1) { bus, m, _, _ in
            let r = sd_bus_message_new_method_call(bus, &m, toSink ? sinkName : Pokedex1.busName, SearchProvider2.objectPath,
                                                   SearchProvider2.interfaceName, SearchProvider2.getResultMetas.name)
            guard r >= 0, let msg = m else { return r }
            do throws(BusError) {
                try MessageWriter(msg).append(strings: Array(repeating: id, count: count))
            } catch { return -EINVAL }
            return 0
        }
        usleep(200_000)
    }
    let probes = stopProbes()
    sinkControl.stop.store(true, ordering: .relaxed)
    joinSink()
    print("big-message\(toSink ? " to the sink" : ""): 5 × GetResultMetas of \(mb) MB (\(count) ids), \(answers) answered with data")
    print(probes)
}
