import Glibc
import PokedexModels
import PokedexPNG
import PokedexTerminal

/// What pokectl knows of the terminal it prints to.
enum Terminal {
    /// Whether stdout is a terminal.
    static let isTTY = isatty(1) == 1

    /// The environment as a dictionary (pokectl links no Foundation).
    static let environment: [String: String] = {
        var out: [String: String] = [:]
        var p = environ
        while let entry = p.pointee {
            let s = String(cString: entry)
            if let eq = s.firstIndex(of: "=") { out[String(s[..<eq])] = String(s[s.index(after: eq)...]) }
            p += 1
        }
        return out
    }()

    /// A sprite file's pixels, or nil if it cannot be read or decoded.
    static func image(at path: String) -> RGBAImage? {
        guard !path.isEmpty else { return nil }
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while bytes.count < 16 << 20 {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n <= 0 { break }
            bytes += buffer[0..<n]
        }
        return LibPNGDecoder().decode(bytes)
    }
}
