// swift-tools-version:6.0
import PackageDescription

// POKEDEX_VENDORED=1 (debian/rules): build offline, as Debian builds, from the copies of the
// products' dependencies that `make vendor` leaves in vendor/ (pinned by Package.resolved), with
// nothing the tests alone need. Otherwise SwiftPM resolves them as usual, from Package.resolved.
let vendored = Context.environment["POKEDEX_VENDORED"] == "1"
let argumentParser: Package.Dependency = vendored
    ? .package(path: "vendor/swift-argument-parser")
    : .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2")

// The release build's hardening of the C shims (the Makefile's POKEDEX_CFLAGS: dpkg-buildflags'
// CPPFLAGS and CFLAGS), for the C targets alone. Through -Xcc they would reach Swift's Clang
// importer too, where glibc's fortified inline wrappers make `read` ambiguous (Debian 13).
let hardening: [CSetting] = (Context.environment["POKEDEX_CFLAGS"]).map {
    [.unsafeFlags($0.split(separator: " ").map(String.init), .when(configuration: .release))]
} ?? []

let package = Package(
    name: "pokedexd",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "pokedexd", targets: ["pokedexd"]),
        .executable(name: "pokectl", targets: ["pokectl"]),
    ],
    dependencies: [argumentParser],
    targets: [
        // C libraries from Debian, bound through pkg-config.
        .systemLibrary(
            name: "CSystemd", pkgConfig: "libsystemd",
            providers: [.apt(["libsystemd-dev"])]),
        // libcurl's headers alone (libcurl4-openssl-dev): no pkg-config, whose --libs would link it.
        .systemLibrary(name: "CCurl"),
        .systemLibrary(
            name: "CPNG", pkgConfig: "libpng",
            providers: [.apt(["libpng-dev"])]),
        // Whole-buffer inflate at about twice zlib's speed: bodies complete in memory, a sprite's data.
        .systemLibrary(
            name: "CDeflate", pkgConfig: "libdeflate",
            providers: [.apt(["libdeflate-dev"])]),
        // What Swift cannot import: the SD_BUS_* vtable macros, and curl's variadic setopt/getinfo
        // (and the trusted certificates read once, through OpenSSL, which curl is built on).
        .target(name: "CBusShims", dependencies: ["CSystemd"], cSettings: hardening),
        // libcurl is loaded when the service starts, not linked (curl_library.c): pokectl, the
        // same binary, never maps it.
        .target(name: "CCurlShims", dependencies: ["CCurl", "CDeflate"], cSettings: hardening, linkerSettings: [.linkedLibrary("z")]),
        // What a signal handler may do, in C: give the terminal back before pokectl dies.
        .target(name: "CTerminalShims", cSettings: hardening),
        // Landlock's three system calls (pokedexd confines itself; no header needed).
        .target(name: "CLandlock", cSettings: hardening),
        // A seccomp filter: no new Unix sockets once the service runs (libseccomp).
        .target(name: "CSeccomp", cSettings: hardening, linkerSettings: [.linkedLibrary("seccomp")]),
        .target(name: "CLocale", cSettings: hardening),

        // A lock ThreadSanitizer understands (pthread), in place of Synchronization.Mutex.
        .target(name: "PokedexLocks"),
        // The answers and errors as values, shared by the service and its clients (no Foundation).
        .target(name: "PokedexModels", plugins: ["ChangelogVersion"]),
        // The version, from debian/changelog at build time (tools/changelog-version).
        .plugin(name: "ChangelogVersion", capability: .buildTool()),
        // The network, free of C and of the domain: the fetcher, its request gate, each host's
        // health, single flights, the two clocks. What any client of a budgeted HTTP API needs.
        .target(name: "PokedexNetwork", dependencies: ["PokedexModels", "PokedexLocks"]),
        // The domain, free of C: tiers, favorites, search, the service.
        .target(name: "PokedexCore", dependencies: ["PokedexModels", "PokedexLocks", "PokedexNetwork"]),

        // Sprite pixels from PNG bytes, through libpng (the service's colours, pokectl's pictures).
        .target(name: "PokedexPNG", dependencies: ["PokedexModels", "CPNG", "CDeflate"]),
        // Drawing in a terminal: sprites as half blocks, the detail card (pure Swift, no bus).
        .target(name: "PokedexTerminal", dependencies: ["PokedexModels"]),
        .target(name: "PokedexLocale", dependencies: ["PokedexModels", "PokedexLocks", "CLocale"]),
        // posix_spawn as the mains need it: the service's launches, pokectl's cry player.
        .target(name: "PokedexProcess"),
        // What the desktop widgets show (pokectl widget): Waybar, Polybar and conky's texts, which
        // favorite, and when to ask the service again (pure Swift, no bus).
        .target(name: "PokedexWidgets", dependencies: ["PokedexModels"]),

        // The contract: every member of every published interface, described once, and the
        // message coding it is built from. The server, the client and pokectl all use it.
        .target(name: "PokedexProtocol", dependencies: ["PokedexModels", "CSystemd", "CBusShims"]),

        // One sd-event loop thread that owns the bus and the curl multi handle.
        .target(name: "PokedexEventLoop", dependencies: ["CSystemd", "PokedexLocks"]),
        // Adapters: they only translate.
        .target(name: "PokedexCurl", dependencies: ["PokedexNetwork", "PokedexModels", "PokedexEventLoop", "PokedexLocks", "CCurl", "CCurlShims"]),
        .target(name: "PokedexBusServer", dependencies: ["PokedexProtocol", "PokedexCore", "PokedexEventLoop", "CSystemd", "CBusShims"]),
        // The bus client and message coding: what pokectl, widgets and tests link (no curl, no Foundation).
        .target(name: "PokedexBusClient", dependencies: ["PokedexModels", "PokedexProtocol", "CSystemd"]),

        // pokectl's commands, their context and output, and browse: a library, so that XCTests
        // run each command in process with a fake client (the main only parses, runs and exits).
        .target(
            name: "PokectlKit",
            dependencies: [
                "PokedexModels", "PokedexBusClient", "PokedexProtocol", "PokedexLocks", "PokedexPNG", "PokedexTerminal", "CTerminalShims", "PokedexLocale", "PokedexWidgets", "PokedexProcess",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),

        // Thin mains. pokedexd is installed as both programs (pokectl a link to it, MultiCall),
        // so it links PokectlKit too; pokectl alone is the build's, for tests and development.
        .executableTarget(
            name: "pokedexd",
            dependencies: [
                "PokedexCore", "PokedexBusServer", "PokedexProtocol", "PokedexCurl", "PokedexEventLoop", "PokedexPNG", "PokedexLocks", "CLandlock", "CSeccomp", "PokedexLocale", "PokedexProcess",
                "PokectlKit",
            ]),
        .executableTarget(name: "pokectl", dependencies: ["PokectlKit"]),

        // The documentation's generated sections, from the contract and the options' table (make docs).
        .executableTarget(name: "pokedex-docs", dependencies: ["PokedexProtocol", "PokedexCore", "PokedexModels"], path: "tools/pokedex-docs"),
        // The benchmarks' in-process bus client (bench/run drives it).
        .executableTarget(name: "pokedex-bench", dependencies: ["PokedexBusClient", "PokedexCore", "PokedexPNG", "CPNG"], path: "bench/Sources/pokedex-bench"),
        // bench/graphics: how far the kitty and sixel pictures pokectl sent are from the sprite.
        .executableTarget(name: "pokedex-graphics-fidelity", dependencies: ["PokedexTerminal", "PokedexPNG"],
                          path: "bench/Sources/pokedex-graphics-fidelity"),

        // The fakes every test target shares: a clock moved by hand, an HTTP client answering
        // from routes, favorites in memory, temporary directories, and one PNG encoder.
        .target(name: "PokedexTestKit", dependencies: ["PokedexCore", "PokedexNetwork", "PokedexLocks"], path: "Tests/support/PokedexTestKit"),
        .testTarget(name: "PokedexNetworkTests", dependencies: ["PokedexNetwork", "PokedexLocks", "PokedexTestKit", "PokedexCurl"], path: "Tests/unit/PokedexNetworkTests"),
        .testTarget(name: "PokedexCoreTests", dependencies: ["PokedexCore", "PokedexNetwork", "PokedexLocks", "PokedexTestKit"], path: "Tests/unit/PokedexCoreTests",
                    exclude: ["Fixtures"]),
        // pokectl's drawing (PokedexTerminal); ColorTests, beside it, the PNG decoder and the
        // sprites' dominant colour (PokedexPNG, PokedexCore).
        .testTarget(name: "PokedexTerminalTests", dependencies: ["PokedexCore", "PokedexPNG", "PokedexTerminal", "PokedexTestKit"], path: "Tests/unit/PokedexTerminalTests", exclude: ["Snapshots"]),
        .testTarget(name: "PokedexIntegrationTests", dependencies: ["PokedexBusClient", "PokedexCore", "PokedexLocale", "PokedexLocks", "PokedexTestKit"], path: "Tests/integration/PokedexIntegrationTests"),
        .testTarget(name: "PokedexProtocolTests", dependencies: ["PokedexProtocol", "PokedexTestKit"], path: "Tests/unit/PokedexProtocolTests"),
        // The bus server's lifecycle in process: a private dbus-daemon, the loop on a clock moved by hand.
        .testTarget(name: "PokedexBusServerTests", dependencies: [
            "PokedexBusServer", "PokedexBusClient", "PokedexCore", "PokedexEventLoop", "PokedexLocks", "PokedexNetwork", "PokedexProtocol",
            "PokedexTestKit", "CSystemd",
        ], path: "Tests/unit/PokedexBusServerTests"),
        .testTarget(name: "PokedexBusClientTests", dependencies: ["PokedexBusClient"], path: "Tests/unit/PokedexBusClientTests"),
        .testTarget(name: "PokedexEventLoopTests", dependencies: ["PokedexEventLoop", "PokedexLocks", "CSeccomp"], path: "Tests/unit/PokedexEventLoopTests"),
        // libcurl's client against an HTTP server in process.
        .testTarget(name: "PokedexCurlTests", dependencies: ["PokedexCurl", "PokedexNetwork", "PokedexModels", "PokedexCore", "PokedexEventLoop", "PokedexLocks"], path: "Tests/unit/PokedexCurlTests"),
        .testTarget(name: "PokedexWidgetsTests", dependencies: ["PokedexWidgets", "PokedexModels"], path: "Tests/unit/PokedexWidgetsTests"),
        // pokectl's commands run in process (PokectlKit) against a fake service, in English and German.
        .testTarget(name: "PokectlKitTests", dependencies: ["PokectlKit", "PokedexBusClient", "PokedexProtocol", "PokedexLocale", "PokedexTerminal", "PokedexPNG", "PokedexTestKit", "CSystemd"], path: "Tests/unit/PokectlKitTests"),
    ],
    swiftLanguageModes: [.v6]
)

// Swift Testing, not XCTest: random inputs for the parts that meet hostile data. Test-only, and
// its package needs tools 6.1, so the vendored build (Debian's 6.0.3) leaves it out.
if !vendored {
    package.dependencies.append(.package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"))
    package.targets.append(.testTarget(name: "PokedexPropertyTests", dependencies: [
        "PokedexTerminal", "PokedexModels", "PokedexCore", "PokedexNetwork", "PokedexTestKit", "CTerminalShims", "PokedexBusServer", "PokedexWidgets",
        .product(name: "PropertyBased", package: "swift-property-based"),
    ], path: "Tests/unit/PokedexPropertyTests"))
}
