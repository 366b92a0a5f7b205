@_exported import WebImageCore
