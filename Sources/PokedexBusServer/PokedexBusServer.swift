import CBusShims
import PokedexBusClient
import CSystemd
import Glibc
import PokedexCore
import PokedexEventLoop

/// Publishes a ``PokedexService`` as `io.github.pokedexd.Pokedex1` on the session bus.
///
/// It only translates: arguments in, the service's answers or errors out. The bus
/// belongs to the loop thread. A call the memory tier can answer is replied to inline;
/// any other takes a ref on the message, runs as a task, and is replied to exactly once
/// on the loop thread when the task ends.
public final class PokedexBusServer: @unchecked Sendable {
    let loop: EventLoop
    let service: PokedexService
    let log: Logger
    let idleTimeout: Double
    let shutdownGrace: Double

    // Loop-thread state.
    var bus: OpaquePointer?
    var slot: OpaquePointer?
    var pending: [UInt64: OpaquePointer] = [:]
    var nextCall: UInt64 = 0
    var lastActivity: UInt64 = 0
    var idleTimer: EventSource?
    var graceTimer: EventSource?
    var stopping = false
    var lastSyncSignal: UInt64 = 0
    /// Set when the loop should end once no call is pending.
    var exitWhenDrained = false

    /// - Parameters:
    ///   - idleTimeout: seconds without calls after which the service releases its name and
    ///     exits (D-Bus activation brings it back); 0 = never.
    ///   - shutdownGrace: seconds that calls in flight get to finish on SIGTERM.
    public init(loop: EventLoop, service: PokedexService, idleTimeout: Double, shutdownGrace: Double = 5,
                log: @escaping Logger) {
        self.loop = loop
        self.service = service
        self.idleTimeout = idleTimeout
        self.shutdownGrace = shutdownGrace
        self.log = log
    }

    /// Connects to the session bus, publishes the object, takes the name and tells
    /// systemd READY=1. Call on the loop thread, before ``EventLoop/run()``.
    public func start() throws(BusError) {
        var b: OpaquePointer?
        try busCheck(sd_bus_open_user_with_description(&b, "pokedexd"), "cannot connect to the session bus")
        bus = b
        try busCheck(sd_bus_attach_event(bus, loop.event, 0), "cannot attach the bus to the event loop")
        sd_bus_set_exit_on_disconnect(bus, 1)
        let me = Unmanaged.passUnretained(self).toOpaque()
        try busCheck(
            pdx_bus_add_pokedex_object(
                bus, &slot, PokedexBusNames.objectPath, PokedexBusNames.interface,
                { m, userdata, _ in
                    Unmanaged<PokedexBusServer>.fromOpaque(userdata!).takeUnretainedValue().handle(m!)
                },
                { _, _, _, property, reply, userdata, _ in
                    Unmanaged<PokedexBusServer>.fromOpaque(userdata!).takeUnretainedValue()
                        .property(String(cString: property!), reply!)
                },
                me),
            "cannot publish \(PokedexBusNames.objectPath)")
        service.observe { [loop, unowned self] event in
            loop.execute { self.announce(event) }
        }
        let r = sd_bus_request_name(bus, PokedexBusNames.busName, 0)
        if r == -EEXIST || r == -EALREADY {
            throw BusError(name: "org.freedesktop.DBus.Error.AddressInUse",
                           message: "another pokedexd already owns \(PokedexBusNames.busName) on this bus")
        }
        try busCheck(r, "cannot own \(PokedexBusNames.busName)")
        lastActivity = loop.nowMicroseconds
        armIdleTimer(after: idleTimeout)
        sd_notify(0, "READY=1\nSTATUS=Serving \(PokedexBusNames.busName)")
    }

    // MARK: Methods

