import ArgumentParser
import Glibc
import PokedexBusClient
import PokedexModels

struct Status: PokectlCommand {
    static var configuration: CommandConfiguration { CommandConfiguration(
        commandName: "status",
        abstract: tr("Is the service running; its version, API, cache tiers and favorites. Does not start it."),
        discussion: tr("""
            JSON: {"running"} and, when not running, "reason"; when running, every key of the \
            Status method (version, api_url, cache_dir, data_dir, memory_entries, memory_bytes, \
            memory_cap_bytes, disk_entries, disk_bytes, disk_cap_bytes, favorites, \
            favorites_problem ("" when the favorites file is sound), favorites_readable (false \
            while it can be neither read nor changed), online, requests_in_flight, \
            requests_max_in_flight, sandbox (one line), landlock_abi, landlock (what it \
            restricts: files, tcp, scopes), landlock_missing, namespaces, sandbox_fallback \
            (running as pokedex-fallback.service), unix_sockets_closed (no new Unix sockets once \
            running), and hosts: one object per host with host, api, up, and when down \
            down_since, reason and next_attempt in seconds since the epoch; multiplexed once \
            known). Exits 3 when not running.
            """)) }

    @OptionGroup var common: Common

    var options: ContextOptions { common.options }

    /// What status finds: the service's Status as read (every key, for JSON), or why it is not
    /// running (its unit's reason, when systemd gives one).
    enum Found {
        case running(BusValue)
        case notRunning(why: String?)
    }

    func run(in context: Context) throws {
        let found: Found
        do {
            found = try context.withClient(starting: false) { c throws(BusError) in try Self.fetch(c, context.words) }
        } catch let failure as Failure where context.json {
            // Nothing answers (no session bus, or the service does not reply): still one object.
            context.output.json(.object([("reason", .string(failure.message)), ("running", .bool(false))]))
            throw Failure.silent(failure.code)
        }
        switch found {
        case .notRunning(let why):
            // A unit that failed says why (the first call would fail the same way).
            if context.json { context.output.json(.object([("reason", .string(why ?? "the service is not running")), ("running", .bool(false))])) } else {
                context.output.line(why ?? context.words.tr("pokedexd is not running; the first call starts it (or: systemctl --user start pokedex)"))
            }
            throw Failure.silent(.unavailable)
        case .running(let raw):
            if context.json {
                guard case .object(let fields) = JSON(raw) else { return }
                return context.output.json(.object(([("running", .bool(true))] + fields).sorted { $0.0 < $1.0 }))
            }
            let s = try context.decoded { () throws(BusError) in try Pokedex1.status.decodeReply([raw]) }
            context.output.fields(Self.rows(s, context.output))
        }
    }

    /// Asked without starting the service: its Status only when its name has an owner.
    static func fetch(_ c: any PokedexService, _ words: Words) throws(BusError) -> Found {
        guard try c.nameHasOwner(Pokedex1.busName) else { return .notRunning(why: c.notRunningReason(words: words)) }
        // Stopped (SIGSTOP, a debugger): said at once from its process, not after the call's
        // timeout (13 s, where 'pokectl list' said it in 34 ms).
        if let why = c.stoppedService(words: words) { return .notRunning(why: why) }
        guard let raw = try c.values(Pokedex1.status, ()).first else { return .notRunning(why: c.notRunningReason(words: words)) }
        return .running(raw)
    }

    /// The status as `[key, value]` rows: the service, its tiers, its files, its requests, its
    /// sandbox and each host.
    static func rows(_ s: ServiceStatus, _ output: Output) -> [[String]] {
        let w = output.words
        let state = output.paint(w.tr("running"), "32") + (s.online ? "" : ", " + output.paint(w.tr("offline"), "31"))
        let memory = w.trf("%s entries, %s of %s", String(s.memoryEntries), Output.size(s.memoryBytes), Output.size(s.memoryCapBytes))
        let disk = w.trf("%s files, %s of %s", String(s.diskEntries), Output.size(s.diskBytes), Output.size(s.diskCapBytes))
        let requests = w.trf("%s in flight, at most %s at once so far", String(s.requestsInFlight), String(s.maxRequestsInFlight))
        let favoritesFile = s.favoritesProblem.isEmpty ? [] : [
            [w.tr("favorites file"), output.yellow(Output.safe(ServiceMessages.translate(s.favoritesProblem, w)))],
        ]
        return [
            [w.tr("status"), state], [w.tr("version"), Output.safe(s.version)], [w.tr("API"), Output.safe(s.apiURL)],
            [w.tr("memory tier"), memory], [w.tr("disk tier"), disk], [w.tr("favorites"), String(s.favorites)],
        ] + favoritesFile + [
            [w.tr("cache"), Output.safe(s.cacheDirectory)], [w.tr("data"), Output.safe(s.dataDirectory)],
            [w.tr("requests"), requests], [w.tr("sandbox"), Output.safe(s.sandbox.summary(w))],
        ] + s.hosts.map { [$0.isAPI ? w.tr("API host") : w.tr("host"), describe($0, output)] }
    }

    /// `raw.githubusercontent.com  down since 13:45:02 (Could not resolve host…), next try in 8 s`.
    static func describe(_ h: HostStatus, _ output: Output) -> String {
        let name = Output.safe(h.host), w = output.words
        let proto = h.multiplexed.map { $0 ? ", HTTP/2" : ", HTTP/1.1" } ?? ""
        guard !h.up else { return name + "  " + output.paint(w.tr("up"), "32") + proto }
        var text = name + "  " + output.paint(w.tr("down"), "31")
        if let since = h.downSince { text += " " + w.trf("since %s", clock(since)) }
        if !h.reason.isEmpty { text += " (" + Output.safe(h.reason) + ")" }
        if let next = h.nextAttempt {
            // Numbers from outside: a NaN or an infinity must not trap the conversion.
            let left = (next - Double(time(nil))).rounded(.up)
            let wait = left.isFinite ? Int(max(-1, min(left, 1e9))) : 0
            text += ", " + (wait > 0 ? w.trf("next try in %s s", String(wait)) : w.tr("being tried"))
        }
        return text
    }

    /// Local time of day, `13:45:02`.
    static func clock(_ epoch: Double) -> String {
        var t = time_t(epoch.isFinite ? max(0, min(epoch, 1e12)) : 0)
        var parts = tm()
        localtime_r(&t, &parts)
        func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))"
    }
}
