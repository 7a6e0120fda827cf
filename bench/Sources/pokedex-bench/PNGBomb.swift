import CPNG
import Glibc
import PokedexCore
import PokedexPNG

// `pokedex-bench png-bomb`: the CPU the service spends on a sprite from the network before it
// keeps or refuses it (what SpriteCache does: ancillary chunks dropped, the image data inflated
// no further than the header allows, the structure checked), for a real-sized sprite and for
// the decompression bombs of issue 60. Median thread CPU time of 10 runs each.

private func bigEndian(_ v: UInt32) -> [UInt8] { [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: v >> $0) } }

private func chunk(_ kind: String, _ data: [UInt8]) -> [UInt8] {
    let typed = Array(kind.utf8) + data
    let crc = typed.withUnsafeBufferPointer { UInt32(crc32(0, $0.baseAddress, uInt($0.count))) }
    return bigEndian(UInt32(data.count)) + typed + bigEndian(crc)
}

private func zlib(zeros count: Int) -> [UInt8] {
    let input = [UInt8](repeating: 0, count: count)
    var length = compressBound(uLong(count))
    var out = [UInt8](repeating: 0, count: Int(length))
    guard compress2(&out, &length, input, uLong(count), 9) == Z_OK else { fail("compress2 failed") }
    return Array(out[..<Int(length)])
}

/// A `width`×`height` RGBA PNG whose image data is `inflated` zero bytes.
private func png(_ width: UInt32, _ height: UInt32, inflating inflated: Int, extra: [[UInt8]] = []) -> [UInt8] {
    let header = bigEndian(width) + bigEndian(height) + [8, 6, 0, 0, 0]
    return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", header) + extra.joined()
        + chunk("IDAT", zlib(zeros: inflated)) + chunk("IEND", [])
}

private func threadCPU() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

func pngBomb() {
    let exact96 = 96 * (1 + 96 * 4)
    let cases: [(String, [UInt8])] = [
        ("sprite 96x96, its own size", png(96, 96, inflating: exact96)),
        ("bomb 512x512 over 64 MiB", png(512, 512, inflating: 64 << 20)),
        ("bomb 512x512 over 300 MiB", png(512, 512, inflating: 300 << 20)),
        ("sprite 96x96 with a 200 MiB zTXt", png(96, 96, inflating: exact96,
                                                  extra: [chunk("zTXt", Array("Comment".utf8) + [0, 0] + zlib(zeros: 200 << 20))])),
    ]
    let decoder = LibPNGDecoder()
    for (name, bytes) in cases {
        var times: [Double] = []
        var kept = 0
        var accepted = false
        for _ in 0..<10 {
            let t0 = threadCPU()
            let stripped = PNGCheck.withoutAncillaryChunks(bytes)
            accepted = PNGCheck.isValid(stripped) && decoder.inflatesWithinItsSize(stripped)
            times.append(threadCPU() - t0)
            kept = stripped.count
        }
        print("\(name): \(bytes.count) bytes on the wire, \(accepted ? "kept \(kept) bytes" : "refused"), "
            + "cpu_ms_median=\(ms(percentile(times, 0.5))) cpu_ms_max=\(ms(times.max()!))")
    }
}
