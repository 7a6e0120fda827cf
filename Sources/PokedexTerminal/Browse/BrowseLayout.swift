/// Where the tiles go for a terminal size: a title row, whole rows of tiles, a status row.
public struct BrowseLayout: Equatable, Sendable {
    public static let tileWidth = 14
    public static let tileHeight = 7
    public let width: Int
    public let height: Int
    public var columns: Int { max(1, width / Self.tileWidth) }
    public var rows: Int { max(1, (height - 2) / Self.tileHeight) }
    /// The grid is centred: the column its first tile starts at.
    public var left: Int { max(0, (width - columns * Self.tileWidth + 1) / 2) }
    /// The first row of tiles.
    public static let gridTop = 1

    /// The largest terminal drawn: a size past it (a terminal's nonsense, or 65535×65535) is
    /// drawn as this much, so a frame stays a few megabytes.
    public static let maxWidth = 1000, maxHeight = 500

    public init(width: Int, height: Int) {
        self.width = min(max(1, width), Self.maxWidth)
        self.height = min(max(1, height), Self.maxHeight)
    }

    /// The list index of the tile at a screen position, if one is there.
    public func index(atX x: Int, y: Int, top: Int) -> Int? {
        guard (0..<width).contains(x), (0..<height).contains(y), top >= 0 else { return nil }
        let x = x - left
        let row = (y - Self.gridTop) / Self.tileHeight, column = x / Self.tileWidth
        guard x >= 0, y >= Self.gridTop, row < rows, column < columns, x % Self.tileWidth < Self.tileWidth - 1 else { return nil }
        return (top + row) * columns + column
    }
}
