import PokedexModels
import PokedexTerminal

/// Sprites decoded once and drawn small once, by path. A class so that the view's closures
/// share it; the loop's thread is its only user.
final class ArtCache {
    /// Small: a tile's lines are a few hundred bytes, 1,351 of them well under a megabyte.
    private var tiles: [String: TileArt?] = [:]
    /// Only the detail card's sprite is kept whole.
    private var detail: (path: String, image: RGBAImage?)?

    func image(_ path: String) -> RGBAImage? {
        if let d = detail, d.path == path { return d.image }
        let decoded = Terminal.image(at: path)
        detail = (path, decoded)
        return decoded
    }

    func tile(_ path: String, _ mode: ColorMode) -> TileArt? {
        if let known = tiles[path] { return known }
        let art = Terminal.image(at: path).map { TileArt(image: $0, mode: mode) }
        tiles[path] = art
        return art
    }
}
