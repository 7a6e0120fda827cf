import PokedexModels
import PokedexPNG
import PokedexTerminal

/// Browse's tiles as real pixels: what to send after each frame so the terminal shows the
/// pictures of ``BrowseView/placements()`` and nothing else.
///
/// - kitty: each sprite is sent once as an image (its id kept per path) and placed per tile
///   with a placement id, so a redraw moves or removes a placement instead of stacking
///   another; leaving deletes every image sent.
/// - sixel: pixels painted into the cells, which only a repaint takes away: when a picture
///   goes or changes, the frame is written whole (``needsRepaint(_:)``) and every picture
///   drawn again; a picture that only arrives is drawn alone.
///
/// The loop's thread is its only user.
final class TileGraphics {
    let pictures: Pictures
    private var shown: [BrowseView.Placement] = []
    /// kitty: image id by sprite path, for those sent.
    private var imageIDs: [String: UInt32] = [:]
    /// Sprites fitted to a tile once, by path (nil: could not be read).
    private var fitted: [String: (image: RGBAImage, columns: Int, rows: Int)?] = [:]

    init(pictures: Pictures) { self.pictures = pictures }

    /// sixel: whether the frame must be written whole first, because a picture drawn before goes.
    func needsRepaint(_ next: [BrowseView.Placement]) -> Bool {
        pictures.protocolUsed == .sixel && !Set(shown).isSubset(of: next)
    }

    /// The bytes that take the terminal from the pictures shown to `next`; `repainted`: the
    /// frame just written was whole (a sixel picture is then gone).
    func update(_ next: [BrowseView.Placement], repainted: Bool) -> String {
        var out = ""
        switch pictures.protocolUsed {
        case .kitty:
            let keep = Set(next)
            for old in shown where !keep.contains(old) {
                if let id = imageIDs[old.spritePath] { out += wrap(KittyGraphics.remove(id: id, placement: placementID(old))) }
            }
            let before = Set(shown)
            for p in next where !before.contains(p) {
                guard let fit = fit(p) else { continue }
                let id: UInt32
                if let known = imageIDs[p.spritePath] {
                    id = known
                } else {
                    guard let png = LibPNGEncoder.encode(fit.image) else { continue }
                    id = UInt32(imageIDs.count + 1)
                    imageIDs[p.spritePath] = id
                    out += wrap(KittyGraphics.transmit(png: png, id: id))
                }
                out += cursor(p, fit) + wrap(KittyGraphics.place(id: id, placement: placementID(p), columns: fit.columns, rows: fit.rows))
            }
        case .sixel:
            let before = repainted ? [] : Set(shown)
            for p in next where !before.contains(p) {
                guard let fit = fit(p) else { continue }
                out += cursor(p, fit) + wrap(Sixel.encode(fit.image))
            }
        case .blocks:
            break
        }
        shown = next
        return out
    }

    /// What leaving sends: kitty frees every image it was sent.
    func end() -> String {
        guard pictures.protocolUsed == .kitty else { return "" }
        return imageIDs.values.sorted().map { wrap(KittyGraphics.delete(id: $0)) }.joined()
    }

    private func fit(_ p: BrowseView.Placement) -> (image: RGBAImage, columns: Int, rows: Int)? {
        if let known = fitted[p.spritePath] { return known }
        let made = Terminal.image(at: p.spritePath).flatMap { pictures.fitted($0, maxColumns: p.columns, maxRows: p.rows) }
        fitted[p.spritePath] = made
        return made
    }

    /// The cursor at the picture's top-left cell, centred in the tile's room.
    private func cursor(_ p: BrowseView.Placement, _ fit: (image: RGBAImage, columns: Int, rows: Int)) -> String {
        "\u{1B}[\(p.y + (p.rows - fit.rows) / 2 + 1);\(p.x + (p.columns - fit.columns) / 2 + 1)H"
    }

    /// A placement's id: its tile's cell, so the same tile is the same placement.
    private func placementID(_ p: BrowseView.Placement) -> UInt32 { UInt32(p.y * 1000 + p.x + 1) }

    private func wrap(_ s: String) -> String { pictures.tmuxPassthrough ? GraphicsSupport.tmuxPassthrough(s) : s }
}
