import FoundationEssentials
import PokedexLocks
import PokedexNetwork

/// Which image a ``SpriteCache`` holds: where its files go and how a whole one looks.
struct SpriteKind: Sendable {
    /// `{id}` + this is the file's name under `sprites/`.
    let fileSuffix: String
    /// `{prefix}{id}` is its metadata record's key.
    let metaPrefix: String
    /// For messages: "sprite", "animated sprite".
    let noun: String
    /// Whether a file is whole and undamaged, and no bigger than ``maxSide``.
    let isWhole: @Sendable ([UInt8]) -> Bool
    /// The size its header claims, read without decoding.
    let dimensions: @Sendable ([UInt8]) -> (width: Int, height: Int)?
    /// The widest or tallest image of this kind that is kept: a bigger one is refused when it
    /// arrives, with a journal line, so no reader of the cache (pokectl, KRunner, a widget)
    /// meets it. PokeAPI's default and shiny sprites are 96×96, its official artwork 475×475
    /// and its HOME renders 512×512, any of which `--sprite-url-template` may name: 512. Its
    /// generation-V animations are at most 96×96, Showdown's under 256: 256.
    let maxSide: Int
    /// Whether the dominant colour is computed (and kept in the record).
    let hasColor: Bool
    /// Its size cap and budget on the network.
    let body: BodyKind

    /// The default front sprite, `{id}.png`.
    static let png = SpriteKind(fileSuffix: ".png", metaPrefix: "sprite/", noun: "sprite",
                                isWhole: { PNGCheck.isValid($0, maxSide: maxPNGSide) }, dimensions: PNGCheck.dimensions,
                                maxSide: maxPNGSide, hasColor: true, body: .png)
    /// The generation-V animated sprite, `{id}-animated.gif`.
    static let animatedGIF = SpriteKind(fileSuffix: "-animated.gif", metaPrefix: "sprite-animated/", noun: "animated sprite",
                                        isWhole: { GIFCheck.isValid($0, maxSide: maxGIFSide) }, dimensions: GIFCheck.dimensions,
                                        maxSide: maxGIFSide, hasColor: false, body: .gif)
    /// The shiny front sprite, `{id}-shiny.png`.
    static let shinyPNG = SpriteKind(fileSuffix: "-shiny.png", metaPrefix: "sprite-shiny/", noun: "shiny sprite",
                                     isWhole: { PNGCheck.isValid($0, maxSide: maxPNGSide) }, dimensions: PNGCheck.dimensions,
                                     maxSide: maxPNGSide, hasColor: false, body: .png)

    /// A Pokémon's cry, `{id}-cry.ogg`: sound, not a picture, kept the same way (a file a
    /// player opens by path, with its metadata record).
    static let cryOGG = SpriteKind(fileSuffix: "-cry.ogg", metaPrefix: "cry/", noun: "cry",
                                   isWhole: OggCheck.isValid, dimensions: { _ in nil }, maxSide: 0, hasColor: false, body: .ogg)

    /// ``maxSide`` of the still sprites (default and shiny).
    static let maxPNGSide = 512
    /// ``maxSide`` of the animated ones.
    static let maxGIFSide = 256

    /// Why `bytes` is refused for its size, or nil when its header is within ``maxSide``.
    func oversize(_ bytes: [UInt8]) -> String? {
        guard let d = dimensions(bytes), d.width > maxSide || d.height > maxSide else { return nil }
        return "\(d.width)×\(d.height), larger than the \(maxSide)×\(maxSide) any \(noun) is"
    }
}

/// The sprites the service keeps of each Pokémon, one ``SpriteCache`` each.
enum SpriteVariant: Hashable, Sendable, CaseIterable {
    /// The default front sprite.
    case still
    /// The generation-V animated GIF.
    case animated
    /// The shiny front sprite.
    case shiny
    /// The cry (`cries.latest`): not a picture, but kept as the sprites are.
    case cry
}

/// Sprites as plain image files in the disk tier, because widgets load them by path.
///
/// Each file has a small metadata record (`sprite/{id}`: source URL, size, CRC-32, and the
/// dominant colour). A file is served only once it matches its record and is a whole image;
/// a truncated, corrupted or swapped file fails that and is fetched again.
final class SpriteCache: Sendable {
    enum State: Equatable {
        /// `color`: nil until a card first asks for it (``knownColor(_:)``).
        case valid(path: String, size: Int, mtime: Double, color: String?)
        case absent
    }

