import WebImage

// Touches each module the product brings: the coders, the disk cache's file names, the downloader's types.
let formats = [ImageFormat.jpeg, .png, .webp, .gif].filter { ImageCoderRegistry.shared.canEncode(to: $0) }
print(formats.map(\.name).joined(separator: " "))
print(DiskCache.fileName(forKey: "https://placehold.co/50x50.jpg"))
print(ImageDownloaderConfig().maxConcurrentDownloads)