    private func handle(_ m: OpaquePointer) -> Int32 {
        lastActivity = loop.nowMicroseconds
        let member = String(cString: sd_bus_message_get_member(m))
        let r = MessageReader(m)
        do {
            switch member {
            case "ListPage":
                let offset = try r.readUInt32(), limit = try r.readUInt32()
                if let page = try service.cachedListPage(offset: offset, limit: limit) {
                    reply(m) { w throws(BusError) in try Self.write(page, w) }
                } else {
                    later(m, { () async throws(PokedexError) in try await self.service.listPage(offset: offset, limit: limit) },
                          { w, page throws(BusError) in try Self.write(page, w) })
                }
            case "Detail":
                let query = try r.readString()
                if let detail = try service.cachedDetail(query) {
                    reply(m) { w throws(BusError) in try PokedexCoding.write(detail, to: w) }
                } else {
                    later(m, { () async throws(PokedexError) in try await self.service.detail(query) },
                          { w, d throws(BusError) in try PokedexCoding.write(d, to: w) })
                }
            case "Search":
                let query = try r.readString(), limit = try r.readUInt32()
                if let found = try service.cachedSearch(query, limit: limit) {
                    reply(m) { w throws(BusError) in try PokedexCoding.write(found, to: w) }
                } else {
                    later(m, { () async throws(PokedexError) in try await self.service.search(query, limit: limit) },
                          { w, found throws(BusError) in try PokedexCoding.write(found, to: w) })
                }
            case "SearchDetailed":
                let query = try r.readString(), limit = try r.readUInt32()
                if let found = try service.cachedSearchDetailed(query, limit: limit) {
                    reply(m) { w throws(BusError) in try Self.write(found, w) }
                } else {
                    later(m, { () async throws(PokedexError) in try await self.service.searchDetailed(query, limit: limit) },
                          { w, found throws(BusError) in try Self.write(found, w) })
                }
            case "ToggleFavorite":
                let query = try r.readString()
                later(m, { () async throws(PokedexError) in try await self.service.toggleFavorite(query) },
                      { w, state throws(BusError) in try w.append(state) })
            case "SetFavorite":
                let query = try r.readString(), favorite = try r.readBool()
                later(m, { () async throws(PokedexError) in try await self.service.setFavorite(query, favorite) },
                      { _, _ throws(BusError) in })
            case "ListFavorites":
                later(m, { () async throws(PokedexError) in await self.service.listFavorites() },
                      { w, list throws(BusError) in try PokedexCoding.write(list, to: w) })
            case "SpritePath":
                let query = try r.readString()
                later(m, { () async throws(PokedexError) in try await self.service.spritePath(query) },
                      { w, path throws(BusError) in try w.append(path) })
            case "Sync":
                later(m, { () async throws(PokedexError) in await self.service.sync() },
                      { w, result throws(BusError) in try w.append(result.complete); try w.append(result.failed) })
            case "Status":
                let status = service.status()
                reply(m) { w throws(BusError) in try PokedexCoding.write(status, to: w) }
            default:
                replyError(m, name: "org.freedesktop.DBus.Error.UnknownMethod", message: "no method \(member)")
            }
        } catch let e as PokedexError {
            replyError(m, name: e.dbusName, message: e.message)
        } catch let e as BusError {
            replyError(m, name: "org.freedesktop.DBus.Error.InvalidArgs", message: e.message)
        } catch {
            replyError(m, name: "org.freedesktop.DBus.Error.Failed", message: "\(error)")
        }
        return 1
    }

    static func write(_ page: ListPage, _ w: MessageWriter) throws(BusError) {
        try w.append(page.total)
        try PokedexCoding.write(page.entries, to: w)
    }

    static func write(_ results: [PokedexService.SearchResult], _ w: MessageWriter) throws(BusError) {
        try w.container("a", "a{sv}") { () throws(BusError) in
            for r in results {
                try w.container("a", "{sv}") { () throws(BusError) in
                    try w.entry("id", "u") { () throws(BusError) in try w.append(r.entry.id) }
                    try w.entry("name", "s") { () throws(BusError) in try w.append(r.entry.name) }
                    try w.entry("sprite_path", "s") { () throws(BusError) in try w.append(r.entry.spritePath) }
                    try w.entry("favorite", "b") { () throws(BusError) in try w.append(r.entry.favorite) }
                    try w.entry("match", "s") { () throws(BusError) in try w.append(r.hit.match.rawValue) }
                    try w.entry("matched_name", "s") { () throws(BusError) in try w.append(r.hit.matched) }
                    try w.entry("language", "s") { () throws(BusError) in try w.append(r.hit.language) }
                    try w.entry("distance", "u") { () throws(BusError) in try w.append(UInt32(r.hit.distance)) }
                }
            }
        }
    }

    private func property(_ name: String, _ reply: OpaquePointer) -> Int32 {
        let w = MessageWriter(reply)
        do {
            switch name {
            case "Favorites": try w.append(uints: service.favoriteIDs)
            case "Online": try w.append(service.isOnline)
            case "SyncProgress":
                let p = service.syncProgress
                try w.container("r", "uu") { () throws(BusError) in try w.append(p.done); try w.append(p.total) }
            case "SearchCoverage":
                let c = service.searchCoverage
                try w.container("r", "uu") { () throws(BusError) in try w.append(c.localized); try w.append(c.species) }
            case "Version": try w.append(ServiceConfiguration.version)
            case "ApiUrl": try w.append(service.configuration.apiURL)
            default: return -ENOENT
            }
        } catch {
            return -EIO
        }
        return 1
    }

    // MARK: Replies

    private func reply(_ m: OpaquePointer, _ body: (MessageWriter) throws(BusError) -> Void) {
        var out: OpaquePointer?
        guard sd_bus_message_new_method_return(m, &out) >= 0, let out else { return }
        defer { sd_bus_message_unref(out) }
        do {
            try body(MessageWriter(out))
            sd_bus_send(nil, out, nil)
        } catch {
            replyError(m, name: "org.freedesktop.DBus.Error.Failed", message: "cannot encode the reply: \(error.message)")
        }
    }

    private func replyError(_ m: OpaquePointer, name: String, message: String) {
        var e = sd_bus_error()
        sd_bus_error_set(&e, name, message)
        sd_bus_reply_method_error(m, &e)
        sd_bus_error_free(&e)
    }

