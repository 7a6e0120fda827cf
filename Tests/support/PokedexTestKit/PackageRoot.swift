import Foundation

/// The folder that holds `Package.swift`, found from this source file upwards, so a test finds
/// the project's files (the mock's data, `po/`, `dbus/`) wherever its tier's folder sits.
public enum PackageRoot {
    public static let url: URL = {
        var url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while url.path != "/" && !FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) {
            url.deleteLastPathComponent()
        }
        return url
    }()

    public static var path: String { url.path }
}
