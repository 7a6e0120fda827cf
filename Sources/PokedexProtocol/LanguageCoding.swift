import PokedexModels

/// What `LocalizedDetail` and `DisplayNames` take and give: a caller's ids and language, and
/// names as the games write them.
extension Coding {
    /// The most ids a caller may send in one `au` (``PokedexService/maxDisplayNames``).
    public static let maxIds = 4096

    /// A caller's ids: an `au` of at most ``maxIds``, refused as it is read.
    public static let ids = Codec<[UInt32]>(
        "au", write: { w, v throws(BusError) in try w.append(uints: v) },
        decode: { v throws(BusError) in
            guard let a = v.array, a.count <= maxIds else { throw malformed("not an au of at most \(maxIds)") }
            return try a.map { x throws(BusError) in try uint32.decode(x) }
        },
        read: { r throws(BusError) in try r.readUInt32s(maxCount: maxIds) },
        cap: ArgumentCap(items: maxIds, bytes: 4))

    /// A caller's language: "" (the service's), a PokeAPI code or a locale, of at most
    /// ``NameLanguage/maxArgumentBytes``.
    public static let language = Codec<String>(
        "s", write: { w, v throws(BusError) in try w.append(v) },
        decode: { v throws(BusError) in
            guard let s = v.string, s.utf8.count <= NameLanguage.maxArgumentBytes else { throw malformed("not a language") }
            return s
        },
        read: { r throws(BusError) in try r.readString(maxBytes: NameLanguage.maxArgumentBytes) },
        cap: ArgumentCap(bytes: NameLanguage.maxArgumentBytes))

    /// `DisplayNames`' `a(uss)`: id, API name, name as the games write it.
    public static let displayNames = Codec<[DisplayName]>(
        "a(uss)",
        write: { w, names throws(BusError) in try w.append(ussArray: names.map { ($0.id, $0.name, $0.displayName) }) },
        decode: { v throws(BusError) in
            guard case .array(let items) = v else { throw malformed("not an a(uss)") }
            return try items.map { item throws(BusError) in
                guard let f = item.fields, f.count == 3, let name = f[1].string, let display = f[2].string else { throw malformed("not a (uss)") }
                return DisplayName(id: try uint32.decode(f[0]), name: name, displayName: display)
            }
        })
}
