import CSystemd
import PokedexModels

/// How the service's values travel on the bus, both ways, as ``Codec``s. The contract
/// (``Pokedex1``) is built from these; nothing else writes or reads them.
public enum Coding {
    static func malformed(_ what: String) -> BusError {
        BusError(name: "org.freedesktop.DBus.Error.InvalidSignature", message: "unexpected reply shape: \(what)")
    }

    // MARK: Basic types

    /// The most a name, a query or an action a caller sends may hold. PokeAPI's longest name
    /// is 26 bytes; a query with filters is a few dozen.
    public static let maxArgumentBytes = 256

    /// A caller's name, query or action: an `s` of at most ``maxArgumentBytes``. A longer one is
    /// refused as it is read, with the service's `InvalidArgument`, before any work is done.
    public static let argument = Codec<String>(
        "s", write: { w, v throws(BusError) in try w.append(v) },
        decode: { v throws(BusError) in
            guard let s = v.string else { throw malformed("not an s") }
            return try bounded(s)
        },
        read: { r throws(BusError) in try r.readString(maxBytes: maxArgumentBytes) },
        cap: ArgumentCap(bytes: maxArgumentBytes))

    static func bounded(_ s: String) throws(BusError) -> String {
        guard s.utf8.count <= maxArgumentBytes else {
            throw BusError(name: PokedexError.Kind.invalidArgument.dbusName,
                           message: "an argument of \(s.utf8.count) bytes is longer than the \(maxArgumentBytes) any name or query needs")
        }
        return s
    }

    /// `ChangeFavorite`'s action: `add`, `remove` or `toggle`, as an `s`. Anything else is
    /// the service's `InvalidArgument`, refused as the message is read.
    public static let favoriteAction = Codec<FavoriteAction>(
        "s", write: { w, v throws(BusError) in try w.append(v.rawValue) },
        decode: { v throws(BusError) in
            guard let s = v.string else { throw malformed("not an s") }
            return try action(s)
        },
        read: { r throws(BusError) in try action(r.readString(maxBytes: maxArgumentBytes)) },
        cap: ArgumentCap(bytes: maxArgumentBytes))

    static func action(_ s: String) throws(BusError) -> FavoriteAction {
        guard let action = FavoriteAction(rawValue: s) else {
            throw BusError(name: PokedexError.Kind.invalidArgument.dbusName,
                           message: "the action must be add, remove or toggle, not \(quoted(s))")
        }
        return action
    }

    public static let uint32 = Codec<UInt32>(
        "u", write: { w, v throws(BusError) in try w.append(v) },
        decode: { v throws(BusError) in
            guard let u = v.uint, u <= UInt64(UInt32.max) else { throw malformed("not a u") }
            return UInt32(u)
        },
        read: { r throws(BusError) in try r.readUInt32() })

    public static let uint64 = Codec<UInt64>(
        "t", write: { w, v throws(BusError) in try w.append(v) },
        decode: { v throws(BusError) in
            guard let u = v.uint else { throw malformed("not a t") }
            return u
        })

    public static let string = Codec<String>(
        "s", write: { w, v throws(BusError) in try w.append(v) },
        decode: { v throws(BusError) in
            guard let s = v.string else { throw malformed("not an s") }
            return s
        },
        read: { r throws(BusError) in try r.readString() })

    public static let double = Codec<Double>(
        "d", write: { w, v throws(BusError) in try w.append(v) },
        decode: { v throws(BusError) in
            guard let d = v.double else { throw malformed("not a d") }
            return d
        })

    public static let bool = Codec<Bool>(
        "b", write: { w, v throws(BusError) in try w.append(v) },
        decode: { v throws(BusError) in
            guard let b = v.bool else { throw malformed("not a b") }
            return b
        },
        read: { r throws(BusError) in try r.readBool() })

    public static let uint32Array = Codec<[UInt32]>(
        "au", write: { w, v throws(BusError) in try w.append(uints: v) },
        decode: { v throws(BusError) in
            guard let a = v.array else { throw malformed("not an au") }
            return try a.map { x throws(BusError) in try uint32.decode(x) }
        })

    /// A `(uu)` structure.
    public static let uint32Pair = Codec<(UInt32, UInt32)>(
        "(uu)", write: { w, v throws(BusError) in
            try w.container("r", "uu") { () throws(BusError) in try w.append(v.0); try w.append(v.1) }
        },
        decode: { v throws(BusError) in
            guard let f = v.fields, f.count == 2 else { throw malformed("not a (uu)") }
            return (try uint32.decode(f[0]), try uint32.decode(f[1]))
        })

    // MARK: Entries: a(ussb)

    /// The fields of one list, search or favorites row, and its signature.
    static let entryFields = "ussb"
    public static let entrySignature = "(\(entryFields))"

