@testable import PokedexCore
import PokedexModels
import PropertyBased
@testable import PokedexTerminal
import Testing

/// What a hostile terminal or caller sends, at random: fitted pictures never trap and stay
/// within their caps; launches are one a second whatever the sequence of calls; the query is
/// never where an option is read. A failure prints the seed that replays it.
@Suite struct HostileInputProperties {
    @Test func fittedPicturesNeverTrapAndStayWithinTheirCaps() async {
        let sizes = Gen.int(in: Int.min...Int.max)
        await propertyCheck(count: 300, input: Gen.int(in: 1...600), Gen.int(in: 1...600), sizes, sizes, sizes, sizes) {
            width, height, cellWidth, cellHeight, columns, rows in
            let image = RGBAImage(width: width, height: height, pixels: [UInt8](repeating: 200, count: width * height * 4))
            let fit = PixelArt.fitted(image, maxColumns: columns, maxRows: rows, cell: (cellWidth, cellHeight))
            #expect(fit.image.width * fit.image.height <= PixelArt.maxPixels)
            #expect(fit.image.pixels.count == fit.image.width * fit.image.height * 4)
            #expect((1...PixelArt.maxCells).contains(fit.columns) && (1...PixelArt.maxCells).contains(fit.rows))
            let cell = PixelArt.clampedCell(width: cellWidth, height: cellHeight)
            #expect((1...PixelArt.maxCellPixels).contains(cell.width) && (1...PixelArt.maxCellPixels).contains(cell.height))
        }
    }

    /// Random gaps between calls (a burst, a pause, anything between): launches are at least
    /// a second apart, and a call a second or more after the last launch always launches.
    @Test func launchesAreOneASecondWhateverTheCalls() async {
        await propertyCheck(count: 300, input: Gen.uint64()) { seed in
            var rng = SplitMix64(seed: seed)
            var gate = LaunchGate()
            var now = 1000.0
            var last: Double?
            for _ in 0..<200 {
                now += [0.001, 0.01, 0.3, 0.99, 1.0, 2.5][Int(rng.next() % 6)]
                let admitted = gate.admit(now: now)
                if let last {
                    #expect(admitted == (now - last >= LaunchGate.interval), "at \(now), last launch at \(last)")
                } else {
                    #expect(admitted)
                }
                if admitted { last = now }
            }
        }
    }

    /// Any query, for any known terminal: it is one argument, the last, after pokectl's `--`.
    @Test func theQueryIsNeverAnOption() async {
        await propertyCheck(count: 300, input: Gen.uint64(), Gen.int(in: 0..<TerminalCommand.known.count)) { seed, which in
            var rng = SplitMix64(seed: seed)
            let alphabet = Array("-=e x/'\";$`\\\n\t#25pika".unicodeScalars)
            var query = ""
            for _ in 0..<Int(rng.next() % 24) { query.unicodeScalars.append(alphabet[Int(rng.next() % UInt64(alphabet.count))]) }
            let t = TerminalCommand.known[which]
            let argv = TerminalCommand.browse(terminal: "/usr/bin/" + t.name, run: t.run, pokectl: "/usr/bin/pokectl", query: query)
            let fixed = ["/usr/bin/" + t.name] + t.run + ["/usr/bin/pokectl", "browse"]
            #expect(Array(argv.prefix(fixed.count)) == fixed)
            #expect(Array(argv.dropFirst(fixed.count)) == (query.isEmpty ? [] : ["--", query]))
        }
    }
}
