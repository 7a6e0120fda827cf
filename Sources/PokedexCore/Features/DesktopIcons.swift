import PokedexLocks

/// KRunner's icons: a cached sprite's pixels, cropped to what is drawn, decoded once and kept.
/// A sprite too big to decode safely, or that does not decode, is refused, and the refusal
/// remembered until its file changes: `Match` never decodes it again.
final class DesktopIcons: Sendable {
    /// The most pixels an icon has each way. KRunner draws a match's icon at 32 px (64 on a
    /// screen at twice the density): a cropped sprite of 100 px sent whole made a reply of ten
    /// rows 370 KB, and Match twice as slow.
    static let maxSide = 48
    /// Bytes of icons kept (at most 9 KB each, 6 KB on average: about 1,300, every Pokémon's).
    static let cacheBytes = 8 << 20
    /// The most pixels an icon is decoded from, checked in the PNG's header before anything is
    /// decoded: the largest still sprite the cache keeps (512×512).
    static let maxPixels = SpriteKind.maxPNGSide * SpriteKind.maxPNGSide

    private let decoder: (any ImageDecoder)?
    private let icons = Mutex(LRUCache<String, RGBAImage>(capacity: cacheBytes))
    /// Sprites refused, by path, with the file's size and mtime then.
    private let refused = Mutex<[String: IconFile]>([:])
    struct IconFile: Equatable {
        let size: Int
        let mtime: Double
    }

    init(decoder: (any ImageDecoder)?) { self.decoder = decoder }

    /// Whether ``icon(at:)`` for `path` answers from memory: its icon decoded already, refused
    /// already, or no sprite at all.
    func isKnown(_ path: String) -> Bool {
        path.isEmpty || decoder == nil || icons.withLock({ $0.value(for: path) }) != nil || refused.withLock({ $0[path] }) != nil
    }

    /// ``icon(at:)`` for each path, decoded side by side: off the loop, where a reply waits for them.
    func icons(at paths: [String]) async -> [RGBAImage?] {
        await withTaskGroup(of: (Int, RGBAImage?).self) { group in
            for (i, path) in paths.enumerated() { group.addTask { (i, self.icon(at: path)) } }
            var out = [RGBAImage?](repeating: nil, count: paths.count)
            for await (i, icon) in group { out[i] = icon }
            return out
        }
    }

    /// The pixels of the sprite at `path`, when it is cached and decodes; nil otherwise.
    func icon(at path: String) -> RGBAImage? {
        guard !path.isEmpty, let decoder else { return nil }
        if let known = icons.withLock({ $0.value(for: path) }) { return known }
        let file = FileIO.fileInfo(path).map { IconFile(size: $0.size, mtime: $0.mtime) }
        if let file, refused.withLock({ $0[path] }) == file { return nil }
        guard let bytes = FileIO.readFile(path, maxBytes: BodyKind.png.maxBytes), let size = PNGCheck.dimensions(bytes),
              size.width > 0, size.height > 0, size.width <= Self.maxPixels / size.height,
              let decoded = decoder.decode(bytes), decoded.width * decoded.height <= Self.maxPixels,
              let image = decoded.cropped()?.shrunk(toFit: Self.maxSide) else {
            if let file {
                refused.withLock { refused in
                    if refused.count >= 1024 { refused.removeAll() }  // bounded
                    refused[path] = file
                }
            }
            return nil
        }
        icons.withLock { $0.set(image, for: path, cost: image.pixels.count) }
        return image
    }
}
