import PokedexModels

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
public final class TileGraphics {
    /// A sprite fitted to `columns × rows` cells at most: the picture and the cells it takes.
    public typealias Fitted = (image: RGBAImage, columns: Int, rows: Int)

    public let protocolUsed: ImageProtocol
    public let tmuxPassthrough: Bool
    /// Reads and fits a sprite file to a tile's room; nil when it cannot be read.
    private let fit: (_ path: String, _ columns: Int, _ rows: Int) -> Fitted?
    /// kitty's payload: the picture as a PNG.
    private let png: (RGBAImage) -> [UInt8]?
    private var shown: [BrowseView.Placement] = []
    /// kitty: image id by sprite and size (``Fitting``), for those sent since the screen was
    /// last cleared.
    private var imageIDs: [Fitting: UInt32] = [:]
    /// kitty: every image id used (freed on leaving), and the last one.
    private var sentIDs: Set<UInt32> = []
    private var nextID: UInt32 = 0
    /// Sprites fitted once, by path and room (nil: could not be read).
    private var fitted: [Fitting: Fitted?] = [:]

    /// How many fitted sprites are kept: a few screens' worth.
    static let fittedKept = 256

    /// A sprite in a room of a size: a tile's, or the detail card's.
    private struct Fitting: Hashable {
        var spritePath: String
        var columns: Int
        var rows: Int
        init(_ p: BrowseView.Placement) { (spritePath, columns, rows) = (p.spritePath, p.columns, p.rows) }
    }

    public init(protocolUsed: ImageProtocol, tmuxPassthrough: Bool, fit: @escaping (String, Int, Int) -> Fitted?,
                png: @escaping (RGBAImage) -> [UInt8]?) {
        self.protocolUsed = protocolUsed
        self.tmuxPassthrough = tmuxPassthrough
        self.fit = fit
        self.png = png
    }

    /// sixel: whether the frame must be written whole first, because a picture drawn before goes.
    public func needsRepaint(_ next: [BrowseView.Placement]) -> Bool {
        protocolUsed == .sixel && !Set(shown).isSubset(of: next)
    }

    /// The bytes that take the terminal from the pictures shown to `next`; `repainted`: the
    /// frame just written was whole (a sixel picture is then gone).
    public func update(_ next: [BrowseView.Placement], repainted: Bool) -> String {
        var out = ""
        switch protocolUsed {
        case .kitty:
            if repainted {
                // The screen was cleared (`CSI 2 J`), and kitty took the pictures with it (and
                // may have freed the images): they are freed for sure, then sent and placed again.
                for id in imageIDs.values.sorted() {
                    out += wrap(KittyGraphics.delete(id: id))
                    sentIDs.remove(id)
                }
                shown = []
                imageIDs = [:]
            }
            let keep = Set(next)
            for old in shown where !keep.contains(old) {
                if let id = imageIDs[Fitting(old)] { out += wrap(KittyGraphics.remove(id: id, placement: placementID(old))) }
            }
            let before = Set(shown)
            for p in next where !before.contains(p) {
                guard let fit = fit(p) else { continue }
                let id: UInt32
                if let known = imageIDs[Fitting(p)] {
                    id = known
                } else {
                    guard let png = png(fit.image) else { continue }
                    nextID += 1
                    id = nextID
                    imageIDs[Fitting(p)] = id
                    sentIDs.insert(id)
                    out += wrap(KittyGraphics.transmit(png: png, id: id))
                }
                out += cursor(p, fit) + wrap(KittyGraphics.place(id: id, placement: placementID(p)))
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

    /// kitty: the ids sent so far are 1...this (what a dying pokectl frees without asking).
    public var lastImageID: UInt32 { protocolUsed == .kitty ? nextID : 0 }

    /// What leaving sends: kitty frees every image it was sent.
    public func end() -> String {
        guard protocolUsed == .kitty else { return "" }
        return sentIDs.sorted().map { wrap(KittyGraphics.delete(id: $0)) }.joined()
    }

    private func fit(_ p: BrowseView.Placement) -> Fitted? {
        if let known = fitted[Fitting(p)] { return known }
        let made = protocolUsed == .blocks ? nil : fit(p.spritePath, p.columns, p.rows)
        // Bounded: a tile's picture is tens of KB, and an afternoon's scrolling meets them all.
        if fitted.count >= Self.fittedKept { fitted.removeAll(keepingCapacity: true) }
        fitted[Fitting(p)] = made
        return made
    }

    /// A sprite fitted to at most `columns × rows` cells, as it will be drawn; nil when it
    /// cannot be read, or the terminal draws no pictures.
    public func fitting(_ path: String, _ columns: Int, _ rows: Int) -> Fitted? {
        fit(BrowseView.Placement(spritePath: path, x: 0, y: 0, columns: columns, rows: rows))
    }

    /// The cursor at the picture's top-left cell, centred in the tile's room.
    private func cursor(_ p: BrowseView.Placement, _ fit: Fitted) -> String {
        "\u{1B}[\(p.y + (p.rows - fit.rows) / 2 + 1);\(p.x + (p.columns - fit.columns) / 2 + 1)H"
    }

    /// A placement's id: its tile's cell, so the same tile is the same placement.
    private func placementID(_ p: BrowseView.Placement) -> UInt32 { UInt32(p.y * 1000 + p.x + 1) }

    private func wrap(_ s: String) -> String { tmuxPassthrough ? GraphicsSupport.tmuxPassthrough(s) : s }
}
