import PokedexModels

/// How `CacheStats` and `VerifyCache` answers travel: `a{sv}`s, so keys can be added.
extension Coding {
    /// `CacheStats`'s `a{sv}`; `kinds` is an `aa{sv}`, one per ``CacheKind`` in its order.
    /// Fetched-at times are seconds since 1970, 0 where none is known.
    public static let cacheStats = Codec<CacheStats>(
        "a{sv}",
        write: { w, s throws(BusError) in
            try w.container("a", "{sv}") { () throws(BusError) in
                try w.entry("kinds", "aa{sv}") { () throws(BusError) in
                    try w.container("a", "a{sv}") { () throws(BusError) in
                        for k in s.kinds {
                            try w.container("a", "{sv}") { () throws(BusError) in
                                try w.entry("kind", "s") { () throws(BusError) in try w.append(k.kind.rawValue) }
                                for (key, value) in [("count", k.count), ("bytes", k.bytes), ("stale", k.stale),
                                                     ("oldest_fetched_at", k.oldestFetchedAt ?? 0),
                                                     ("newest_fetched_at", k.newestFetchedAt ?? 0)] {
                                    try w.entry(key, "t") { () throws(BusError) in try w.append(UInt64(max(0, value))) }
                                }
                            }
                        }
                    }
                }
                for (key, value) in [("now", s.now), ("files", s.files), ("bytes", s.bytes), ("disk_cap_bytes", s.diskCapBytes),
                                     ("memory_entries", s.memoryEntries), ("memory_bytes", s.memoryBytes),
                                     ("memory_cap_bytes", s.memoryCapBytes)] {
                    try w.entry(key, "t") { () throws(BusError) in try w.append(UInt64(max(0, value))) }
                }
                try w.entry("cache_dir", "s") { () throws(BusError) in try w.append(s.cacheDirectory) }
            }
        },
        decode: { v throws(BusError) in
            guard let d = v.stringDict else { throw malformed("cache stats") }
            func n(_ d: [String: BusValue], _ k: String) -> Int { Int(clamping: d[k]?.uint ?? 0) }
            func time(_ d: [String: BusValue], _ k: String) -> Int? { n(d, k) == 0 ? nil : n(d, k) }
            // A kind this client does not know is left out (the totals still count it).
            let kinds = (d["kinds"]?.array ?? []).compactMap { row -> CacheKindStats? in
                guard let k = row.stringDict, let kind = k["kind"]?.string.flatMap(CacheKind.init(rawValue:)) else { return nil }
                return CacheKindStats(kind: kind, count: n(k, "count"), bytes: n(k, "bytes"), stale: n(k, "stale"),
                                      oldestFetchedAt: time(k, "oldest_fetched_at"), newestFetchedAt: time(k, "newest_fetched_at"))
            }
            return CacheStats(
                kinds: kinds, now: n(d, "now"), files: n(d, "files"), bytes: n(d, "bytes"), diskCapBytes: n(d, "disk_cap_bytes"),
                memoryEntries: n(d, "memory_entries"), memoryBytes: n(d, "memory_bytes"), memoryCapBytes: n(d, "memory_cap_bytes"),
                cacheDirectory: d["cache_dir"]?.string ?? "")
        })

    /// `VerifyCache`'s `a{sv}`; `failures` is an `a(ss)` of (item, reason).
    public static let cacheVerification = Codec<CacheVerifyResult>(
        "a{sv}",
        write: { w, r throws(BusError) in
            try w.container("a", "{sv}") { () throws(BusError) in
                for (key, value) in [("checked", r.checked), ("damaged", r.damaged), ("repaired", r.repaired),
                                     ("failed", r.failed), ("orphans", r.orphans)] {
                    try w.entry(key, "t") { () throws(BusError) in try w.append(UInt64(max(0, value))) }
                }
                try w.entry("failures", "a(ss)") { () throws(BusError) in
                    try w.structs("ss", r.failures) { f throws(BusError) in
                        try w.append(f.item)
                        try w.append(f.reason)
                    }
                }
            }
        },
        decode: { v throws(BusError) in
            guard let d = v.stringDict else { throw malformed("cache verification") }
            func n(_ k: String) -> Int { Int(clamping: d[k]?.uint ?? 0) }
            let failures = (d["failures"]?.array ?? []).compactMap { row -> CacheVerifyResult.Failure? in
                guard let f = row.fields, f.count == 2, let item = f[0].string, let reason = f[1].string else { return nil }
                return CacheVerifyResult.Failure(item: item, reason: reason)
            }
            return CacheVerifyResult(checked: n("checked"), damaged: n("damaged"), repaired: n("repaired"), failed: n("failed"),
                                     orphans: n("orphans"), failures: failures)
        })
}