    /// Keeps the call, runs `work` as a task, and replies on the loop thread when it ends.
    private func later<T: Sendable>(
        _ m: OpaquePointer, _ work: @escaping @Sendable () async throws(PokedexError) -> T,
        _ encode: @escaping @Sendable (MessageWriter, T) throws(BusError) -> Void
    ) {
        nextCall += 1
        let id = nextCall
        pending[id] = sd_bus_message_ref(m)
        Task {
            let result: Result<T, PokedexError>
            do throws(PokedexError) { result = .success(try await work()) } catch { result = .failure(error) }
            self.loop.execute { self.complete(id, result, encode) }
        }
    }

    private func complete<T>(_ id: UInt64, _ result: Result<T, PokedexError>, _ encode: (MessageWriter, T) throws(BusError) -> Void) {
        // Already failed by a shutdown that could not wait: it was answered once.
        guard let m = pending.removeValue(forKey: id) else { return }
        defer { sd_bus_message_unref(m) }
        switch result {
        case .success(let value): reply(m) { w throws(BusError) in try encode(w, value) }
        case .failure(let e): replyError(m, name: e.dbusName, message: e.message)
        }
        lastActivity = loop.nowMicroseconds
        if exitWhenDrained && pending.isEmpty { finishExit() }
    }

    // MARK: Signals and properties

    private func announce(_ event: ServiceEvent) {
        switch event {
        case .favorite(let change): announce(change)
        case .online: propertiesChanged("Online")
        case .sync(let progress):
            // At most ten a second; the last one (done) always goes out.
            let now = loop.nowMicroseconds
            if !progress.running || now - lastSyncSignal >= 100_000 {
                lastSyncSignal = now
                propertiesChanged("SyncProgress")
            }
        }
    }

    private func propertiesChanged(_ name: String) {
        var names: [UnsafeMutablePointer<CChar>?] = [strdup(name), nil]
        sd_bus_emit_properties_changed_strv(bus, PokedexBusNames.objectPath, PokedexBusNames.interface, &names)
        free(names[0])
    }

    private func announce(_ change: FavoriteChange) {
        var msg: OpaquePointer?
        if sd_bus_message_new_signal(bus, &msg, PokedexBusNames.objectPath, PokedexBusNames.interface, "FavoriteChanged") >= 0,
           let msg {
            let w = MessageWriter(msg)
            if (try? w.append(change.id)) != nil, (try? w.append(change.name)) != nil, (try? w.append(change.favorite)) != nil {
                sd_bus_send(bus, msg, nil)
            }
            sd_bus_message_unref(msg)
        }
        propertiesChanged("Favorites")
    }

    // MARK: Idle exit and shutdown

    private func armIdleTimer(after seconds: Double) {
        guard idleTimeout > 0 else { return }
        idleTimer = try? loop.timer(after: UInt64(max(seconds, 0.01) * 1_000_000)) { [unowned self] in
            let idle = Double(loop.nowMicroseconds - lastActivity) / 1_000_000
            if pending.isEmpty && idle >= idleTimeout {
                log(.info, "idle for \(Int(idleTimeout)) s; exiting until the next call activates the service")
                releaseNameAndExit()
            } else {
                // Not idle yet, or a call is still being worked on: look again later.
                armIdleTimer(after: max(idleTimeout - idle, 1))
            }
        }
    }

    /// SIGTERM: stop taking new work under the name, give calls in flight `shutdownGrace`
    /// seconds, fail what is left, and exit.
    public func shutdown() {
        guard !stopping else { return }
        log(.info, "stopping; \(pending.count) call(s) in flight")
        sd_notify(0, "STOPPING=1")
        releaseNameAndExit()
        graceTimer = try? loop.timer(after: UInt64(shutdownGrace * 1_000_000)) { [unowned self] in
            for (_, m) in pending {
                replyError(m, name: PokedexError.unavailable("").dbusName, message: "pokedexd is shutting down; try again")
                sd_bus_message_unref(m)
            }
            pending.removeAll()
            finishExit()
        }
    }

    /// Releases the name first, so the bus queues or activates new calls instead of losing
    /// them; calls already routed here are still answered. Exits once none is pending.
    private func releaseNameAndExit() {
        stopping = true
        idleTimer = nil
        let me = Unmanaged.passUnretained(self).toOpaque()
        let r = sd_bus_release_name_async(bus, nil, PokedexBusNames.busName, { _, userdata, _ in
            let server = Unmanaged<PokedexBusServer>.fromOpaque(userdata!).takeUnretainedValue()
            server.exitWhenDrained = true
            if server.pending.isEmpty { server.finishExit() }
            return 1
        }, me)
        if r < 0 {
            exitWhenDrained = true
            if pending.isEmpty { finishExit() }
        }
    }

    private func finishExit() {
        graceTimer = nil
        sd_bus_flush(bus)
        sd_event_exit(loop.event, 0)
    }

    /// Flushes and closes the connection. Call after the loop ended.
    public func close() {
        if let bus { sd_bus_flush_close_unref(bus) }
        bus = nil
    }
}
