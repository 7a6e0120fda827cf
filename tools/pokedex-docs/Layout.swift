import FoundationEssentials

/// The package's targets as Package.swift declares them, for the check that the docs name each.
enum Layout {
    /// Every `name: "…"` of a target (`.target`, `.executableTarget`, `.testTarget`, `.systemLibrary`).
    static func targets(in manifest: String) -> [String] {
        let declaration = /\.(?:target|executableTarget|testTarget|systemLibrary)\(\s*name:\s*"([^"]+)"/
        return manifest.matches(of: declaration).map { String($0.output.1) }
    }

    /// The text under `heading` up to the next heading of its level.
    static func section(_ text: String, heading: String) -> String {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard let start = lines.firstIndex(where: { $0 == heading }) else { return "" }
        let level = heading.prefix(while: { $0 == "#" }) + " "
        let end = lines[(start + 1)...].firstIndex(where: { $0.hasPrefix(level) }) ?? lines.endIndex
        return lines[start..<end].joined(separator: "\n")
    }
}
