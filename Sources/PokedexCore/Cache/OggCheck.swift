/// Whether bytes are a whole Ogg stream (a Pokémon's cry: Vorbis, or Opus), checked before
/// a cry is kept and when it is read back: every page's header in place and its segments all
/// there, up to the page that ends the stream; a cut or swapped file fails.
enum OggCheck {
    static func isValid(_ b: [UInt8]) -> Bool {
        var at = 0
        var pages = 0
        while at < b.count {
            // "OggS", version 0, header type, granule (8), serial (4), sequence (4), CRC (4), segments.
            guard b.count - at >= 27, b[at] == 0x4F, b[at + 1] == 0x67, b[at + 2] == 0x67, b[at + 3] == 0x53, b[at + 4] == 0 else {
                return false
            }
            let type = b[at + 5], segments = Int(b[at + 26])
            guard b.count - at - 27 >= segments else { return false }
            let body = b[(at + 27)..<(at + 27 + segments)].reduce(0) { $0 + Int($1) }
            let start = at + 27 + segments
            guard b.count - start >= body else { return false }
            if pages == 0, !(startsWith(b, start, "\u{01}vorbis") || startsWith(b, start, "OpusHead")) { return false }
            pages += 1
            at = start + body
            // The last page says so (end of stream); nothing may follow it.
            if type & 0x04 != 0 { return at == b.count }
        }
        return false
    }

    private static func startsWith(_ b: [UInt8], _ at: Int, _ text: String) -> Bool {
        let t = Array(text.utf8)
        return b.count - at >= t.count && Array(b[at..<(at + t.count)]) == t
    }
}
