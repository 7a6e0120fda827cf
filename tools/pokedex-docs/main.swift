#if canImport(Glibc)
import Glibc
#endif
import PokedexCore

/// `pokedex-docs ROOT` writes the documentation's generated sections from the contract and the
/// options' table; `pokedex-docs --check ROOT` says which differ and fails (make check-generated).
///
/// A section sits between two marker lines, which stay: `<!-- generated: NAME (make docs) -->`
/// and `<!-- end generated: NAME -->` in Markdown, `.\" generated: NAME (make docs)` and
/// `.\" end generated: NAME` in roff.
/// A line on stderr.
func fail(_ message: String) { _ = FileIO.writeAll(2, Array(message.utf8)) }

let sections: [(file: String, name: String, roff: Bool, make: () -> String)] = [
    ("README.md", "api", false, Sections.readmeAPI),
    ("README.md", "errors", false, Sections.readmeErrors),
    ("README.md", "options", false, Sections.readmeOptions),
    ("man/pokedexd.8", "dbus", true, ManSections.dbus),
    ("man/pokedexd.8", "options", true, ManSections.options),
    ("man/pokedexd.8", "environment", true, ManSections.environment),
]

var arguments = Array(CommandLine.arguments.dropFirst())
let check = arguments.first == "--check"
if check { arguments.removeFirst() }
guard arguments.count == 1 else {
    fail("usage: pokedex-docs [--check] ROOT\n")
    exit(2)
}
let root = arguments[0]
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
if check, !stale.isEmpty {
    fail("pokedex-docs: out of date (run 'make docs'): " + stale.joined(separator: ", ") + "\n")
    exit(1)
}
print(stale.isEmpty ? "pokedex-docs: up to date" : "pokedex-docs: wrote " + stale.joined(separator: ", "))
