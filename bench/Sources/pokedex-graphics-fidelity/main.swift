// pokedex-graphics-fidelity STREAM SPRITE
//   Reads what `pokectl show --image-protocol kitty|sixel` wrote (STREAM), finds the picture in
//   it (a kitty APC stream or a sixel DCS), decodes it back to pixels, and compares them with
//   the sprite file (SPRITE) cropped and enlarged to the same size. Prints one line:
//   PROTOCOL WIDTHxHEIGHT MEAN MISSING VISIBLE
//   MEAN: mean absolute colour difference per channel (0–255) over the sprite's visible pixels;
//   MISSING: visible pixels the picture left transparent.
import Glibc
import PokedexModels
import PokedexPNG
import PokedexTerminal

func fail(_ message: String) -> Never {
    let line = "pokedex-graphics-fidelity: \(message)\n"
    _ = line.withCString { write(2, $0, strlen($0)) }
    exit(1)
}

func readFile(_ path: String) -> [UInt8] {
    guard let f = fopen(path, "rb") else { fail("cannot open \(path)") }
    defer { fclose(f) }
    var out: [UInt8] = [], buffer = [UInt8](repeating: 0, count: 65536)
    while true {
        let n = fread(&buffer, 1, buffer.count, f)
        if n <= 0 { break }
        out += buffer[0..<n]
    }
    return out
}

let args = CommandLine.arguments
guard args.count == 3 else { fail("usage: pokedex-graphics-fidelity STREAM SPRITE") }
let bytes = readFile(args[1])
/// `bytes` from the first `needle` on, as text; nil when it is not there.
func from(_ needle: String) -> String? {
    let n = Array(needle.utf8)
    guard bytes.count >= n.count else { return nil }
    for i in 0...(bytes.count - n.count) where bytes[i] == n[0] && Array(bytes[i..<(i + n.count)]) == n {
        return String(decoding: bytes[i...], as: UTF8.self)
    }
    return nil
}
guard let sprite = LibPNGDecoder().decode(readFile(args[2])) else { fail("\(args[2]) is not a PNG") }

let decoded: (String, RGBAImage)
if let kitty = from("\u{1B}_Ga=T") {
    // From the drawing command to the end of its last chunk.
    guard let parsed = KittyGraphics.parse(kitty) else { fail("a kitty stream that does not parse") }
    let image = parsed.keys["f"] == "100" ? LibPNGDecoder().decode(parsed.payload) : KittyGraphics.decode(kitty)?.image
    guard let image else { fail("the kitty payload does not decode") }
    decoded = ("kitty", image)
} else if let sixel = from("\u{1B}P") {
    guard let image = Sixel.decode(sixel) else { fail("a sixel stream that does not decode") }
    decoded = ("sixel", image)
} else {
    fail("no kitty or sixel picture in \(args[1])")
}
guard let reference = ImageDifference.reference(for: sprite, width: decoded.1.width, height: decoded.1.height) else {
    fail("a \(decoded.1.width)x\(decoded.1.height) picture is not the sprite enlarged by a whole factor")
}
let d = ImageDifference.measure(reference, decoded.1)
let visible = (0..<(reference.width * reference.height)).filter { reference.pixels[$0 * 4 + 3] >= 128 }.count
print("\(decoded.0) \(decoded.1.width)x\(decoded.1.height) \(Double(Int((d.mean * 100).rounded())) / 100) \(d.missing) \(visible)")
