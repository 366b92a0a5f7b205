import Foundation
import WebImage

/// The process settings the demo needs before anything touches the library's shared objects: the shared cache
/// in a fresh temporary directory, and loopback requests that never go through a proxy.
///
/// ``prepare()`` must run first thing in the command, before any code touches `ImageCache.shared` or
/// `ImageManager.shared`; ``remove()`` deletes the temporary directory at the end.
struct DemoEnvironment: Sendable {
    /// The temporary directory that holds the shared cache's root.
    let root: URL

    /// Points the shared cache at a new temporary directory and keeps loopback requests off proxies.
    ///
    /// - Throws: When the directory cannot be made, or when the shared cache turns out to live elsewhere (it was
    ///   touched before this ran): the demo would then read and fill the user's real cache.
    static func prepare() throws -> DemoEnvironment {
        let root = FileManager.default.temporaryDirectory
            .appendingPathComponent("webimage-demo-cache-\(UUID().uuidString)", isDirectory: true)
        try makeDirectory(root.path)
        // `ImageCache.shared` fixes its directory once, when it is first touched, from
        // `DiskCache.defaultRootDirectory`, which reads `XDG_CACHE_HOME`; nothing else chooses the shared cache's
        // directory. So the variable is set for this process, before anything touches the shared cache, and
        // the check below makes sure it took.
        setenv("XDG_CACHE_HOME", root.path, 1)
        // libcurl sends requests to a proxy named in the environment, loopback ones included, unless `no_proxy`
        // lists the host: a user behind a proxy would otherwise send the demo's requests away from its server.
        for name in ["no_proxy", "NO_PROXY"] {
            let current = ProcessInfo.processInfo.environment[name] ?? ""
            if !current.split(separator: ",").contains(where: { $0.trimmingCharacters(in: .whitespaces) == "127.0.0.1" }) {
                setenv(name, current.isEmpty ? "127.0.0.1" : current + ",127.0.0.1", 1)
            }
        }
        let environment = DemoEnvironment(root: root)
        guard environment.cacheDirectory.path.hasPrefix(root.path + "/") else {
            environment.remove()
            throw WebImageError(
                .diskIO,
                "the shared cache is in \(ImageCache.shared.diskCache.directory.path), not in a temporary directory; "
                    + "the demo does not run on a real cache")
        }
        return environment
    }

    /// The shared cache's disk directory (`<root>/swift-web-image/default`).
    var cacheDirectory: URL {
        ImageCache.shared.diskCache.directory
    }

    /// Waits for the shared cache's pending disk work, then deletes the temporary directory.
    func remove() {
        // A synchronous call runs on the disk cache's serial IO queue after everything queued before it.
        _ = ImageCache.shared.diskCache.containsData(forKey: "")
        try? FileManager.default.removeItem(at: root)
    }
}
