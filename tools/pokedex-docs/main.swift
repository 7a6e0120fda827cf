#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials
import PokedexCore

/// `pokedex-docs ROOT` writes the documentation's generated sections from the contract and the
/// options' table; `pokedex-docs --check ROOT` says which differ and fails (make check-generated).
///
/// A section sits between two marker lines, which stay: `<!-- generated: NAME (make docs) -->`
/// and `<!-- end generated: NAME -->` in Markdown, `.\" generated: NAME (make docs)` and
/// `.\" end generated: NAME` in roff.
/// A line on stderr.
func fail(_ message: String) { _ = FileIO.writeAll(2, Array(message.utf8)) }

var sections: [(file: String, name: String, roff: Bool, make: () -> String)] = [
    ("README.md", "api", false, Sections.readmeAPI),
    ("README.md", "errors", false, Sections.readmeErrors),
    ("README.md", "options", false, Sections.readmeOptions),
    ("man/pokedexd.1", "dbus", true, ManSections.dbus),
    ("man/pokedexd.1", "options", true, ManSections.options),
    ("man/pokedexd.1", "environment", true, ManSections.environment),
]

var arguments = Array(CommandLine.arguments.dropFirst())
let check = arguments.first == "--check"
if check { arguments.removeFirst() }
var pokectlHelp: PokectlSections.Dump?
if arguments.first == "--pokectl-help", arguments.count > 1 {
    // pokectl --experimental-dump-help, in the C locale: its options as its parser declares them.
    guard let bytes = FileIO.readFile(arguments[1], maxBytes: 1 << 22),
          let dump = try? JSONDecoder().decode(PokectlSections.Dump.self, from: Data(bytes)) else {
        fail("pokedex-docs: cannot read pokectl's options from \(arguments[1])\n")
        exit(1)
    }
    pokectlHelp = dump
    arguments.removeFirst(2)
}
guard arguments.count == 1, let dump = pokectlHelp else {
    fail("usage: pokedex-docs [--check] --pokectl-help FILE ROOT  (FILE: LC_ALL=C pokectl --experimental-dump-help)\n")
    exit(2)
}
let root = arguments[0]
sections += [
    ("man/pokectl.1", "options", true, { PokectlSections.options(dump) }),
    ("man/pokectl.1", "command-options", true, { PokectlSections.commandOptions(dump) }),
]
var stale: [String] = []
for file in Set(sections.map(\.file)).sorted() {
    let path = root + "/" + file
    guard let text = FileIO.readFile(path, maxBytes: 1 << 22).map({ String(decoding: $0, as: UTF8.self) }) else {
        fail("pokedex-docs: cannot read \(path)\n")
        exit(1)
    }
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    for section in sections where section.file == file {
        let begin = section.roff ? ".\\\" generated: \(section.name) (make docs)" : "<!-- generated: \(section.name) (make docs) -->"
        let end = section.roff ? ".\\\" end generated: \(section.name)" : "<!-- end generated: \(section.name) -->"
        guard let b = lines.firstIndex(of: begin), let e = lines[b...].firstIndex(of: end) else {
            fail("pokedex-docs: \(file) has no section \(section.name) (the lines '\(begin)' and '\(end)')\n")
            exit(1)
        }
        let made = section.make().split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if Array(lines[(b + 1)..<e]) != made {
            stale.append("\(file): \(section.name)")
            lines.replaceSubrange((b + 1)..<e, with: made)
        }
    }
    if !check, !stale.isEmpty {
        // In place, as an editor writes: the file keeps its mode.
        let bytes = Array(lines.joined(separator: "\n").utf8)
        guard let f = fopen(path, "w"), fwrite(bytes, 1, bytes.count, f) == bytes.count, fclose(f) == 0 else {
            fail("pokedex-docs: cannot write \(path): \(String(cString: strerror(errno)))\n")
            exit(1)
        }
    }
}
// Every target of Package.swift is named where the layout is described: README's Layout and
// docs/architecture.md (their prose is written by hand; a target they forget is caught here).
let manifest = FileIO.readFile(root + "/Package.swift", maxBytes: 1 << 20).map { String(decoding: $0, as: UTF8.self) } ?? ""
let targets = Layout.targets(in: manifest)
var unnamed: [String] = []
for (file, heading) in [("README.md", "## Layout"), ("docs/architecture.md", nil as String?)] {
    let text = FileIO.readFile(root + "/" + file, maxBytes: 1 << 22).map { String(decoding: $0, as: UTF8.self) } ?? ""
    let scope = heading.map { Layout.section(text, heading: $0) } ?? text
    let missing = targets.filter { !scope.contains("`\($0)`") && !scope.contains("/\($0)`") && !scope.contains("`\($0) ") }
    if !missing.isEmpty { unnamed.append("\(file)\(heading.map { " (\($0))" } ?? "") does not name " + missing.joined(separator: ", ")) }
}
if !unnamed.isEmpty {
    fail("pokedex-docs: " + unnamed.joined(separator: "; ") + " (write them in by hand)\n")
    exit(1)
}

if check, !stale.isEmpty {
    fail("pokedex-docs: out of date (run 'make docs'): " + stale.joined(separator: ", ") + "\n")
    exit(1)
}
print(stale.isEmpty ? "pokedex-docs: up to date" : "pokedex-docs: wrote " + stale.joined(separator: ", "))
