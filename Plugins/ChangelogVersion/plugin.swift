import Foundation
import PackagePlugin

/// The version every binary reports (`--version`, Status, the User-Agent), read at build time
/// from debian/changelog's newest entry: the one place a release writes it. The plugin only
/// names the files; tools/changelog-version reads the changelog and writes the constant, and
/// runs again whenever the changelog changes.
@main
struct ChangelogVersion: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let root = context.package.directoryURL
        let script = root.appending(path: "tools/changelog-version")
        let changelog = root.appending(path: "debian/changelog")
        let output = context.pluginWorkDirectoryURL.appending(path: "ChangelogVersion.swift")
        return [
            .buildCommand(
                displayName: "Reading the version from debian/changelog",
                executable: URL(fileURLWithPath: "/bin/sh"),
                arguments: [script.path, changelog.path, "--swift", output.path],
                inputFiles: [script, changelog],
                outputFiles: [output]),
        ]
    }
}