    struct Meta: Codable, Equatable {
        var url: String
        var size: Int
        var crc32: UInt32
        /// `#rrggbb`; nil in records written before colours, "" when no pixel counts.
        var color: String?
    }

    let kind: SpriteKind
    private let store: any CacheStore
    private let fetcher: Fetcher
    private let clock: any PokedexClock
    private let decoder: (any ImageDecoder)?
    private let log: Logger
    private let states = Mutex<[UInt32: State]>([:])
    private let flights = SingleFlight<UInt32, String>()

    init(kind: SpriteKind = .png, store: any CacheStore, fetcher: Fetcher, clock: any PokedexClock,
         decoder: (any ImageDecoder)?, log: @escaping Logger) {
        self.kind = kind
        self.store = store
        self.fetcher = fetcher
        self.clock = clock
        self.decoder = decoder
        self.log = log
    }

    func fileName(_ id: UInt32) -> String { "\(id)\(kind.fileSuffix)" }
    func metaKey(_ id: UInt32) -> String { kind.metaPrefix + String(id) }

    /// The id a file of this cache is named for (`25.png` → 25); nil for any other name.
    func id(ofFile name: String) -> UInt32? {
        guard name.hasSuffix(kind.fileSuffix), let id = UInt32(name.dropLast(kind.fileSuffix.count)) else { return nil }
        return fileName(id) == name ? id : nil
    }

    /// The id a metadata record of this cache is kept under (`sprite/25` → 25); nil for any other key.
    func id(ofMetaKey key: String) -> UInt32? {
        guard key.hasPrefix(kind.metaPrefix), let id = UInt32(key.dropFirst(kind.metaPrefix.count)) else { return nil }
        return metaKey(id) == key ? id : nil
    }

    /// The dominant colour of a valid sprite known in memory, else "". Worked out the first time
    /// it is asked for (one sprite read and decoded, then kept in its record): a sync fetches
    /// 1,340 sprites, and decoding each as it came was a tenth of its CPU.
    func knownColor(_ id: UInt32) -> String {
        guard case .valid(_, _, _, let color)? = states.withLock({ $0[id] }) else { return "" }
        if let color { return color }
        _ = verify(id, expectedURL: nil, workingOutColor: true)
        if case .valid(_, _, _, let color?)? = states.withLock({ $0[id] }) { return color }
        return ""
    }

    /// The colour of these bytes, "" when the decoder cannot read them or no pixel counts.
    func color(of bytes: [UInt8]) -> String {
        guard kind.hasColor, let image = decoder?.decode(bytes) else { return "" }
        return DominantColor.hex(of: image) ?? ""
    }

    /// Whether ``knownColor(_:)`` answers from memory (the colour worked out, or no valid
    /// sprite): else it reads and decodes the sprite, which a bus thread does not wait for.
    func colorIsInMemory(_ id: UInt32) -> Bool {
        guard case .valid(_, _, _, let color)? = states.withLock({ $0[id] }) else { return true }
        return color != nil
    }

    /// The colour a sprite just fetched is kept with: nil (worked out when first asked for) where
    /// there is one to work out, else "".
    private var colorOnFetch: String? { kind.hasColor && decoder != nil ? nil : "" }

    /// What is known without touching the disk: a path, "" (known absent), or nil (unknown).
    func knownPath(_ id: UInt32) -> String? {
        switch states.withLock({ $0[id] }) {
        case .valid(let path, _, _, _): return path
        case .absent: return ""
        case nil: return nil
        }
    }

    /// ``knownPath(_:)`` for many ids under one lock (the warm ListPage path).
    func knownPaths(_ ids: some Sequence<UInt32>) -> [String?] {
        states.withLock { s in
            ids.map { id in
                switch s[id] {
                case .valid(let path, _, _, _): return path
                case .absent: return ""
                case nil: return nil
                }
            }
        }
    }

    /// The path if a valid file is on disk, else "". Checks the disk; never fetches.
    func pathOnDisk(_ id: UInt32) -> String {
        if case .valid(let path, let size, let mtime, _)? = states.withLock({ $0[id] }) {
            if let info = FileIO.fileInfo(path), info.size == size, info.mtime == mtime { return path }
        }
        return verify(id, expectedURL: nil) ?? ""
    }

    /// Checks the file on disk against its record now, whatever memory holds (`VerifyCache`):
    /// the path when both are there and whole; else nil, with a damaged pair removed.
    func checkOnDisk(_ id: UInt32) -> String? { verify(id, expectedURL: nil) }

