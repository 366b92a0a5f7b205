@_exported import WebImageCodecs
@_exported import WebImageCore
@_exported import WebImageCurl
