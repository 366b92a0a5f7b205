// swift-tools-version: 6.2
import Foundation
import PackageDescription

// The library is this package's parent directory, named after the folder it was cloned into.
let libraryPackage = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent()
    .deletingLastPathComponent()
    .lastPathComponent

/// As the library's: Swift 6 language mode from the tools version, warnings are errors.
let strictSettings: [SwiftSetting] = [
    .treatAllWarnings(as: .error),
]

// Built by Scripts/fuzz.sh with -sanitize=fuzzer,address and -enable-testing (the response target reaches the
// downloader's internal header parser through `@testable import`). One program holds every target; its first
// argument names the one to run (`WebImageFuzz --list` lists them), and it hands libFuzzer that target's callback
// through LLVMFuzzerRunDriver.
let package = Package(
    name: "Fuzz",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(path: ".."),
        // For the `webimage` tool's `--transform` parser, compiled into the targets from the tool's own source.
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    ],
    targets: [
        .target(name: "CFuzzerDriver"),
        // The targets and what they share: input readers, random images, the raw loopback server.
        .target(
            name: "WebImageFuzzing",
            dependencies: [
                "CFuzzerDriver",
                .product(name: "WebImage", package: libraryPackage),
                .product(name: "WebImageCurl", package: libraryPackage),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "WebImageFuzz",
            dependencies: ["WebImageFuzzing"],
            swiftSettings: strictSettings
        ),
    ]
)
