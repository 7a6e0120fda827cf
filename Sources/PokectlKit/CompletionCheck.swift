import ArgumentParser
import Synchronization

/// The argument parser's check for `--generate-completion-script`, skipped when no argument
/// asks for it.
///
/// Before every parse, swift-argument-parser parses the arguments twice more, as its own two
/// completion commands, to see whether a completion script is asked for. Those parses
/// instantiate types the rest of pokectl never uses, each a scan of every protocol conformance
/// in the binary: 15 % of `pokectl list --json`'s CPU (issue 38). The library skips the check
/// for a root command that has a `_superCommandName`, and reads that name for nothing else but
/// help pages and usage lines. So the root has one only while parsing arguments that hold no
/// `--generate-completion-script`: there the check could find nothing, and every help page or
/// usage error is written after the parse, without it.
enum CompletionCheck {
    private static let skipping = Atomic<Bool>(false)

    /// Runs `parse` with the check skipped when `arguments` cannot ask for a completion script.
    static func parse<T>(_ arguments: [String], _ parse: () throws -> T) rethrows -> T {
        skipping.store(!arguments.contains { $0.hasPrefix("--generate-completion-script") }, ordering: .relaxed)
        defer { skipping.store(false, ordering: .relaxed) }
        return try parse()
    }

    /// The root configuration as the parser should see it now.
    static func applied(to configuration: CommandConfiguration) -> CommandConfiguration {
        guard skipping.load(ordering: .relaxed) else { return configuration }
        var c = configuration
        c._superCommandName = ""
        return c
    }
}
