// swift-tools-version: 6.2
import Foundation
import PackageDescription

// A package that depends on the library's `WebImage` product alone, as a user's would: check.sh builds it in
// release mode and fails if anything of SwiftNIO or BoringSSL is compiled. The library is two folders up; SwiftPM
// names a path dependency after its folder, which depends on where the repository was cloned.
let libraryPackage = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent()
    .deletingLastPathComponent()
    .deletingLastPathComponent()
    .lastPathComponent

let package = Package(
    name: "Consumer",
    platforms: [.macOS(.v15)],
    dependencies: [.package(path: "../..")],
    targets: [
        .executableTarget(name: "Consumer", dependencies: [.product(name: "WebImage", package: libraryPackage)]),
    ]
)
