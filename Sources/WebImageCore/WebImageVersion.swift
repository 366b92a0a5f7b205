/// The library's version.
public enum WebImageVersion {
    /// The version of this build of swift-web-image, as `MAJOR.MINOR.PATCH`.
    public static let current = "0.1.0"
}
