// swift-tools-version: 6.2
import PackageDescription

/// Settings shared by every Swift target of the package: Swift 6 language mode comes from the tools
/// version; warnings are errors so that the code stays warning-free.
let strictSettings: [SwiftSetting] = [
    .treatAllWarnings(as: .error),
]

let package = Package(
    name: "swift-web-image",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "WebImage", targets: ["WebImage"]),
        .library(name: "WebImageCore", targets: ["WebImageCore"]),
        .library(name: "WebImageCodecs", targets: ["WebImageCodecs"]),
        .library(name: "WebImageCurl", targets: ["WebImageCurl"]),
        .library(name: "WebImageService", targets: ["WebImageService"]),
        .library(name: "WebImageRedis", targets: ["WebImageRedis"]),
        .library(name: "WebImageTestSupport", targets: ["WebImageTestSupport"]),
        .executable(name: "webimage", targets: ["webimage"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-crypto", "3.0.0"..<"5.0.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.5.0"),
        // For the WebImageService product only: the products above do not depend on it.
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        // For the tests' loopback HTTP server only (HTTP/1.1, and HTTPS with HTTP/2).
        .package(url: "https://github.com/apple/swift-nio", from: "2.80.0"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.0"),
        .package(url: "https://github.com/apple/swift-nio-http2", from: "1.46.0"),
    ],
    targets: [
        // C libraries, found through pkg-config; Scripts/setup.sh installs them.
        .systemLibrary(
            name: "CPNG",
            pkgConfig: "libpng16",
            providers: [.apt(["libpng-dev"]), .brew(["libpng"])]
        ),
        .systemLibrary(
            name: "CTurboJPEG",
            pkgConfig: "libturbojpeg",
            providers: [.apt(["libturbojpeg0-dev"]), .brew(["jpeg-turbo"])]
        ),
        .systemLibrary(
            name: "CWebP",
            pkgConfig: "libwebp",
            providers: [.apt(["libwebp-dev"]), .brew(["webp"])]
        ),
        // Without pkg-config: libavif's flags carry -DAVIF_DLL (for Windows DLL imports), which SwiftPM refuses with
        // a warning on every build. Its header and library are in the system's default paths.
        .systemLibrary(
            name: "CAVIF",
            providers: [.apt(["libavif-dev"]), .brew(["libavif"])]
        ),
        // libjxl 0.7's decoder and encoder, without a thread runner: images are decoded on the caller's thread.
        // Without pkg-config, for the same reason as libavif (its flags carry -DHWY_SHARED_DEFINE).
        .systemLibrary(
            name: "CJXL",
            providers: [.apt(["libjxl-dev"]), .brew(["jpeg-xl"])]
        ),
        .systemLibrary(
            name: "CHEIF",
            pkgConfig: "libheif",
            providers: [.apt(["libheif-dev"]), .brew(["libheif"])]
        ),
        .systemLibrary(
            name: "CGIF",
            providers: [.apt(["libgif-dev"]), .brew(["giflib"])]
        ),
        // libcurl, with inline wrappers for its variadic functions, which Swift cannot call.
        .systemLibrary(
            name: "CCurl",
            pkgConfig: "libcurl",
            providers: [.apt(["libcurl4-openssl-dev"]), .brew(["curl"])]
        ),
        // hiredis, the Redis client of the shared cache tier; only the WebImageRedis product links it. Without
        // pkg-config, for the same reason as libavif (its flags carry -D_FILE_OFFSET_BITS=64); its headers are in
        // the system's default paths, under hiredis/.
        .systemLibrary(
            name: "CHiredis",
            providers: [.apt(["libhiredis-dev"]), .brew(["hiredis"])]
        ),

        // TLS for the Redis tier over OpenSSL (Debian's hiredis 0.14 has none): a session on a thread of its own,
        // which hiredis reaches through a local socket pair. Only the WebImageRedis product links it.
        .target(
            name: "CRedisTLS",
            linkerSettings: [.linkedLibrary("ssl"), .linkedLibrary("crypto")]
        ),

        // C sequences that need setjmp/longjmp (libpng's readers, libjpeg's buffered-image decoder), kept whole
        // inside C functions. libjpeg's own API (not TurboJPEG's) is needed for incremental decoding.
        .target(
            name: "CWebImageShims",
            dependencies: ["CPNG"],
            linkerSettings: [.linkedLibrary("jpeg")]
        ),

        // The core: image model, formats, errors, protocols, registry, pixel work. No C, no network.
        .target(
            name: "WebImageCore",
            dependencies: [
                .product(name: "Logging", package: "swift-log"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
            ],
            swiftSettings: strictSettings
        ),
        // Coders over the C libraries.
        .target(
            name: "WebImageCodecs",
            dependencies: ["WebImageCore", "CPNG", "CTurboJPEG", "CWebP", "CGIF", "CAVIF", "CJXL", "CHEIF", "CWebImageShims"],
            swiftSettings: strictSettings
        ),
        // The downloader: libcurl's multi interface on its own thread.
        .target(
            name: "WebImageCurl",
            dependencies: [
                "WebImageCore", "CCurl",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
            ],
            swiftSettings: strictSettings
        ),
        // The umbrella module.
        .target(
            name: "WebImage",
            dependencies: ["WebImageCore", "WebImageCodecs", "WebImageCurl"],
            swiftSettings: strictSettings
        ),
        // The swift-service-lifecycle integration: a service that stops the manager's loads on graceful shutdown.
        .target(
            name: "WebImageService",
            dependencies: [
                "WebImageCore",
                "WebImageCurl",
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strictSettings
        ),
        // The shared cache tier on Redis, over hiredis. WebImage does not depend on it: a package that does not
        // ask for it does not compile hiredis.
        .target(
            name: "WebImageRedis",
            dependencies: ["WebImageCore", "CHiredis", "CRedisTLS"],
            swiftSettings: strictSettings
        ),
        // Fixtures, corrupt-input generators, pixel assertions and the loopback HTTP server for the tests.
        .target(
            name: "WebImageTestSupport",
            dependencies: [
                "WebImageCore",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTPCompression", package: "swift-nio-extras"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOHTTP2", package: "swift-nio-http2"),
            ],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "webimage",
            dependencies: [
                "WebImage",
                // `fetch --shared-cache`: the Redis tier, whose warnings go to standard error.
                "WebImageRedis",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                // The loopback server of `webimage demo`, which serves the bundled samples: plain HTTP/1.1 only.
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            resources: [.copy("Samples")],
            swiftSettings: strictSettings
        ),

        .testTarget(
            name: "WebImageCoreTests",
            // swift-crypto checks the library's own MD5; the library itself does not depend on it.
            dependencies: ["WebImageCore", "WebImageTestSupport", .product(name: "Crypto", package: "swift-crypto")],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "WebImageCodecsTests",
            dependencies: ["WebImageCodecs", "WebImageTestSupport"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "WebImageCurlTests",
            dependencies: ["WebImageCurl", "WebImageCodecs", "WebImageTestSupport"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "WebImageTests",
            // The tool is a dependency so that its binary is built next to the tests, which run it.
            dependencies: [
                "WebImage", "WebImageTestSupport", "webimage",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "MetricsTestKit", package: "swift-metrics"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "WebImageRedisTests",
            // The tests start their own redis-server on a loopback port; Scripts/setup.sh installs it. The fleet
            // tests run the `webimage` tool as processes against a loopback origin.
            dependencies: ["WebImageRedis", "WebImage", "WebImageTestSupport"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "WebImageServiceTests",
            dependencies: [
                "WebImageService",
                "WebImageCodecs",
                "WebImageTestSupport",
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "ServiceLifecycleTestKit", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
    ]
)
