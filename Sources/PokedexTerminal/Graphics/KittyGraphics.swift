import PokedexModels

/// The kitty graphics protocol (kitty, WezTerm, Ghostty, Konsole): an image as APC escape
/// sequences, `ESC _ G key=value,… ; base64 payload ESC \`, its pixels sent as RGBA (`f=32`) in
/// chunks of at most 4096 base64 bytes (`m=1` on every chunk but the last).
///
/// The image is shown from the cursor at its own pixel size (fitted to the cell grid by
/// ``PixelArt/fitted``), so text laid out beside it lines up; `id` and `placement` make a
/// redraw replace it instead of stacking another.
public enum KittyGraphics {
    /// The most base64 bytes in one escape sequence, as the protocol requires.
    public static let chunkSize = 4096

    /// The escape sequences that draw `image` over `columns × rows` cells and leave the cursor
    /// where it was (`C=1`). `q=2`: the terminal answers nothing, not even errors.
    public static func draw(_ image: RGBAImage, columns: Int? = nil, rows: Int? = nil, id: UInt32? = nil, placement: UInt32? = nil) -> String {
        draw(payload: image.pixels, format: "f=32,s=\(image.width),v=\(image.height)", columns: columns, rows: rows, id: id, placement: placement)
    }

    /// The same with a PNG file as the payload (`f=100`): the terminal reads its size from it.
    public static func draw(png: [UInt8], columns: Int? = nil, rows: Int? = nil, id: UInt32? = nil, placement: UInt32? = nil) -> String {
        draw(payload: png, format: "f=100", columns: columns, rows: rows, id: id, placement: placement)
    }

    /// Without `id`, the terminal keeps the image as its own, which nothing sent later replaces
    /// (a card printed into the scrollback stays as it was).
    /// Without `columns` and `rows` it is drawn at its own pixel size; with them, stretched to
    /// exactly those cells.
    static func draw(payload bytes: [UInt8], format: String, columns: Int?, rows: Int?, id: UInt32?, placement: UInt32?) -> String {
        let keys = [columns.map { "c=\($0)" }, rows.map { "r=\($0)" }, id.map { "i=\($0)" }, placement.map { "p=\($0)" }].compactMap { $0 }
        return chunked(bytes, keys: (["a=T", format] + keys + ["C=1", "q=2"]).joined(separator: ","))
    }

    /// Sends a PNG to be kept as image `id`, shown nowhere yet (`a=t`): ``place(id:placement:)``
    /// shows it, as often as needed, without sending it again.
    public static func transmit(png: [UInt8], id: UInt32) -> String { chunked(png, keys: "a=t,f=100,i=\(id),q=2") }

    /// Shows image `id` at its own pixel size from the cursor, leaving the cursor there; a
    /// placement of the same `id` and `placement` is moved here instead of shown twice.
    public static func place(id: UInt32, placement: UInt32) -> String {
        "\u{1B}_Ga=p,i=\(id),p=\(placement),C=1,q=2\u{1B}\\"
    }

    /// Takes one placement of image `id` off the screen; the image stays for another.
    public static func remove(id: UInt32, placement: UInt32) -> String { "\u{1B}_Ga=d,d=i,i=\(id),p=\(placement),q=2\u{1B}\\" }

    /// Takes image `id` off the screen and frees it in the terminal.
    public static func delete(id: UInt32) -> String { "\u{1B}_Ga=d,d=I,i=\(id),q=2\u{1B}\\" }

    /// `bytes` as base64 in chunks of ``chunkSize``, `keys` on the first, `m=1` on all but the last.
    static func chunked(_ bytes: [UInt8], keys firstKeys: String) -> String {
        let payload = Base64.encode(bytes)
        var out = ""
        var start = payload.startIndex
        var first = true
        repeat {
            let end = payload.index(start, offsetBy: chunkSize, limitedBy: payload.endIndex) ?? payload.endIndex
            let more = end < payload.endIndex ? 1 : 0
            // `q=2` on every chunk: some versions answer the last one unless it is repeated.
            let keys = first ? "\(firstKeys),m=\(more)" : "m=\(more),q=2"
            out += "\u{1B}_G" + keys + ";" + payload[start..<end] + "\u{1B}\\"
            first = false
            start = end
        } while start < payload.endIndex
        return out
    }

