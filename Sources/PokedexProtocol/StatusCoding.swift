import CSystemd
import PokedexModels

/// `Status`' nested values: the sandbox and each host.
extension Coding {
    /// `Status`'s sandbox keys: `sandbox` (the summary line), `landlock_abi`, `landlock` (what it
    /// restricts: files, tcp, scopes), `landlock_missing` (what this kernel cannot), `namespaces`, `sandbox_fallback`,
    /// `unix_sockets_closed`.
    static func sandbox(_ w: MessageWriter, _ s: SandboxStatus) throws(BusError) {
        try w.entry("sandbox", "s") { () throws(BusError) in try w.append(s.summary) }
        try w.entry("landlock_abi", "u") { () throws(BusError) in try w.append(UInt32(clamping: s.landlockABI)) }
        try w.entry("landlock", "as") { () throws(BusError) in try w.append(strings: s.restricted) }
        try w.entry("landlock_missing", "as") { () throws(BusError) in try w.append(strings: s.missing) }
        try w.entry("namespaces", "b") { () throws(BusError) in try w.append(s.namespaces) }
        try w.entry("sandbox_fallback", "b") { () throws(BusError) in try w.append(s.fallback) }
        try w.entry("unix_sockets_closed", "b") { () throws(BusError) in try w.append(s.unixSocketsClosed) }
    }

    /// One host of `Status`'s `hosts`: `host`, `api`, `up`, and when down `down_since`,
    /// `reason`, `next_attempt` (seconds since the epoch); `multiplexed` once known.
    static func hostStatus(_ w: MessageWriter, _ h: HostStatus) throws(BusError) {
        try w.container("a", "{sv}") { () throws(BusError) in
            try w.entry("host", "s") { () throws(BusError) in try w.append(h.host) }
            try w.entry("api", "b") { () throws(BusError) in try w.append(h.isAPI) }
            try w.entry("up", "b") { () throws(BusError) in try w.append(h.up) }
            if let since = h.downSince { try w.entry("down_since", "d") { () throws(BusError) in try w.append(since) } }
            if !h.reason.isEmpty { try w.entry("reason", "s") { () throws(BusError) in try w.append(h.reason) } }
            if let next = h.nextAttempt { try w.entry("next_attempt", "d") { () throws(BusError) in try w.append(next) } }
            if let m = h.multiplexed { try w.entry("multiplexed", "b") { () throws(BusError) in try w.append(m) } }
        }
    }

    static func hostStatus(_ v: BusValue) -> HostStatus? {
        guard let d = v.stringDict, let host = d["host"]?.string else { return nil }
        return HostStatus(host: host, isAPI: d["api"]?.bool ?? false, up: d["up"]?.bool ?? true,
                          downSince: d["down_since"]?.double, reason: d["reason"]?.string ?? "",
                          nextAttempt: d["next_attempt"]?.double, multiplexed: d["multiplexed"]?.bool)
    }

    /// `SearchDetailed`'s `aa{sv}`.
    public static let searchMatches = Codec<[SearchMatch]>(
        "aa{sv}",
        write: { w, results throws(BusError) in
            try w.container("a", "a{sv}") { () throws(BusError) in
                for r in results {
                    try w.container("a", "{sv}") { () throws(BusError) in
                        try w.entry("id", "u") { () throws(BusError) in try w.append(r.entry.id) }
                        try w.entry("name", "s") { () throws(BusError) in try w.append(r.entry.name) }
                        try w.entry("number", "u") { () throws(BusError) in try w.append(PokedexNumber.shown(r.entry.id)) }
                        try w.entry("sprite_path", "s") { () throws(BusError) in try w.append(r.entry.spritePath) }
                        try w.entry("favorite", "b") { () throws(BusError) in try w.append(r.entry.favorite) }
                        try w.entry("match", "s") { () throws(BusError) in try w.append(r.match) }
                        try w.entry("matched_name", "s") { () throws(BusError) in try w.append(r.matchedName) }
                        try w.entry("language", "s") { () throws(BusError) in try w.append(r.language) }
                        try w.entry("distance", "u") { () throws(BusError) in try w.append(r.distance) }
                    }
                }
            }
        },
        decode: { v throws(BusError) in
            guard let rows = v.array else { throw malformed("search results") }
            return try rows.map { row throws(BusError) in
                guard let d = row.stringDict, let id = d["id"]?.uint, let name = d["name"]?.string else {
                    throw malformed("search result")
                }
                return SearchMatch(
                    entry: ListEntry(id: UInt32(id), name: name, spritePath: d["sprite_path"]?.string ?? "",
                                     favorite: d["favorite"]?.bool ?? false),
                    match: d["match"]?.string ?? "", matchedName: d["matched_name"]?.string ?? "",
                    language: d["language"]?.string ?? "", distance: UInt32(d["distance"]?.uint ?? 0))
            }
        })
}