    /// Forgets what is known of every file (`ClearCache` removed them), so no answer names one.
    func forgetAll() { states.withLock { $0.removeAll() } }

    /// Checks the file against its record; records the outcome; returns the path if valid.
    /// `workingOutColor`: a colour its record lacks (not yet asked for, or a record from before
    /// colours) is worked out and kept; else it stays to be worked out when asked for.
    private func verify(_ id: UInt32, expectedURL: String?, workingOutColor: Bool = false) -> String? {
        let name = fileName(id)
        guard let stored = store.readRecord(metaKey(id)),
              let meta = try? JSONDecoder().decode(Meta.self, from: Data(stored.payload)),
              expectedURL == nil || expectedURL == meta.url,
              let bytes = store.readSprite(name)
        else {
            states.withLock { $0[id] = .absent }
            return nil
        }
        let path = store.spritePath(name)
        guard bytes.count == meta.size, CRC32.checksum(bytes) == meta.crc32, kind.isWhole(bytes),
              let info = FileIO.fileInfo(path)
        else {
            if let why = kind.oversize(bytes) {
                log(.warning, "\(kind.noun) \(path) is \(why); it is removed")
            } else {
                log(.warning, "\(kind.noun) \(path) is damaged; it will be fetched again")
            }
            store.removeSprite(name)
            store.removeRecord(metaKey(id))
            states.withLock { $0[id] = .absent }
            return nil
        }
        var color = meta.color ?? colorOnFetch
        if color == nil && workingOutColor {
            var updated = meta
            color = self.color(of: bytes)
            updated.color = color
            if let payload = try? RecordJSON.encode(updated) {
                try? store.writeRecord(metaKey(id), StoredRecord(payload: payload, freshness: stored.freshness))
            }
        }
        states.withLock { $0[id] = .valid(path: path, size: info.size, mtime: info.mtime, color: color) }
        return path
    }

    /// The sprite's path, fetching it from `url` if no valid copy is on disk. `leading`: the
    /// fetch runs in the caller's task (``SingleFlight/lead(_:_:)``), for a sync's.
    func ensure(_ id: UInt32, url: String, leading: Bool = false) async throws -> String {
        let onDisk = pathOnDisk(id)
        if !onDisk.isEmpty { return onDisk }
        fetcher.promote(url)  // pre-warming may have asked first
        return try await CallTrace.step("waiting for the \(kind.noun) of #\(id) (\(url))") {
            try await (leading ? flights.lead : flights.run)(id) { [self] in
                if let path = verify(id, expectedURL: url) { return path }
                // Checked while the body still counts against the budget.
                let fetched = try await fetcher.fetch(url, as: kind.body) { bytes throws -> [UInt8] in
                    if let why = kind.oversize(bytes) {
                        log(.warning, "the \(kind.noun) at \(url) is \(why); it is not kept")
                        throw PokedexError.unavailable("the \(kind.noun) at \(url) is \(why)")
                    }
                    guard kind.isWhole(bytes) else { throw PokedexError.unavailable("the \(kind.noun) at \(url) is not a whole image") }
                    guard kind.body == .png else { return bytes }
                    // What is kept is what a sprite needs; its data inflates to its size or it is refused.
                    let kept = PNGCheck.withoutAncillaryChunks(bytes)
                    guard decoder?.inflatesWithinItsSize(kept) ?? true else {
                        log(.warning, "the \(kind.noun) at \(url) inflates past its size (a decompression bomb?); it is not kept")
                        throw PokedexError.unavailable("the \(kind.noun) at \(url) inflates past what its size allows")
                    }
                    return kept
                }
                guard case .body(let bytes, let etag, let maxAge) = fetched else { throw FetchError.unexpectedNotModified(url: url) }
                let color = colorOnFetch
                let path = try store.writeSprite(fileName(id), bytes)
                let meta = try RecordJSON.encode(Meta(url: url, size: bytes.count, crc32: CRC32.checksum(bytes), color: color))
                try store.writeRecord(
                    metaKey(id),
                    StoredRecord(payload: meta, freshness: Freshness(etag: etag, fetchedAt: clock.now(), maxAge: maxAge)))
                if let info = FileIO.fileInfo(path) {
                    states.withLock { $0[id] = .valid(path: path, size: info.size, mtime: info.mtime, color: color) }
                }
                return path
            }
        }
    }
}
