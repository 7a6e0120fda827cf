// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "pokedexd",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "pokedexd", targets: ["pokedexd"]),
        .executable(name: "pokectl", targets: ["pokectl"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        // C libraries from Debian, bound through pkg-config.
        .systemLibrary(
            name: "CSystemd", pkgConfig: "libsystemd",
            providers: [.apt(["libsystemd-dev"])]),
        .systemLibrary(
            name: "CCurl", pkgConfig: "libcurl",
            providers: [.apt(["libcurl4-openssl-dev"])]),
        // What Swift cannot import: the SD_BUS_* vtable macros and curl's variadic setopt/getinfo.
        .target(name: "CPokedexShims", dependencies: ["CSystemd", "CCurl"]),

        // The domain, free of C: models, tiers, favorites, search, the service.
        .target(name: "PokedexCore"),

        // One sd-event loop thread that owns the bus and the curl multi handle.
        .target(name: "PokedexEventLoop", dependencies: ["CSystemd"]),
        // Adapters: they only translate.
        .target(name: "PokedexCurl", dependencies: ["PokedexCore", "PokedexEventLoop", "CCurl", "CPokedexShims"]),
        .target(name: "PokedexBus", dependencies: ["PokedexCore", "PokedexEventLoop", "CSystemd", "CPokedexShims"]),

        // Thin mains.
        .executableTarget(
            name: "pokedexd",
            dependencies: [
                "PokedexCore", "PokedexBus", "PokedexCurl", "PokedexEventLoop",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),
        .executableTarget(
            name: "pokectl",
            dependencies: [
                "PokedexCore", "PokedexBus",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),

        .testTarget(name: "PokedexCoreTests", dependencies: ["PokedexCore"]),
        .testTarget(name: "PokedexIntegrationTests", dependencies: ["PokedexBus", "PokedexCore"]),
    ],
    swiftLanguageModes: [.v6]
)
