import WebImageCore

extension WebImageTarget {
    /// ``ImageManager/shared``, for targets that name no manager of their own.
    public var webImageManager: ImageManager { .shared }
}