    public static let entries = Codec<[ListEntry]>(
        "a" + entrySignature,
        write: { w, entries throws(BusError) in
            try w.container("a", entrySignature) { () throws(BusError) in
                for e in entries {
                    try w.container("r", entryFields) { () throws(BusError) in
                        try w.append(e.id)
                        try w.append(e.name)
                        try w.append(e.spritePath)
                        try w.append(e.favorite)
                    }
                }
            }
        },
        decode: { v throws(BusError) in
            guard let rows = v.array else { throw malformed("entries") }
            var out: [ListEntry] = []
            for row in rows {
                guard let f = row.fields, f.count == 4, let id = f[0].uint, let name = f[1].string,
                      let path = f[2].string, let fav = f[3].bool else { throw malformed("entry") }
                out.append(ListEntry(id: UInt32(id), name: name, spritePath: path, favorite: fav))
            }
            return out
        },
        // Straight from the message: this is the reply widgets and scripts read in loops.
        read: { r throws(BusError) in
            var out: [ListEntry] = []
            try r.readStructs(entryFields) { () throws(BusError) in
                out.append(ListEntry(id: try r.readUInt32(), name: try r.readString(), spritePath: try r.readString(), favorite: try r.readBool()))
            }
            return out
        })

    // MARK: Dictionaries: a{sv}

    /// `Status`'s `a{sv}`.
    public static let status = Codec<ServiceStatus>(
        "a{sv}",
        write: { w, s throws(BusError) in
            try w.container("a", "{sv}") { () throws(BusError) in
                try w.entry("version", "s") { () throws(BusError) in try w.append(s.version) }
                try w.entry("api_url", "s") { () throws(BusError) in try w.append(s.apiURL) }
                try w.entry("cache_dir", "s") { () throws(BusError) in try w.append(s.cacheDirectory) }
                try w.entry("data_dir", "s") { () throws(BusError) in try w.append(s.dataDirectory) }
                for (key, value) in [("memory_entries", s.memoryEntries), ("memory_bytes", s.memoryBytes),
                                     ("memory_cap_bytes", s.memoryCapBytes), ("disk_entries", s.diskEntries),
                                     ("disk_bytes", s.diskBytes), ("disk_cap_bytes", s.diskCapBytes),
                                     ("favorites", s.favorites)] {
                    try w.entry(key, "t") { () throws(BusError) in try w.append(UInt64(value)) }
                }
                try w.entry("favorites_problem", "s") { () throws(BusError) in try w.append(s.favoritesProblem) }
                try w.entry("favorites_readable", "b") { () throws(BusError) in try w.append(s.favoritesReadable) }
                try w.entry("online", "b") { () throws(BusError) in try w.append(s.online) }
                try w.entry("requests_in_flight", "t") { () throws(BusError) in try w.append(UInt64(s.requestsInFlight)) }
                try w.entry("requests_max_in_flight", "t") { () throws(BusError) in try w.append(UInt64(s.maxRequestsInFlight)) }
                try w.entry("hosts", "aa{sv}") { () throws(BusError) in
                    try w.container("a", "a{sv}") { () throws(BusError) in
                        for h in s.hosts { try hostStatus(w, h) }
                    }
                }
                try sandbox(w, s.sandbox)
            }
        },
        decode: { v throws(BusError) in
            guard let d = v.stringDict else { throw malformed("status") }
            func n(_ k: String) -> Int { Int(d[k]?.uint ?? 0) }
            var status = ServiceStatus(
                version: d["version"]?.string ?? "", apiURL: d["api_url"]?.string ?? "",
                cacheDirectory: d["cache_dir"]?.string ?? "", dataDirectory: d["data_dir"]?.string ?? "",
                memoryEntries: n("memory_entries"), memoryBytes: n("memory_bytes"), memoryCapBytes: n("memory_cap_bytes"),
                diskEntries: n("disk_entries"), diskBytes: n("disk_bytes"), diskCapBytes: n("disk_cap_bytes"),
                favorites: n("favorites"), online: d["online"]?.bool ?? false,
                hosts: (d["hosts"]?.array ?? []).compactMap(hostStatus),
                requestsInFlight: n("requests_in_flight"), maxRequestsInFlight: n("requests_max_in_flight"))
            status.favoritesProblem = d["favorites_problem"]?.string ?? ""
            status.favoritesReadable = d["favorites_readable"]?.bool ?? true  // an older service's answer
            status.sandbox = SandboxStatus(
                landlockABI: n("landlock_abi"), restricted: d["landlock"]?.array?.compactMap(\.string) ?? [],
                missing: d["landlock_missing"]?.array?.compactMap(\.string) ?? [], namespaces: d["namespaces"]?.bool ?? false)
            status.sandbox.fallback = d["sandbox_fallback"]?.bool ?? false
            status.sandbox.unixSocketsClosed = d["unix_sockets_closed"]?.bool ?? false
            return status
        })
}
