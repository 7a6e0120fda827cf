import Foundation
import PokedexBusClient
import XCTest

/// Private files, TLS that is always verified, and fetches only from allowed hosts.
final class SecurityTests: DaemonTestCase {
    func testDirectoriesArePrivateAndFilesToo() throws {
        // Even with a permissive umask in the environment that starts it.
        let old = umask(0)
        defer { umask(old) }
        try h.startDaemon(["--notify=no"])
        umask(old)
        let c = try PokedexClient()
        for name in ["pikachu", "charizard", "deoxys-attack"] { _ = try c.detail(name) }
        try c.setFavorite("pikachu", true)
        _ = try c.search("type:fire", limit: 5)
        h.stopDaemon()
        var checked = 0
        for root in [h.home + "/cache/pokedex", h.home + "/data/pokedex"] {
            let rootMode = try XCTUnwrap(try FileManager.default.attributesOfItem(atPath: root)[.posixPermissions] as? Int)
            XCTAssertEqual(rootMode, 0o700, root)
            let e = FileManager.default.enumerator(atPath: root)
            while let rel = e?.nextObject() as? String {
                let attrs = try FileManager.default.attributesOfItem(atPath: root + "/" + rel)
                let mode = try XCTUnwrap(attrs[.posixPermissions] as? Int)
                let isDirectory = attrs[.type] as? FileAttributeType == .typeDirectory
                XCTAssertEqual(mode, isDirectory ? 0o700 : 0o600, "\(root)/\(rel) is \(String(mode, radix: 8))")
                checked += 1
            }
        }
        print("permissions: \(checked) files and directories checked, all 0600/0700")
        XCTAssertGreaterThan(checked, 15)
    }

    func testUntrustedCertificatesAreRefused() throws {
        let pem = h.home + "/selfsigned.pem"
        let openssl = Process()
        openssl.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        openssl.arguments = ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=127.0.0.1",
                             "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", pem, "-out", pem + ".crt"]
        openssl.standardError = FileHandle.nullDevice
        try openssl.run()
        openssl.waitUntilExit()
        XCTAssertEqual(openssl.terminationStatus, 0)
        try (String(contentsOfFile: pem, encoding: .utf8) + String(contentsOfFile: pem + ".crt", encoding: .utf8))
            .write(toFile: pem, atomically: true, encoding: .utf8)
        let portFile = h.home + "/tls.port"
        let server = Process()
        server.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        server.arguments = ["python3", Harness.packageRoot + "/Tests/support/mockapi/mock_pokeapi.py", "--port", "0", "--port-file", portFile, "--tls-cert", pem]
        server.standardOutput = FileHandle.nullDevice
        server.standardError = FileHandle.nullDevice
        try server.run()
        defer { server.terminate(); server.waitUntilExit() }
        let port = try waitFor("the TLS mock", seconds: 10) { try? String(contentsOfFile: portFile, encoding: .utf8) }
        // The sprites over https too: with an https API nothing is fetched over plain http.
        try h.startDaemon(["--api-url", "https://127.0.0.1:\(port)/api/v2", "--sprite-url-template", "https://127.0.0.1:\(port)/sprites/{id}.png",
                           "--timeout", "3", "--notify=no"])
        let message = assertBusError(errorPrefix + "Unavailable") { () throws(BusError) in _ = try PokedexClient().detail("pikachu") }
        XCTAssertTrue(message.lowercased().contains("certificate") || message.contains("SSL"), message)
        // The server did answer over TLS: the refusal is the certificate's, not a dead port.
        let probe = Process()
        probe.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        probe.arguments = ["-skf", "-o", "/dev/null", "https://127.0.0.1:\(port)/api/v2/pokemon/25/"]
        try probe.run()
        probe.waitUntilExit()
        XCTAssertEqual(probe.terminationStatus, 0, "the TLS mock works when its certificate is not checked")
    }

    func testRedirectsAreFollowedOnlyWithinTheAllowlistAndRefusalsLoggedOnce() throws {
        try h.startDaemon(["--notify=no", "--no-prefetch"])
        let c = try PokedexClient()
        // Within the allowlist (the mock itself): followed.
        let expected = try h.get("/sprites/1.png")
        try h.control(["redirect_sprites": h.mockURL])
        let path = try c.spritePath("bulbasaur")
        XCTAssertEqual(Data(try XCTUnwrap(FileManager.default.contents(atPath: path))), expected)
        // Outside it: refused, with a typed error, and logged once however often it happens.
        try h.control(["redirect_sprites": "http://evil.invalid"])
        for name in ["ivysaur", "venusaur", "charmander"] {
            let message = assertBusError(errorPrefix + "Unavailable") { () throws(BusError) in _ = try c.spritePath(name) }
            XCTAssertTrue(message.contains("evil.invalid"), message)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: h.home + "/cache/pokedex/v2/sprites/2.png"))
        XCTAssertEqual(h.daemonLog.components(separatedBy: "evil.invalid is not an allowed host").count - 1, 1, h.daemonLog)
        // A body that names a sprite on another host: refused too, and the detail still answered.
        try h.control(["redirect_sprites": "", "evil_sprite": true])
        let gloom = try c.detail("gloom")
        XCTAssertEqual(gloom.spritePath, "")
        XCTAssertEqual(h.daemonLog.components(separatedBy: "evil.invalid is not an allowed host").count - 1, 1, "still one line")
    }
}
