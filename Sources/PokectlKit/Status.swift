import ArgumentParser
import Glibc
import PokedexBusClient
import PokedexModels

struct Status: ParsableCommand {
    static var configuration: CommandConfiguration { CommandConfiguration(
        commandName: "status",
        abstract: tr("Is the service running; its version, API, cache tiers and favorites. Does not start it."),
        discussion: tr("JSON: {\"running\"} and, when not running, \"reason\"; when running, every key of the Status method (version, api_url, cache_dir, data_dir, memory_entries, memory_bytes, memory_cap_bytes, disk_entries, disk_bytes, disk_cap_bytes, favorites, favorites_problem (\"\" when the favorites file is sound), online, requests_in_flight, requests_max_in_flight, sandbox (one line), landlock_abi, landlock (what it restricts: files, tcp, scopes), landlock_missing, namespaces, sandbox_fallback (running as pokedex-fallback.service), unix_sockets_closed (no new Unix sockets once running), and hosts: one object per host with host, api, up, and when down down_since, reason and next_attempt in seconds since the epoch; multiplexed once known). Exits 3 when not running.")) }

    @OptionGroup var common: Common

    func run() throws {
        let raw: BusValue?
        do {
            raw = try withClient(starting: false) { c throws(BusError) -> BusValue? in
                let owned = try c.call(destination: FreedesktopBus.daemonName, path: FreedesktopBus.daemonPath,
                                       interface: FreedesktopBus.daemonName, "NameHasOwner") { w throws(BusError) in
                    try w.append(Pokedex1.busName)
                }
                guard owned.first?.bool == true else { return nil }
                return try c.values(Pokedex1.status, ()).first
            }
        } catch let failure as Failure where common.json {
            // Nothing answers (no session bus, or the service does not reply): still one object.
            JSON.object([("reason", .string(failure.message)), ("running", .bool(false))]).print()
            throw Failure.silent(failure.code)
        }
        guard let raw else {
            // A unit that failed says why (the first call would fail the same way).
            let unit = PokedexClient.settledUnitState()
            let why = unit?.explanation(unit: PokedexClient.unitName, words: Language.words)
            if common.json { JSON.object([("reason", .string(why ?? "the service is not running")), ("running", .bool(false))]).print() } else {
                print(why ?? Language.words.tr("pokedexd is not running; the first call starts it (or: systemctl --user start pokedex)"))
            }
            throw Failure.silent(.unavailable)
        }
        if common.json {
            guard case .object(let fields) = JSON(raw) else { return }
            return JSON.object(([("running", .bool(true))] + fields).sorted { $0.0 < $1.0 }).print()
        }
        let s = try decoded { () throws(BusError) in try Pokedex1.status.decodeReply([raw]) }
        let w = Language.words
        let rows = [
            [w.tr("status"), Output.paint(w.tr("running"), "32") + (s.online ? "" : ", " + Output.paint(w.tr("offline"), "31"))],
            [w.tr("version"), Output.safe(s.version)], [w.tr("API"), Output.safe(s.apiURL)],
            [w.tr("memory tier"), w.trf("%s entries, %s of %s", String(s.memoryEntries), Output.size(s.memoryBytes), Output.size(s.memoryCapBytes))],
            [w.tr("disk tier"), w.trf("%s files, %s of %s", String(s.diskEntries), Output.size(s.diskBytes), Output.size(s.diskCapBytes))],
            [w.tr("favorites"), String(s.favorites)],
        ] + (s.favoritesProblem.isEmpty ? [] : [
            [w.tr("favorites file"), Output.yellow(Output.safe(ServiceMessages.translate(s.favoritesProblem, w)))],
        ]) + [
            [w.tr("cache"), Output.safe(s.cacheDirectory)], [w.tr("data"), Output.safe(s.dataDirectory)],
            [w.tr("requests"), w.trf("%s in flight, at most %s at once so far", String(s.requestsInFlight), String(s.maxRequestsInFlight))],
            [w.tr("sandbox"), Output.safe(s.sandbox.summary(w))],
        ] + s.hosts.map { [$0.isAPI ? w.tr("API host") : w.tr("host"), Self.describe($0)] }
        Output.fields(rows)
    }

    /// `raw.githubusercontent.com  down since 13:45:02 (Could not resolve host…), next try in 8 s`.
    static func describe(_ h: HostStatus) -> String {
        let name = Output.safe(h.host), w = Language.words
        let proto = h.multiplexed.map { $0 ? ", HTTP/2" : ", HTTP/1.1" } ?? ""
        guard !h.up else { return name + "  " + Output.paint(w.tr("up"), "32") + proto }
        var text = name + "  " + Output.paint(w.tr("down"), "31")
        if let since = h.downSince { text += " " + w.trf("since %s", clock(since)) }
        if !h.reason.isEmpty { text += " (" + Output.safe(h.reason) + ")" }
        if let next = h.nextAttempt {
            let wait = Int((next - Double(time(nil))).rounded(.up))
            text += ", " + (wait > 0 ? w.trf("next try in %s s", String(wait)) : w.tr("being tried"))
        }
        return text
    }

    /// Local time of day, `13:45:02`.
    static func clock(_ epoch: Double) -> String {
        var t = time_t(epoch)
        var parts = tm()
        localtime_r(&t, &parts)
        func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))"
    }
}
