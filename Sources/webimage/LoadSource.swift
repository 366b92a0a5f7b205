import WebImage

/// Where a load's image came from, as the output names it.
///
/// JSON keeps the library's name, ``ImageCacheType``'s description: `none`, as SDWebImage's
/// `SDImageCacheTypeNone`, for an image that no cache served (the loader fetched it), then `memory` and `disk`.
/// Text is for people, and says `network` for `none`: a line reading "none" would seem to say nothing was
/// loaded.
enum LoadSource {
    /// The name in text lines for `source`, a report's JSON name.
    static func text(_ source: String) -> String {
        source == ImageCacheType.none.description ? "network" : source
    }
}
