// swift-tools-version: 6.2
import Foundation
import PackageDescription

// The library is this package's parent directory, named after the folder it was cloned into.
let libraryPackage = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent()
    .deletingLastPathComponent()
    .lastPathComponent

// Built by Scripts/fuzz.sh with -sanitize=fuzzer,address: the program's main hands libFuzzer a callback
// through LLVMFuzzerRunDriver, and libFuzzer calls it with generated inputs.
let package = Package(
    name: "Fuzz",
    platforms: [.macOS(.v15)],
    dependencies: [.package(path: "..")],
    targets: [
        .target(name: "CFuzzerDriver"),
        .executableTarget(
            name: "DecodeFuzzer",
            dependencies: ["CFuzzerDriver", .product(name: "WebImage", package: libraryPackage)]
        ),
    ]
)
