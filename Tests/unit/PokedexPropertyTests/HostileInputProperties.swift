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
        await propertyCheck(count: PropertyCounts.cases(300), input: Gen.int(in: 1...600), Gen.int(in: 1...600), sizes, sizes, sizes, sizes) {
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
        await propertyCheck(count: PropertyCounts.cases(300), input: Gen.uint64()) { seed in
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

    /// Random callers (one flooding, a few people, many one-call connections) at random gaps:
    /// in any window, no caller is admitted more than its burst plus what the window refills,
    /// nor all together more than theirs; and a caller with a full bucket, while all together
    /// have room, is always admitted (a person's click works).
    @Test func launchBudgetsHoldWhateverTheCallers() async {
        await propertyCheck(count: PropertyCounts.cases(300), input: Gen.uint64()) { seed in
            var rng = SplitMix64(seed: seed)
            var budget = LaunchBudget()
            var now = 100.0
            var admitted: [(caller: String, at: Double)] = []
            var lastAdmitted: [String: Double] = [:]
            for step in 0..<400 {
                now += [0.0, 0.01, 0.5, 1.0, 4.0, 30.0][Int(rng.next() % 6)]
                let caller = switch rng.next() % 4 {
                case 0, 1: "flood"
                case 2: ":1.\(rng.next() % 1000)"
                default: ["gnome-shell", "krunner"][Int(rng.next() % 2)]
                }
                let fresh = lastAdmitted[caller].map { now - $0 >= LaunchBudget.perCaller.every * LaunchBudget.perCaller.burst } ?? true
                let allRoom = admitted.filter { now - $0.at < LaunchBudget.overall.every }.isEmpty
                let verdict = budget.admit(caller: caller, now: now)
                if verdict == .admitted {
                    admitted.append((caller, now))
                    lastAdmitted[caller] = now
                } else if fresh && allRoom {
                    // Only a caller forgotten and remembered anew could differ: it starts full.
                    Issue.record("seed \(seed) step \(step): \(caller) refused with a full bucket and room overall")
                }
                for window in [1.0, 10.0, 60.0, 600.0] {
                    let recent = admitted.filter { now - $0.at < window }
                    let all = Double(recent.count)
                    #expect(all <= LaunchBudget.overall.burst + window / LaunchBudget.overall.every + 1, "seed \(seed): \(all) in \(window) s")
                    let mine = Double(recent.filter { $0.caller == "flood" }.count)
                    #expect(mine <= LaunchBudget.perCaller.burst + window / LaunchBudget.perCaller.every + 1,
                            "seed \(seed): the flood got \(mine) in \(window) s")
                }
            }
        }
    }

    /// Any query, whichever terminal is chosen (any set installed, any desktop, any
    /// `$TERMINAL`): it is one argument, the last, after pokectl's `--`; before it come only the
    /// terminal, its fixed options, pokectl, `browse` and the card's number.
    @Test func theQueryIsNeverAnOption() async {
        await propertyCheck(count: PropertyCounts.cases(1000), input: Gen.uint64()) { seed in
            var rng = SplitMix64(seed: seed)
            let alphabet = Array("-=e x/'\";$`\\\n\t#25pika".unicodeScalars)
            var query = ""
            for _ in 0..<Int(rng.next() % 24) { query.unicodeScalars.append(alphabet[Int(rng.next() % UInt64(alphabet.count))]) }
            let installed = Set(TerminalCommand.known.map(\.name).filter { _ in rng.next() % 3 == 0 } + ["my-term"])
            let desktops = ["", "GNOME", "KDE", "ubuntu:GNOME", "XFCE", "X-Cinnamon", "sway"]
            var environment = ["XDG_CURRENT_DESKTOP": desktops[Int(rng.next() % UInt64(desktops.count))],
                               "LANG": ["ja_JP.UTF-8", "de_DE.UTF-8", "C"][Int(rng.next() % 3)]]
            if rng.next() % 2 == 0 { environment["TERMINAL"] = (Array(installed) + ["--help"]).randomElement(using: &rng) }
            let card: UInt32? = rng.next() % 2 == 0 ? UInt32(rng.next() % 20000) : nil
            let launch = BrowseLaunch(card: card, query: query)
            guard let argv = TerminalCommand.choose(launch, pokectl: "/usr/bin/pokectl", environment: environment,
                                                    find: { installed.contains($0) ? "/usr/bin/" + $0 : nil }) else {
                #expect(installed == ["my-term"] || environment["TERMINAL"] == nil)
                return
            }
            let browse = try #require(argv.firstIndex(of: "/usr/bin/pokectl"))
            #expect(argv[browse + 1] == "browse")
            #expect(!argv[..<browse].contains(query) || query.isEmpty || ["--", "-e", "-x"].contains(query))
            let after = Array(argv[(browse + 2)...])
            let cardPart = card.map { ["--open", String($0)] } ?? []
            #expect(Array(after.prefix(cardPart.count)) == cardPart)
            let rest = Array(after.dropFirst(cardPart.count))
            #expect(rest == [] || rest == ["--desktop-search", "--", query])
            #expect(rest.isEmpty == (query.isEmpty || TerminalCommand.convention(of: argv[0]) == nil))
        }
    }
}