    /// The query that a kitty-protocol terminal answers with `ESC _ G i=31;OK ESC \` (any
    /// other answer, or none, means no): a 1×1 RGB image that is only checked, never shown.
    public static let query = "\u{1B}_Gi=31,s=1,v=1,a=q,t=d,f=24;AAAA\u{1B}\\"

    /// Whether `reply` holds a kitty graphics answer to ``query``.
    public static func answersQuery(_ reply: [UInt8]) -> Bool {
        let s = String(decoding: reply, as: UTF8.self)
        return s.contains("\u{1B}_Gi=31;OK")
    }

    /// The image a raw-RGBA ``draw(_:columns:rows:id:placement:)`` stream carries, read back (tests, the bench).
    public static func decode(_ stream: String) -> (image: RGBAImage, columns: Int, rows: Int)? {
        guard let (keys, bytes) = parse(stream), keys["f"] == "32", let w = keys["s"].flatMap(Int.init),
              let h = keys["v"].flatMap(Int.init), w >= 0, h >= 0,
              case let (area, overflow) = w.multipliedReportingOverflow(by: h), !overflow, area <= bytes.count / 4,
              bytes.count == area * 4 else { return nil }
        return (RGBAImage(width: w, height: h, pixels: bytes), keys["c"].flatMap(Int.init) ?? 0, keys["r"].flatMap(Int.init) ?? 0)
    }

    /// The keys of a stream's first image's first chunk and its whole payload, put back together
    /// (up to its chunk without `m=1`).
    public static func parse(_ stream: String) -> (keys: [String: String], payload: [UInt8])? {
        var keys: [String: String] = [:]
        var data = ""
        var rest = Substring(stream)
        while let start = rest.firstRange(of: "\u{1B}_G") {
            rest = rest[start.upperBound...]
            guard let end = rest.firstRange(of: "\u{1B}\\") else { return nil }
            let body = rest[..<end.lowerBound]
            rest = rest[end.upperBound...]
            let parts = body.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false)
            for kv in parts[0].split(separator: ",") {
                let pair = kv.split(separator: "=", maxSplits: 1)
                if pair.count == 2, keys[String(pair[0])] == nil || pair[0] == "m" { keys[String(pair[0])] = String(pair[1]) }
            }
            if parts.count == 2 { data += parts[1] }
            if !parts[0].split(separator: ",").contains("m=1") { break }
        }
        guard let bytes = Base64.decode(data) else { return nil }
        return (keys, bytes)
    }
}

/// Base64 (RFC 4648, with padding), for the graphics protocols (PokedexTerminal links no Foundation).
public enum Base64 {
    static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    public static func encode(_ bytes: [UInt8]) -> String {
        var out = [UInt8]()
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var i = 0
        while i + 2 < bytes.count {
            let n = UInt32(bytes[i]) << 16 | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2])
            out += [alphabet[Int(n >> 18)], alphabet[Int(n >> 12 & 63)], alphabet[Int(n >> 6 & 63)], alphabet[Int(n & 63)]]
            i += 3
        }
        let left = bytes.count - i
        if left > 0 {
            let n = UInt32(bytes[i]) << 16 | (left == 2 ? UInt32(bytes[i + 1]) << 8 : 0)
            out += [alphabet[Int(n >> 18)], alphabet[Int(n >> 12 & 63)]]
            out += left == 2 ? [alphabet[Int(n >> 6 & 63)], UInt8(ascii: "=")] : [UInt8(ascii: "="), UInt8(ascii: "=")]
        }
        return String(decoding: out, as: UTF8.self)
    }

    public static func decode(_ text: String) -> [UInt8]? {
        var table = [Int](repeating: -1, count: 256)
        for (i, c) in alphabet.enumerated() { table[Int(c)] = i }
        var out = [UInt8]()
        var acc = 0, bits = 0
        for c in text.utf8 where c != UInt8(ascii: "=") {
            let v = table[Int(c)]
            guard v >= 0 else { return nil }
            acc = acc << 6 | v
            bits += 6
            if bits >= 8 {
                bits -= 8
                out.append(UInt8(truncatingIfNeeded: acc >> bits))
            }
        }
        return out
    }
}
