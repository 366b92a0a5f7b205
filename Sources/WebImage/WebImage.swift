@_exported import WebImageCodecs
@_exported import WebImageCore
