// Decodes one file N times with the library's coder, for instruction counting (Scripts/bench.sh --instructions).
// Usage: OurDecode jpeg|png|webp|gif|avif|jxl|heic FILE N
import Foundation
import WebImage

let arguments = CommandLine.arguments
guard arguments.count == 4, let count = Int(arguments[3]),
      let data = try? Data(contentsOf: URL(fileURLWithPath: arguments[2])) else {
    FileHandle.standardError.write(Data("usage: OurDecode jpeg|png|webp|gif|avif|jxl|heic FILE N\n".utf8))
    exit(2)
}
let coder: any ImageCoding = switch arguments[1] {
case "jpeg": JPEGCoder()
case "png": PNGCoder()
case "webp": WebPCoder()
case "avif": AVIFCoder()
case "jxl": JXLCoder()
case "heic": HEIFCoder()
default: GIFCoder()
}
for _ in 0..<count {
    do {
        _ = try coder.decode(data, options: ImageDecodeOptions())
    } catch {
        FileHandle.standardError.write(Data("\(error)\n".utf8))
        exit(1)
    }
}
